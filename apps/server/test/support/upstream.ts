import { inArray } from 'drizzle-orm';
import { expect } from 'vitest';
import { catalogSnapshots } from '../../src/db/schema';
import { createActivationSync } from '../../src/modules/orders/activations/sync';
import { createTestApp, type TestApp } from './app';

const CATALOG_LOAD_ATTEMPTS = 5;

/**
 * The app listening on a free port, so its SMS-Activate adapter reaches the built-in simulator over real
 * HTTP, with the catalog loaded. SMS arrive only when a test injects them (or moves the clock far).
 */
export async function createListeningTestApp(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestApp>[1] = {},
): Promise<TestApp> {
  const t = await createTestApp(
    {
      SIMULATOR_SEED: '42',
      SIMULATOR_NO_SMS_RATE: '1',
      SIMULATOR_SMS_DELAY_MIN_MS: '0',
      SIMULATOR_SMS_DELAY_MAX_MS: '0',
      SMS_PROVIDER_TIMEOUT_MS: '3000',
      RATE_LIMIT_PURCHASES_PER_MINUTE: '1000',
      UPSTREAM_SYNC_BUDGET_PER_MINUTE: '1000',
      ...env,
    },
    options,
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.ctx.loopback.setFromAddress(t.app.server.address());
  // On a busy machine one catalog call can outlast the provider timeout: wait on the catalog loading, a
  // bounded number of tries, not on one call's time. Every supplier's: the product runs on the ones that
  // answered, but a failover test needs the second supplier's offers.
  const names = t.ctx.providers.names;
  let missing = names;
  for (let attempt = 0; attempt < CATALOG_LOAD_ATTEMPTS && missing.length > 0; attempt += 1) {
    await t.ctx.catalog.refreshFromUpstream();
    const stored = await t.ctx.database.db
      .select({ provider: catalogSnapshots.provider })
      .from(catalogSnapshots)
      .where(inArray(catalogSnapshots.provider, [...names]));
    missing = names.filter((name) => !stored.some((row) => row.provider === name));
  }
  if (missing.length > 0) throw new Error(`the simulator catalog did not load: ${missing.join(', ')}`);
  return t;
}

/**
 * Calls a simulator's control API (test knobs: faults, injected SMS, state): the first simulator's unless
 * another supplier of the pool is named.
 */
export async function simulatorControl(
  t: TestApp,
  command: string,
  body: unknown = {},
  simulator?: string,
): Promise<unknown> {
  const prefix = simulator
    ? t.ctx.simulators.inProcess.find((mounted) => mounted.name === simulator)!.prefix
    : '/simulator';
  const response = await fetch(`${t.ctx.loopback.origin}${prefix}/control/${command}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-simulator-key': t.config.SMS_PROVIDER_KEY },
    body: JSON.stringify(body),
  });
  const payload = await response.json();
  if (!response.ok) throw new Error(`simulator control ${command} failed: ${JSON.stringify(payload)}`);
  return payload;
}

/**
 * The service with the most numbers in stock in a country, so tests can buy many; other than `except`
 * when a test needs two services (which one has the most stock changes with the simulators' hour).
 */
export function anOffer(
  t: TestApp,
  countryId = 'US',
  except?: string,
): { countryId: string; service: string; priceCents: number } {
  const offer = t.ctx.catalog
    .services(countryId)
    .filter((entry) => entry.service !== except)
    .reduce((best, entry) => (entry.stock > best.stock ? entry : best));
  if (offer.stock < 50) throw new Error(`not enough in stock in ${countryId}`);
  return { countryId, service: offer.service, priceCents: offer.priceCents };
}

/**
 * A service of a country that `first` sells first and `second` sells at a price that covers it, so a
 * purchase can fail over from one to the other. The simulators' prices drift by the hour, so which
 * service that is changes with the time of the run.
 */
export function aFailoverOffer(t: TestApp, countryId: string, first: string, second: string) {
  const offer = t.ctx.catalog.services(countryId).find((entry) => {
    const { candidates } = t.ctx.catalog.quote(countryId, 'any', entry.service);
    return candidates[0]?.provider === first && candidates.some((c) => c.provider === second);
  });
  if (!offer) throw new Error(`no service of ${countryId} fails over from ${first} to ${second}`);
  return offer;
}

/** The activation sync job of one provider (the first unless named); `startedAt` as in the first run after a start. */
export function activationSync(t: TestApp, options: { provider?: string; startedAt?: Date } = {}) {
  const name = options.provider ?? t.ctx.providers.names[0]!;
  return createActivationSync({
    orders: t.ctx.orders.activations,
    provider: t.ctx.providers.get(name),
    budget: t.ctx.upstreamBudgets.get(name)!,
    startedAt: options.startedAt,
  });
}

/**
 * Waits until `read` gives `expected` after an SMS was injected. The simulator pushes it to the product's
 * webhook; on a busy machine a push can outlast the receiver's 3 s and go to the back of the retry queue,
 * and then the product's sync reads it from the supplier, as it does when a real supplier's push is lost.
 */
export async function untilDelivered<T>(t: TestApp, read: () => Promise<T>, expected: T): Promise<void> {
  await expect
    .poll(
      async () => {
        const value = await read();
        if (value !== expected) await activationSync(t).run();
        return value;
      },
      { timeout: 20_000 },
    )
    .toBe(expected);
}

/** Buys one number of `service` in `countryId` through the dashboard's route, as the web app does. */
export function buyThroughApi(
  t: TestApp,
  user: { headers: Record<string, string> },
  service: string,
  countryId = 'US',
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/dashboard/buy-number',
    headers: user.headers,
    payload: { countryID: countryId, service },
  });
}
