import { STATS_MIN_SETTLED, type StatsRow } from '@simcode/contract';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser, type TestUser } from '../../../test/support/users';
import { activations, deliveryDays } from '../../db/schema';
import { percentileSeconds } from './figures';
import { freezeClosedDays } from './freeze-job';

// Issue 30: the public SMS Delivery Index, from orders driven through the simulator with known outcomes.

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
/** A UTC day in the recent past; its orders are bought at 10:00. */
const DAY = '2026-11-20';
const MORNING = Date.parse(`${DAY}T10:00:00Z`);

async function buy(user: TestUser, offer: { countryId: string; service: string }) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/buy-number',
    headers: user.headers,
    payload: { countryID: offer.countryId, service: offer.service },
  });
  expect(response.statusCode).toBe(200);
  const { id } = response.json().number as { id: number };
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, id));
  return { id, upstreamId: order!.providerActivationId! };
}

/** The SMS arrives now (the simulator stamps it with the shared manual clock) and is recorded. */
async function deliverCode(order: { id: number; upstreamId: string }) {
  await simulatorControl(t, 'sms', { activationId: order.upstreamId, code: '123456' });
  await expect
    .poll(
      async () =>
        (await t.ctx.database.db.select().from(activations).where(eq(activations.id, order.id)))[0]?.status,
      { timeout: 5000 },
    )
    .toBe('received');
}

async function stats(window = '7d') {
  const response = await t.app.inject({ url: `/api/v1/stats?window=${window}` });
  expect(response.statusCode).toBe(200);
  return response.json() as { rows: StatsRow[]; min_settled: number };
}

function rowOf(rows: StatsRow[], service: string, country: string) {
  return rows.find((row) => row.service === service && row.country === country);
}

describe('the SMS Delivery Index', () => {
  it('counts every figure from orders with known outcomes, shows "new" under the minimum, and freezes a closed day', {
    // A cap: some forty purchases and codes through the simulator, on a busy machine.
    timeout: 180_000,
  }, async () => {
    t = await createListeningTestApp();
    t.clock.set(MORNING);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const offer = anOffer(t, 'US');
    // Another service: the service page's chart below adds up the countries of one service.
    const other = anOffer(t, 'GB', offer.service);

    // The pair with enough orders: 10 codes after 10, 20, ... 100 seconds, 2 that expire without one, and
    // one the buyer cancels.
    const bought = [];
    for (let index = 0; index < 13; index += 1) bought.push(await buy(user, offer));
    for (let index = 0; index < 10; index += 1) {
      t.clock.set(MORNING + (index + 1) * 10 * SECOND_MS);
      await deliverCode(bought[index]!);
    }
    t.clock.set(MORNING + 5 * MINUTE_MS);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/numbers/${bought[12]!.id}/cancel`,
      headers: user.headers,
    });
    expect(cancel.statusCode).toBe(200);
    // A pair under the minimum: three codes, after 5, 6 and 7 seconds.
    const few = [];
    for (let index = 0; index < 3; index += 1) few.push(await buy(user, other));
    for (let index = 0; index < 3; index += 1) {
      t.clock.set(MORNING + 5 * MINUTE_MS + (index + 5) * SECOND_MS);
      await deliverCode(few[index]!);
    }
    // While orders wait, they count nowhere.
    t.ctx.deliveryIndex.forget();
    const waiting = rowOf((await stats()).rows, offer.service, offer.countryId)!;
    expect(waiting).toMatchObject({ finished: 11, settled: 10, with_code: 10, refunded: 1 });

    // Lifetimes over: the sync expires the two without a code (and refunds them).
    t.clock.set(MORNING + 30 * MINUTE_MS);
    await activationSync(t).run();
    // One more order late in the day, still waiting when the day is frozen.
    t.clock.set(Date.parse(`${DAY}T23:55:00Z`));
    const lateBuy = await buy(user, offer);

    const expected = {
      finished: 13,
      settled: 12,
      with_code: 10,
      refunded: 3,
      delivery_rate: 10 / 12,
      refund_rate: 3 / 13,
      // Nearest rank over the 10 codes: the 5th (50 s) and the 9th (90 s).
      median_seconds: 50,
      p90_seconds: 90,
      new: false,
      trend: null,
    };
    const expectedFew = {
      finished: 3,
      settled: 3,
      with_code: 3,
      refunded: 0,
      delivery_rate: null,
      refund_rate: null,
      median_seconds: null,
      p90_seconds: null,
      new: true,
    };
    // Counted live before the day is frozen...
    t.clock.set(Date.parse(`${DAY}T23:59:00Z`));
    t.ctx.deliveryIndex.forget();
    const live = await stats();
    expect(live.min_settled).toBe(STATS_MIN_SETTLED);
    expect(rowOf(live.rows, offer.service, offer.countryId)).toMatchObject(expected);
    expect(rowOf(live.rows, other.service, other.countryId)).toMatchObject(expectedFew);
    const day = rowOf((await stats('24h')).rows, offer.service, offer.countryId);
    expect(day).toMatchObject(expected);

    // ... and the same once frozen, an hour after the day ends (not before).
    t.clock.set(Date.parse('2026-11-21T00:59:00Z'));
    expect(await freezeClosedDays(t.ctx.database, t.clock.now())).toEqual([]);
    t.clock.set(Date.parse('2026-11-21T01:00:00Z'));
    expect(await freezeClosedDays(t.ctx.database, t.clock.now())).toContain(DAY);
    expect(await freezeClosedDays(t.ctx.database, t.clock.now())).toEqual([]);
    t.ctx.deliveryIndex.forget();
    const frozen = await stats();
    expect(rowOf(frozen.rows, offer.service, offer.countryId)).toMatchObject(expected);
    expect(rowOf(frozen.rows, other.service, other.countryId)).toMatchObject(expectedFew);

    // The late order settles with a code after the freeze: the closed day does not change.
    await deliverCode(lateBuy);
    t.ctx.deliveryIndex.forget();
    expect(rowOf((await stats()).rows, offer.service, offer.countryId)).toMatchObject(expected);
    // Nobody edits the history, not even with the database's own hands.
    await expect(
      t.ctx.database.db.execute(sql`update ${deliveryDays} set with_code = 12 where day = ${DAY}`),
    ).rejects.toThrow();
    await expect(
      t.ctx.database.db.execute(sql`delete from ${deliveryDays} where day = ${DAY}`),
    ).rejects.toThrow();

    // The CSV is the JSON's rows.
    const csv = await t.app.inject({ url: '/api/v1/stats.csv?window=7d' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\n');
    expect(lines[0]).toBe(
      'service,service_name,country,country_name,finished,settled,with_code,refunded,delivery_rate,refund_rate,median_seconds,p90_seconds,new,trend',
    );
    const us = rowOf(frozen.rows, offer.service, offer.countryId)!;
    expect(lines).toContain(
      `${offer.service},${us.service_name},US,United States,13,12,10,3,${10 / 12},${3 / 13},50,90,false,`,
    );

    // One service: its countries and 30 days of chart, the frozen day among them.
    const service = await t.app.inject({ url: `/api/v1/stats/${offer.service}?window=30d` });
    expect(service.statusCode).toBe(200);
    const page = service.json();
    expect(page.countries.map((row: StatsRow) => row.country)).toContain('US');
    expect(page.daily).toHaveLength(30);
    expect(page.daily.find((entry: { day: string }) => entry.day === DAY)).toMatchObject({
      settled: 12,
      with_code: 10,
      delivery_rate: 10 / 12,
      median_seconds: 50,
    });
    // One country: its services (the same rows as the index) and the same 30 days, across services.
    const country = await t.app.inject({ url: '/api/v1/stats/country/us?window=30d' });
    expect(country.statusCode).toBe(200);
    const countryPage = country.json();
    expect(countryPage).toMatchObject({ country: 'US', country_name: 'United States' });
    expect(rowOf(countryPage.services, offer.service, 'US')).toEqual(
      rowOf(page.countries, offer.service, 'US'),
    );
    expect(countryPage.services.every((row: StatsRow) => row.country === 'US')).toBe(true);
    expect(countryPage.daily).toHaveLength(30);
    expect(countryPage.daily.find((entry: { day: string }) => entry.day === DAY)).toMatchObject({
      settled: 12,
      with_code: 10,
      delivery_rate: 10 / 12,
      median_seconds: 50,
    });
    expect((await t.app.inject({ url: '/api/v1/stats/country/xx' })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/stats/nosuchsvc' })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/v1/stats?window=1y' })).statusCode).toBe(400);

    // Documented in the public API's OpenAPI, without a key.
    const document = (await t.app.inject({ url: '/api/v1/openapi.json' })).json();
    expect(document.paths['/stats'].get.security).toEqual([]);
    expect(document.paths['/stats.csv']).toBeDefined();
    expect(document.paths['/stats/country/{country}'].get.security).toEqual([]);

    // A week later the pair sells again, half of its orders with a code: its trend is the change of its
    // delivery rate from the week before, which held the frozen day.
    const weekLater = Date.parse('2026-11-27T10:00:00Z');
    t.clock.set(weekLater);
    // Another buyer: the first one's session has ended by now.
    const nextBuyer = await createUser(t);
    await fundUser(t.ctx.database, nextBuyer.id, 100_000);
    const again = [];
    for (let index = 0; index < 10; index += 1) again.push(await buy(nextBuyer, offer));
    for (let index = 0; index < 5; index += 1) {
      t.clock.set(weekLater + (index + 1) * 10 * SECOND_MS);
      await deliverCode(again[index]!);
    }
    t.clock.set(weekLater + 30 * MINUTE_MS);
    await activationSync(t).run();
    t.ctx.deliveryIndex.forget();
    const thisWeek = rowOf((await stats()).rows, offer.service, offer.countryId)!;
    expect(thisWeek).toMatchObject({ settled: 10, with_code: 5, delivery_rate: 0.5 });
    expect(thisWeek.trend).toBeCloseTo(0.5 - 10 / 12, 10);
  });

  it('serves the last figures while it recounts a window older than a minute', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = anOffer(t, 'US');
    expect((await stats('24h')).rows).toEqual([]);
    await deliverCode(await buy(user, offer));
    // Within the minute: the cached answer.
    expect((await stats('24h')).rows).toEqual([]);
    // Past it: the last answer once more while the recount runs, then the new one.
    t.clock.advance(61 * SECOND_MS);
    expect((await stats('24h')).rows).toEqual([]);
    await expect.poll(async () => (await stats('24h')).rows.map((row) => row.with_code)).toEqual([1]);
  });

  it('takes percentiles by nearest rank on whole seconds', () => {
    expect(percentileSeconds([], 0.5)).toBeNull();
    expect(percentileSeconds([0, 1], 0.5)).toBe(1);
    // 4 codes at 2 s, 1 at 9 s: the median is 2 s, the 90th percentile 9 s.
    expect(percentileSeconds([0, 0, 4, 0, 0, 0, 0, 0, 0, 1], 0.5)).toBe(2);
    expect(percentileSeconds([0, 0, 4, 0, 0, 0, 0, 0, 0, 1], 0.9)).toBe(9);
  });
});
