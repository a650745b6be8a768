import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, createTestApp, type TestApp } from '../../../test/support/app';
import { createUser } from '../../../test/support/users';
import { activationMessages, activations } from '../../db/schema';
import { createDeliveryBand } from './delivery-band';

// Issue 30: a supplier whose codes stop arriving is out of its normal band, though it still answers.

let t: TestApp;
afterEach(async () => {
  if (t) await closeTestApp(t);
});

const NOW = Date.parse('2026-11-20T12:00:00Z');
const MINUTE_MS = 60_000;

/** Orders with a known end, bought `minutesAgo` before now: settled with a code, or expired without one. */
async function orders(
  userId: number,
  provider: string,
  minutesAgo: number,
  count: number,
  withCode: boolean,
  codeAfterSeconds = 30,
) {
  const createdAt = new Date(NOW - minutesAgo * MINUTE_MS);
  const bought = await t.ctx.database.db
    .insert(activations)
    .values(
      Array.from({ length: count }, () => ({
        userId,
        provider,
        countryId: 'US',
        service: 'tg',
        priceCents: 100,
        upstreamMaxPrice: '1',
        status: withCode ? ('received' as const) : ('expired' as const),
        createdAt,
        expiresAt: new Date(createdAt.getTime() + 20 * MINUTE_MS),
      })),
    )
    .returning({ id: activations.id });
  if (!withCode) return;
  await t.ctx.database.db.insert(activationMessages).values(
    bought.map(({ id }) => ({
      activationId: id,
      code: '123456',
      text: 'Your code 123456',
      receivedAt: new Date(createdAt.getTime() + codeAfterSeconds * 1000),
      dedupeKey: `${id}`,
    })),
  );
}

describe("a supplier's delivery band", () => {
  it('flags a supplier whose last hour delivers far under its week, and not one within its band', async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    const user = await createUser(t);
    const twoDays = 2 * 24 * 60;
    // sim-a: every code arrived during the week; in the last hour none did.
    await orders(user.id, 'sim-a', twoDays, 10, true);
    await orders(user.id, 'sim-a', 30, 10, false);
    // sim-b: 9 in 10 during the week, 8 in 10 in the last hour: within its band.
    await orders(user.id, 'sim-b', twoDays, 9, true);
    await orders(user.id, 'sim-b', twoDays, 1, false);
    await orders(user.id, 'sim-b', 30, 8, true);
    await orders(user.id, 'sim-b', 30, 2, false);
    // sim-c: too few orders in the hour to say anything.
    await orders(user.id, 'sim-c', twoDays, 10, true);
    await orders(user.id, 'sim-c', 30, 5, false);

    const outOfBand = await createDeliveryBand(t.ctx.database.db, t.clock)();
    expect([...outOfBand.suppliers]).toEqual([['sim-a', 'delivery rate 0% in the last hour, normally 100%']]);
    // The pair all three sell, counted across them: 8 codes in 25 now, 29 in 30 during the week.
    expect([...outOfBand.pairs]).toEqual([['tg:US', 'delivery rate 32% in the last hour, normally 97%']]);
  });

  it('flags a popular pair failing across suppliers though no supplier has enough orders to show it', async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    const user = await createUser(t);
    const twoDays = 2 * 24 * 60;
    await orders(user.id, 'sim-a', twoDays, 10, true);
    await orders(user.id, 'sim-b', twoDays, 10, true);
    await orders(user.id, 'sim-a', 30, 6, false);
    await orders(user.id, 'sim-b', 30, 6, false);

    const outOfBand = await createDeliveryBand(t.ctx.database.db, t.clock)();
    expect([...outOfBand.suppliers]).toEqual([]);
    expect([...outOfBand.pairs]).toEqual([['tg:US', 'delivery rate 0% in the last hour, normally 100%']]);
  });

  it('flags a supplier whose codes take far longer than their week, and not one a little slower', async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    const user = await createUser(t);
    const twoDays = 2 * 24 * 60;
    // sim-a: codes came in 30 s during the week; in the last hour every one took 4 minutes.
    await orders(user.id, 'sim-a', twoDays, 10, true, 30);
    await orders(user.id, 'sim-a', 30, 10, true, 240);
    // sim-b: 10 s during the week, 25 s now: more than twice, but not a minute more.
    await orders(user.id, 'sim-b', twoDays, 10, true, 10);
    await orders(user.id, 'sim-b', 30, 10, true, 25);
    // sim-c: 100 s during the week, 170 s now: a minute more, but not twice.
    await orders(user.id, 'sim-c', twoDays, 10, true, 100);
    await orders(user.id, 'sim-c', 30, 10, true, 170);

    const outOfBand = await createDeliveryBand(t.ctx.database.db, t.clock)();
    expect([...outOfBand.suppliers]).toEqual([
      ['sim-a', 'median time to code 240 s in the last hour, normally 30 s'],
    ]);
    expect([...outOfBand.pairs]).toEqual([
      ['tg:US', 'median time to code 170 s in the last hour, normally 30 s'],
    ]);
  });

  it("gives the page the last hour's delivery against the week before it, from every supplier's orders", async () => {
    t = await createTestApp();
    t.clock.set(NOW);
    const user = await createUser(t);
    const twoDays = 2 * 24 * 60;
    await orders(user.id, 'sim-a', 30, 10, true);
    await orders(user.id, 'sim-b', 30, 5, false);
    await orders(user.id, 'sim-a', twoDays, 20, true);
    // Older than the week before the last hour: counted nowhere.
    await orders(user.id, 'sim-b', 8 * 24 * 60, 5, false);

    const response = await t.app.inject({ url: '/api/v1/status' });
    expect(response.statusCode).toBe(200);
    expect(response.json().delivery).toEqual({
      last_hour: { settled: 15, with_code: 10, delivery_rate: 10 / 15 },
      normal: { settled: 20, with_code: 20, delivery_rate: 1 },
    });
  });
});
