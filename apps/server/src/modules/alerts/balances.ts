import { and, desc, eq, gte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { type SupplierBalanceReading, supplierBalanceReadings } from '../../db/schema';
import type { CallBudget } from '../../lib/call-budget';
import type { Clock } from '../../lib/clock';
import type { ProviderPool } from '../../providers/sms/pool';
import type { Condition } from './book';
import type { AlertSettings } from './settings';

/** The budget's owner name: balance readings count against the supplier's upstream call budget. */
export const BALANCE_BUDGET_OWNER = 'balance';
/** The spend rate is read from this much of the series. */
const SPEND_WINDOW_MS = 24 * 60 * 60_000;
/** Readings closer together than this give no rate: a spend over minutes says little of a day. */
const MIN_RATE_SPAN_MS = 10 * 60_000;
const HOUR_MS = 60 * 60_000;
const BALANCES_PAGE = '/admin/alerts';

/** What the series says of one supplier now. */
export interface BalanceOutlook {
  provider: string;
  balanceCents: number;
  readAt: Date;
  /** Cents spent per hour over the window (top-ups left out); null while the series is too short. */
  spendCentsPerHour: number | null;
  /** Hours until the balance reaches zero at that rate; null without a rate. */
  hoursLeft: number | null;
}

interface BalanceDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  providers: ProviderPool;
  upstreamBudgets: ReadonlyMap<string, CallBudget>;
}

/**
 * The spend rate from a series oldest first: every drop between two readings is spend, a rise is a top-up
 * and is left out, over the time the series covers.
 */
export function spendRate(series: readonly Pick<SupplierBalanceReading, 'balanceCents' | 'readAt'>[]) {
  if (series.length < 2) return null;
  const spanMs = series.at(-1)!.readAt.getTime() - series[0]!.readAt.getTime();
  if (spanMs < MIN_RATE_SPAN_MS) return null;
  let spentCents = 0;
  for (let index = 1; index < series.length; index += 1) {
    const drop = series[index - 1]!.balanceCents - series[index]!.balanceCents;
    if (drop > 0) spentCents += drop;
  }
  return (spentCents / spanMs) * HOUR_MS;
}

/**
 * Each supplier's balance as a series: read within its upstream call budget (one call per supplier per
 * run), stored a row per reading, and applied to routing (an empty account leaves it, a topped-up one
 * comes back).
 */
export function createSupplierBalances({ db, clock, log, providers, upstreamBudgets }: BalanceDeps) {
  async function latest(provider: string): Promise<SupplierBalanceReading | undefined> {
    const [reading] = await db
      .select()
      .from(supplierBalanceReadings)
      .where(eq(supplierBalanceReadings.provider, provider))
      .orderBy(desc(supplierBalanceReadings.readAt), desc(supplierBalanceReadings.id))
      .limit(1);
    return reading;
  }

  return {
    /** Reads every supplier's balance once (those whose budget allows it now); returns how many were read. */
    async read(): Promise<number> {
      let read = 0;
      for (const member of providers.members) {
        if (!upstreamBudgets.get(member.name)?.tryTake(BALANCE_BUDGET_OWNER)) continue;
        try {
          const balance = await member.provider.getBalance();
          // Our cents, rounded down: a supplier's fraction of a cent buys nothing.
          const balanceCents = Math.floor(balance * member.usdRate * 100 + 1e-6);
          await db
            .insert(supplierBalanceReadings)
            .values({ provider: member.name, balanceCents, readAt: clock.now() });
          read += 1;
        } catch (error) {
          log.warn({ err: error, provider: member.name }, 'could not read the supplier balance');
        }
      }
      return read;
    },

    /**
     * Applies each supplier's latest reading to this process's routing: at zero it leaves routing; a
     * reading with money taken after it left brings it back. Every instance runs it; only one reads.
     */
    async applyToRouting(): Promise<void> {
      for (const name of providers.names) {
        const reading = await latest(name);
        if (!reading) continue;
        if (reading.balanceCents <= 0) providers.markOutOfBalance(name, reading.readAt);
        else {
          const since = providers.outOfBalanceSince(name);
          if (since && reading.readAt.getTime() > since.getTime()) providers.markFunded(name);
        }
      }
    },

    /** Each supplier's latest balance, spend rate and time left. */
    async outlook(): Promise<BalanceOutlook[]> {
      const since = new Date(clock.now().getTime() - SPEND_WINDOW_MS);
      const outlooks: BalanceOutlook[] = [];
      for (const name of providers.names) {
        const series = await db
          .select()
          .from(supplierBalanceReadings)
          .where(and(eq(supplierBalanceReadings.provider, name), gte(supplierBalanceReadings.readAt, since)))
          .orderBy(supplierBalanceReadings.readAt, supplierBalanceReadings.id);
        const last = series.at(-1);
        if (!last) continue;
        const rate = spendRate(series);
        outlooks.push({
          provider: name,
          balanceCents: last.balanceCents,
          readAt: last.readAt,
          spendCentsPerHour: rate === null ? null : Math.round(rate),
          hoursLeft: rate === null || rate <= 0 ? null : Math.max(0, last.balanceCents / rate),
        });
      }
      return outlooks;
    },
  };
}

export type SupplierBalances = ReturnType<typeof createSupplierBalances>;

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** The low-balance conditions of the outlooks under the settings. */
export function lowBalanceConditions(
  outlooks: readonly BalanceOutlook[],
  settings: AlertSettings,
): Condition[] {
  return outlooks.flatMap((outlook) => {
    const underFloor = outlook.balanceCents < settings.balanceFloorCents;
    const runsOut = outlook.hoursLeft !== null && outlook.hoursLeft < settings.balanceHorizonHours;
    if (!underFloor && !runsOut) return [];
    const why = underFloor
      ? `under the floor of ${dollars(settings.balanceFloorCents)}`
      : `runs out in about ${outlook.hoursLeft!.toFixed(1)} h at ${dollars(outlook.spendCentsPerHour!)}/h`;
    return [
      {
        key: `supplier_balance_low:${outlook.provider}`,
        kind: 'supplier_balance_low' as const,
        summary: `Supplier ${outlook.provider}: balance ${dollars(outlook.balanceCents)}, ${why}.`,
        evidence: {
          provider: outlook.provider,
          balance_cents: outlook.balanceCents,
          spend_cents_per_hour: outlook.spendCentsPerHour,
          hours_left: outlook.hoursLeft === null ? null : Math.round(outlook.hoursLeft * 10) / 10,
          floor_cents: settings.balanceFloorCents,
          horizon_hours: settings.balanceHorizonHours,
        },
        link: BALANCES_PAGE,
        since: outlook.readAt,
      },
    ];
  });
}

/** Suppliers out of routing because their account is empty. */
export function outOfRoutingConditions(providers: ProviderPool): Condition[] {
  return providers.names.flatMap((name) => {
    const since = providers.outOfBalanceSince(name);
    if (!since) return [];
    return [
      {
        key: `supplier_out_of_routing:${name}`,
        kind: 'supplier_out_of_routing' as const,
        summary: `Supplier ${name} is out of routing: its balance is spent. Purchases go to the other suppliers until it is topped up.`,
        evidence: { provider: name, reason: 'no_balance' },
        link: '/admin/providers',
        since,
      },
    ];
  });
}
