import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import { buyThroughApi, createListeningTestApp, simulatorControl } from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { activations, auditLog, providerHealthReports } from '../../../db/schema';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const list = (admin: TestUser) => t.app.inject({ url: '/api/admin/providers', headers: admin.headers });
const setRouting = (admin: TestUser, name: string, inRouting: boolean) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/providers/${name}/routing`,
    headers: admin.headers,
    payload: { in_routing: inRouting, reason: 'provider incident #4' },
  });

describe('providers in the console', () => {
  /** Two simulators, and one purchase whose call to sim-a fails (then goes to sim-b); the administrator. */
  async function failOnePurchaseCallAtSimA() {
    // Pinned, so the purchase asks sim-a first and meets its failure.
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'US=sim-a' });
    const admin = await createUser(t, { admin: true });
    await simulatorControl(t, 'fault', { action: 'getNumberV2', token: 'ERROR_SQL', times: 1 }, 'sim-a');
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = t.ctx.catalog
      .services('US')
      .find(
        (entry) =>
          entry.providerOffers.some((candidate) => candidate.provider === 'sim-a') && entry.stock > 0,
      )!;
    await buyThroughApi(t, user, offer.service);
    return admin;
  }

  it('shows each provider’s balance in dollars, health and recent errors', async () => {
    const admin = await failOnePurchaseCallAtSimA();
    const response = await list(admin);
    expect(response.statusCode, response.body).toBe(200);
    const providers = response.json().providers;
    expect(providers.map((provider: { name: string }) => provider.name)).toEqual(['sim-a', 'sim-b']);
    for (const provider of providers) {
      expect(provider.balance, provider.name).toBeGreaterThan(0);
      expect(provider.in_routing).toBe(true);
    }
    expect(providers[0]).toMatchObject({ kind: 'simulator', rents: true });
    expect(providers[1]).toMatchObject({ rents: false });
    expect(providers[0].health).toMatchObject({ calls: 1, error_rate: 1 });
    expect(providers[0].recent_errors).toEqual([
      expect.objectContaining({ message: expect.stringContaining('ERROR_SQL') }),
    ]);
  });

  it('combines every instance’s fresh report of its calls, whichever instance answers', async () => {
    const admin = await failOnePurchaseCallAtSimA();
    // This instance's report is in the database for the others.
    await t.ctx.healthReports.publish();
    const published = await t.ctx.database.db.select().from(providerHealthReports);
    expect(published.map((report) => report.provider).sort()).toEqual(['sim-a', 'sim-b']);
    expect(published.find((report) => report.provider === 'sim-a')).toMatchObject({ calls: 1, errorRate: 1 });

    const now = t.ctx.clock.now().getTime();
    const report = (instance: string, reportedAgoMs: number, message: string) => ({
      instance,
      provider: 'sim-a',
      calls: 3,
      averageLatencyMs: 100,
      errorRate: 0,
      noNumbersRate: 1 / 3,
      coolingUntil: new Date(now + 60_000),
      recentErrors: [{ at: new Date(now + 1_000).toISOString(), message }],
      reportedAt: new Date(now - reportedAgoMs),
    });
    await t.ctx.database.db
      .insert(providerHealthReports)
      .values([report('other', 5_000, 'from the other instance'), report('gone', 120_000, 'stale')]);

    const providers = (await list(admin)).json().providers;
    const simA = providers.find((provider: { name: string }) => provider.name === 'sim-a');
    expect(simA.health).toMatchObject({
      calls: 4,
      error_rate: 0.25,
      no_numbers_rate: 0.25,
      instances: 2,
      cooling_until: new Date(now + 60_000).toISOString(),
    });
    expect(simA.recent_errors.map((error: { message: string }) => error.message)).toEqual([
      'from the other instance',
      expect.stringContaining('ERROR_SQL'),
    ]);
    // sim-b sold the number: its one call, from this instance alone.
    expect(providers.find((provider: { name: string }) => provider.name === 'sim-b').health).toMatchObject({
      calls: 1,
      error_rate: 0,
      instances: 1,
    });
  });

  it('takes a provider out of routing: its offers leave the shop and purchases go elsewhere; never the last one', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b' });
    const admin = await createUser(t, { admin: true });
    const out = await setRouting(admin, 'sim-a', false);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toMatchObject({ message: 'sim-a is out of routing: no new purchases go to it.' });
    for (const country of t.ctx.catalog.countries())
      for (const offer of t.ctx.catalog.services(country.id))
        expect(offer.providerOffers.every((candidate) => candidate.provider === 'sim-b')).toBe(true);

    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = t.ctx.catalog.services('US').find((entry) => entry.stock > 0)!;
    const bought = await buyThroughApi(t, user, offer.service);
    expect(bought.statusCode, bought.body).toBe(200);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order?.provider).toBe('sim-b');

    expect((await setRouting(admin, 'sim-b', false)).statusCode).toBe(409);
    expect((await setRouting(admin, 'sim-a', true)).statusCode).toBe(200);
    expect(
      t.ctx.catalog
        .services('US')
        .some((entry) => entry.providerOffers.some((candidate) => candidate.provider === 'sim-a')),
    ).toBe(true);
    const audit = await t.ctx.database.db.select().from(auditLog);
    expect(audit.map((entry) => entry.action)).toEqual(['provider.disable', 'provider.enable']);
    expect((await setRouting(admin, 'nosuch', false)).statusCode).toBe(404);
  });
});
