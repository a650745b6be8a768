import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { fundUser } from '../../../test/support/money';
import { anOffer, createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { activations } from '../../db/schema';

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

/** Buys a number and answers the id the simulator recorded as its buyer (`resellerUserId`), if any. */
async function buyerSeenUpstream(user: TestUser): Promise<string | undefined> {
  const offer = anOffer(t);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/buy-number',
    headers: user.headers,
    payload: { countryID: offer.countryId, service: offer.service },
  });
  expect(response.statusCode, response.body).toBe(200);
  const [order] = await t.ctx.database.db
    .select()
    .from(activations)
    .where(eq(activations.id, response.json().number.id));
  const { activation } = (await simulatorControl(t, 'state', {
    activationId: order!.providerActivationId,
  })) as {
    activation: { resellerUserId?: string };
  };
  return activation.resellerUserId;
}

describe("the buyer's anonymous id on purchases (HeroSMS's resellerUserId)", () => {
  it('names each buyer by a stable id that is not their user id, where the supplier takes one', async () => {
    t = await createListeningTestApp({ SIM_A_RESELLER_USER_ID: 'true' });
    const alice = await createUser(t);
    const bob = await createUser(t);
    await fundUser(t.ctx.database, alice.id, 10_000);
    await fundUser(t.ctx.database, bob.id, 10_000);

    const first = await buyerSeenUpstream(alice);
    expect(first).toMatch(/^[0-9a-f]{24}$/);
    expect(first).not.toBe(String(alice.id));
    expect(await buyerSeenUpstream(alice)).toBe(first);
    const other = await buyerSeenUpstream(bob);
    expect(other).toMatch(/^[0-9a-f]{24}$/);
    expect(other).not.toBe(first);
  });

  it('sends none to a supplier not set to take it', async () => {
    t = await createListeningTestApp();
    const alice = await createUser(t);
    await fundUser(t.ctx.database, alice.id, 10_000);
    expect(await buyerSeenUpstream(alice)).toBeUndefined();
  });
});
