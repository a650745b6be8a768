import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import { HOUR_MS, longTermBody, rentAction, rentRequest } from '../../../../test/support/rents';
import { createListeningTestApp, simulatorControl } from '../../../../test/support/upstream';
import { createUser } from '../../../../test/support/users';
import { ledgerEntries, rents } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

/** Two simulated suppliers that both speak SMS-Activate's protocol, so both rent numbers. */
async function twoRentingSuppliers(): Promise<TestApp> {
  const app = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-c', SIM_C_KIND: 'simulator' });
  app.clock.set(Date.UTC(2026, 10, 25, 12, 0, 0));
  for (const simulator of ['sim-a', 'sim-c'])
    await simulatorControl(
      app,
      'settings',
      { smsDelayMinMs: 1000 * HOUR_MS, smsDelayMaxMs: 1000 * HOUR_MS },
      simulator,
    );
  return app;
}

/** A US rent option both suppliers sell with stock, where the second's cost is within the first's price. */
async function sharedRentOffer() {
  for (const offer of await t.ctx.rentals.catalog.offers('US', 24, 'purchase')) {
    const [first, second] = offer.providerOffers;
    if (first && second && second.costCents <= first.priceCents && first.stock >= 5 && second.stock >= 5)
      return { countryId: 'US', key: offer.key, offer, first: first.provider, second: second.provider };
  }
  throw new Error('the two simulators share no US rent option within each other’s price');
}

describe('rents across suppliers', () => {
  it('lists one offer per option, with the stock of both suppliers and the price routing picks', async () => {
    t = await twoRentingSuppliers();
    const { offer } = await sharedRentOffer();
    expect(offer.providerOffers.map((entry) => entry.provider).sort()).toEqual(['sim-a', 'sim-c']);
    expect(offer.stock).toBe(offer.providerOffers.reduce((sum, entry) => sum + entry.stock, 0));
    expect(offer.priceCents).toBe(offer.providerOffers[0]!.priceCents);
  });

  it('rents from the next supplier when the first has no numbers, and keeps the rent there afterwards', async () => {
    t = await twoRentingSuppliers();
    const shared = await sharedRentOffer();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    await simulatorControl(
      t,
      'fault',
      { action: 'getRentNumber', token: 'NO_NUMBERS', times: 1 },
      shared.first,
    );

    const response = await rentRequest(t, user, longTermBody(shared));
    expect(response.statusCode, response.body).toBe(200);
    const rent = response.json().rent;
    const [row] = await t.ctx.database.db.select().from(rents);
    expect(row).toMatchObject({
      provider: shared.second,
      status: 'active',
      priceCents: shared.offer.priceCents,
    });
    // The public id is ours: the supplier's own id stays inside.
    expect(rent.order_id).toBe(String(row!.id));
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - shared.offer.priceCents);

    // Its SMS come through that supplier's webhook.
    await simulatorControl(
      t,
      'sms',
      { phone: row!.phoneNumber, from: 'Bank', text: 'Code 5150' },
      shared.second,
    );
    await expect
      .poll(
        async () =>
          (
            await t.app.inject({ url: `/api/dashboard/rent-status/${rent.order_id}`, headers: user.headers })
          ).json().values.length,
        { timeout: 5000 },
      )
      .toBe(1);

    // A renewal stays at the rent's supplier: its end date there moves with ours.
    const renewed = await rentAction(t, user, rent.order_id, 'renew', { periodID: 24 });
    expect(renewed.statusCode, renewed.body).toBe(200);
    const state = (await simulatorControl(t, 'state', { rentId: row!.providerRentId }, shared.second)) as {
      rent: { endsAtMs: number };
    };
    expect(state.rent.endsAtMs).toBe(new Date(renewed.json().rent.end_date).getTime());
    expect(state.rent.endsAtMs - row!.endsAt!.getTime()).toBe(24 * HOUR_MS);
  });

  it('refunds once, with the last supplier’s reason, when no supplier has a number', async () => {
    t = await twoRentingSuppliers();
    const shared = await sharedRentOffer();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    for (const simulator of ['sim-a', 'sim-c'])
      await simulatorControl(
        t,
        'fault',
        { action: 'getRentNumber', token: 'NO_NUMBERS', times: 0 },
        simulator,
      );

    const response = await rentRequest(t, user, longTermBody(shared));
    expect(response.statusCode).toBe(409);
    expect(response.json()).toMatchObject({ success: false, code: 'upstream_no_numbers' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000);
    const [row] = await t.ctx.database.db.select().from(rents);
    expect(row).toMatchObject({ status: 'failed', provider: shared.second });
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds).toHaveLength(1);
  });
});
