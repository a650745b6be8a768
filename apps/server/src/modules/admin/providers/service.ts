import { type AdminProvider, adminMessages } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import type { Database, Executor } from '../../../db/client';
import { providerSettings } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { fail, notFound } from '../../../lib/errors';
import type { ProviderPool } from '../../../providers/sms/pool';
import type { CatalogService } from '../../catalog/service';
import { lateSmsByProvider } from '../../orders/late-sms';
import { type Actor, recordAudit } from '../audit';
import type { HealthReports } from './health-reports';

/** A balance read that takes longer is shown as unknown: the console must not hang on a slow provider. */
const BALANCE_TIMEOUT_MS = 5_000;

/** The providers an administrator took out of routing, as stored. */
export async function providersOutOfRouting(db: Executor): Promise<string[]> {
  const rows = await db.select().from(providerSettings).where(eq(providerSettings.routingEnabled, false));
  return rows.map((row) => row.provider);
}

/** Each instance applies the stored switches with every catalog refresh (and the deciding one at once). */
export async function applyRoutingSwitches(db: Executor, providers: ProviderPool): Promise<boolean> {
  const out = await providersOutOfRouting(db);
  const changed = providers.names.some((name) => providers.inRouting(name) === out.includes(name));
  providers.setOutOfRouting(out);
  return changed;
}

/** Balances are read again after this long: the overview and the providers page must not ask on every view. */
const BALANCE_TTL_MS = 30_000;
const balanceReads = new WeakMap<
  ProviderPool,
  { atMs: number; value: Promise<Map<string, number | null>> }
>();

/** Every provider's balance in US dollars, or null where it could not be read in time; kept for 30 s. */
export function providerBalances(providers: ProviderPool): Promise<Map<string, number | null>> {
  const nowMs = Date.now();
  const kept = balanceReads.get(providers);
  if (kept && nowMs - kept.atMs < BALANCE_TTL_MS) return kept.value;
  const value = readBalances(providers);
  balanceReads.set(providers, { atMs: nowMs, value });
  return value;
}

async function readBalances(providers: ProviderPool): Promise<Map<string, number | null>> {
  const entries = await Promise.all(
    providers.members.map(async (member) => {
      try {
        const balance = await Promise.race([
          member.provider.getBalance(),
          new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('timeout')), BALANCE_TIMEOUT_MS).unref(),
          ),
        ]);
        return [member.name, Math.round(balance * member.usdRate * 100) / 100] as const;
      } catch {
        return [member.name, null] as const;
      }
    }),
  );
  return new Map(entries);
}

interface Deps {
  db: Database;
  providers: ProviderPool;
  catalog: CatalogService;
  clock: Clock;
  healthReports: HealthReports;
}

/** The console's providers: health, balance, recent errors, and the switch that takes one out of routing. */
export function createAdminProvidersService({ db, providers, catalog, clock, healthReports }: Deps) {
  return {
    /** Each provider with its health over every instance, whichever of them answers. */
    async list(): Promise<AdminProvider[]> {
      const [balances, lateSms, healths] = await Promise.all([
        providerBalances(providers),
        lateSmsByProvider(db),
        healthReports.combined(),
      ]);
      return providers.members.map((member) => {
        const health = healths.get(member.name)!;
        return {
          name: member.name,
          kind: member.kind,
          in_routing: providers.inRouting(member.name),
          balance: balances.get(member.name) ?? null,
          rents: member.rents !== undefined,
          late_sms: lateSms[member.name] ?? 0,
          health: {
            calls: health.calls,
            average_latency_ms: health.averageLatencyMs === null ? null : Math.round(health.averageLatencyMs),
            error_rate: health.errorRate,
            no_numbers_rate: health.noNumbersRate,
            delivery_rate: health.deliveryRate,
            time_to_code_ms:
              health.averageTimeToCodeMs === null ? null : Math.round(health.averageTimeToCodeMs),
            cooling_until: health.coolingUntil?.toISOString() ?? null,
            instances: health.instances,
          },
          recent_errors: health.recentErrors.map((error) => ({
            at: error.at.toISOString(),
            message: error.message,
          })),
        };
      });
    },

    /**
     * Takes a provider out of routing or puts it back, with its audit entry in the same transaction; this
     * instance's shop follows at once, the others with their next catalog refresh. The last provider in
     * routing stays: a shop with nothing to sell helps nobody.
     */
    async setRouting(actor: Actor, name: string, inRouting: boolean, reason: string) {
      if (!providers.has(name)) throw notFound();
      await db.transaction(async (tx) => {
        const out = new Set(await providersOutOfRouting(tx));
        const before = !out.has(name);
        if (inRouting) out.delete(name);
        else out.add(name);
        if (providers.names.every((provider) => out.has(provider))) throw fail('last_provider');
        await tx
          .insert(providerSettings)
          .values({ provider: name, routingEnabled: inRouting, updatedAt: clock.now() })
          .onConflictDoUpdate({
            target: providerSettings.provider,
            set: { routingEnabled: inRouting, updatedAt: clock.now() },
          });
        await recordAudit(
          tx,
          actor,
          {
            action: inRouting ? 'provider.enable' : 'provider.disable',
            objectType: 'provider',
            objectId: name,
            before: { in_routing: before },
            after: { in_routing: inRouting },
            reason,
          },
          clock.now(),
        );
      });
      if (await applyRoutingSwitches(db, providers)) catalog.reprice();
      return inRouting ? adminMessages.providerEnabled(name) : adminMessages.providerDisabled(name);
    },
  };
}

export type AdminProvidersService = ReturnType<typeof createAdminProvidersService>;
