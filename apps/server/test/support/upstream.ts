import { createActivationSync } from '../../src/modules/orders/activations/sync';
import { createTestApp, type TestApp } from './app';

/**
 * The app listening on a free port, so its SMS-Activate adapter reaches the built-in simulator over real
 * HTTP, with the catalog loaded. SMS arrive only when a test injects them (or moves the clock far).
 */
export async function createListeningTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({
    SIMULATOR_SEED: '42',
    SIMULATOR_NO_SMS_RATE: '1',
    SIMULATOR_SMS_DELAY_MIN_MS: '0',
    SIMULATOR_SMS_DELAY_MAX_MS: '0',
    SMS_PROVIDER_TIMEOUT_MS: '3000',
    RATE_LIMIT_PURCHASES_PER_MINUTE: '1000',
    UPSTREAM_SYNC_BUDGET_PER_MINUTE: '1000',
    ...env,
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  t.ctx.loopback.setFromAddress(t.app.server.address());
  if (!(await t.ctx.catalog.refreshFromUpstream())) throw new Error('the simulator catalog did not load');
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
    ? t.ctx.simulators.find((mounted) => mounted.name === simulator)!.prefix
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

/** The service with the most numbers in stock in a country, so tests can buy many. */
export function anOffer(
  t: TestApp,
  countryId = 'US',
): { countryId: string; service: string; priceCents: number } {
  const offer = t.ctx.catalog
    .services(countryId)
    .reduce((best, entry) => (entry.stock > best.stock ? entry : best));
  if (offer.stock < 50) throw new Error(`not enough in stock in ${countryId}`);
  return { countryId, service: offer.service, priceCents: offer.priceCents };
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
