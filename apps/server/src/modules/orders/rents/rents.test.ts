import { RENT_CANCEL_WINDOW_MS, rentMessages } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  aRentOffer,
  assertRentMoneySettled,
  HOUR_MS,
  ledgerOf,
  longTermBody,
  quietSimulator,
  renewableBody,
  renewalRows,
  rentAction,
  rentedNumber,
  rentRequest,
  rentRow,
  rentSync,
  rentsOf,
  upstreamRentId,
} from '../../../../test/support/rents';
import { createListeningTestApp, simulatorControl } from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { ledgerEntries, rentSmsMessages, rents } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';
import { salePriceCents } from '../../catalog/pricing';
import { PENDING_SETTLE_MS } from '../budget';
import { createOrderHistory } from '../history';
import { RENT_CATALOG_CALLS_PER_MINUTE, RENT_CATALOG_TTL_MS } from './catalog';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await assertRentMoneySettled(t);
    vi.restoreAllMocks();
    await closeTestApp(t);
  }
});

async function statusOf(user: { headers: Record<string, string> }, orderId: string) {
  const response = await t.app.inject({
    url: `/api/dashboard/rent-status/${orderId}`,
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

describe('renting a number', () => {
  it('holds the price, issues a number for 24 hours, and shows every SMS newest first', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, 10_000);

    const response = await rentRequest(t, user, longTermBody(offer));
    expect(response.statusCode, response.body).toBe(200);
    const rent = response.json().rent;
    expect(rent).toMatchObject({
      status: 'active',
      country: 'United States',
      country_id: 'US',
      service: { key: offer.key },
      period: '24 hours',
      hours: 24,
      renewable: false,
      auto_renew: false,
      price: offer.priceCents / 100,
    });
    expect(rent.number).toMatch(/^1\d{10}$/);
    expect(rent.order_id).toMatch(/^\d+$/);
    expect(new Date(rent.end_date).getTime() - t.clock.now().getTime()).toBeGreaterThan(24 * HOUR_MS - 5000);
    expect(new Date(rent.end_date).getTime() - t.clock.now().getTime()).toBeLessThanOrEqual(24 * HOUR_MS);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - offer.priceCents);
    // The placement's call is in the rent's history, written with its number.
    expect(await createOrderHistory(t.ctx.database.db).of('rent', Number(rent.order_id))).toEqual([
      expect.objectContaining({ action: 'buy', outcome: 'ok', provider: 'sim-a' }),
    ]);
    expect(await statusOf(user, rent.order_id)).toEqual({
      status: 'error',
      message: 'STATUS_WAIT_CODE',
      values: [],
      error: null,
    });

    // The simulator pushes each SMS to the rent's webhook at once.
    await simulatorControl(t, 'sms', {
      rentId: await upstreamRentId(t, rent.order_id),
      from: 'Telegram',
      text: 'Telegram code: 11111. Do not share it.',
    });
    t.clock.advance(5000);
    await simulatorControl(t, 'sms', {
      rentId: await upstreamRentId(t, rent.order_id),
      from: 'DHL',
      text: 'Your parcel arrives today.',
    });
    await expect
      .poll(async () => (await statusOf(user, rent.order_id)).values.length, { timeout: 5000 })
      .toBe(2);
    const status = await statusOf(user, rent.order_id);
    expect(status).toMatchObject({ status: 'success', message: null, error: null });
    expect(status.values).toEqual([
      expect.objectContaining({ phoneFrom: 'DHL', text: 'Your parcel arrives today.', code: null }),
      expect.objectContaining({ phoneFrom: 'Telegram', code: '11111' }),
    ]);

    const summary = (await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).json();
    expect(summary).toMatchObject({ totalNumbers: 1, totalOrders: 1 });
  });

  it('rents a renewable number by the week with automatic renewal on, and by the month for 720 hours each', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const weekly = await aRentOffer(t, 'US', 336);
    const twoWeeks = await rentRequest(t, user, renewableBody(weekly, 2));
    expect(twoWeeks.statusCode, twoWeeks.body).toBe(200);
    expect(twoWeeks.json().rent).toMatchObject({
      period: '2 weeks',
      hours: 336,
      renewable: true,
      auto_renew: true,
      price: weekly.priceCents / 100,
    });

    const monthly = await aRentOffer(t, 'US', 1440);
    const months = await rentRequest(t, user, {
      countryID: 'us',
      service: monthly.key,
      period: '2 months',
      periodID: 1440,
      autoRenew: false,
    });
    expect(months.statusCode, months.body).toBe(200);
    const rent = months.json().rent;
    expect(rent).toMatchObject({ period: '2 months', hours: 1440, renewable: true, auto_renew: false });
    expect(new Date(rent.end_date).getTime() - t.clock.now().getTime()).toBeGreaterThan(
      1440 * HOUR_MS - 5000,
    );
  });

  it('refuses without enough balance, server-side, and changes nothing', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, offer.priceCents - 1);
    const response = await rentRequest(t, user, longTermBody(offer));
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ success: false, error: rentMessages.insufficientBalance });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(offer.priceCents - 1);
    expect(await rentsOf(t, user)).toEqual([]);
  });

  it('refuses as out of stock, charging nothing, when its only provider has no balance left at the supplier', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, offer.priceCents);
    // Its only provider ran out of money at the supplier: routing skips it, the listing still counts its numbers.
    t.ctx.providers.markOutOfBalance('sim-a', t.ctx.clock.now());
    const response = await rentRequest(t, user, longTermBody(offer));
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toMatchObject({ success: false, code: 'out_of_stock' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(offer.priceCents);
    expect(await rentsOf(t, user)).toEqual([]);
  });

  it('answers 20 concurrent rents from a balance that covers 3 with exactly 3 numbers', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, offer.priceCents * 3);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => rentRequest(t, user, longTermBody(offer))),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(3);
    expect(statuses.filter((status) => status === 402)).toHaveLength(17);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(0);
    expect((await rentsOf(t, user)).map((rent) => rent.status)).toEqual(['active', 'active', 'active']);
  });

  it.each([
    ['NO_NUMBERS', 409],
    ['NO_BALANCE', 503],
    ['BANNED', 503],
    ['WRONG_COUNTRY', 409],
  ])('returns the money at once when the upstream answers %s', async (token, httpStatus) => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, 5000);
    await simulatorControl(t, 'fault', { action: 'getRentNumber', token, times: 1 });
    const response = await rentRequest(t, user, longTermBody(offer));
    expect(response.statusCode).toBe(httpStatus);
    expect(response.json().error.length).toBeGreaterThan(10);
    expect(response.json().error).not.toMatch(/NO_BALANCE|BANNED|WRONG_COUNTRY/);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000);
    expect(await rentsOf(t, user)).toEqual([]);
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds).toHaveLength(1);
  });

  it.each([
    ['a hanging upstream', { broken: 'hang' }],
    ['a database error upstream', { token: 'ERROR_SQL' }],
    ['an HTML error page', { broken: 'html502' }],
  ])(
    'keeps the money held when the outcome is unknown (%s), then the reconciler refunds it',
    async (_name, fault) => {
      t = await createListeningTestApp({ SMS_PROVIDER_TIMEOUT_MS: '300' });
      const user = await createUser(t);
      const offer = await aRentOffer(t);
      await fundUser(t.ctx.database, user.id, 5000);
      await simulatorControl(t, 'fault', { action: 'getRentNumber', ...fault, times: 1 });
      const response = await rentRequest(t, user, longTermBody(offer));
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toBe(rentMessages.outcomeUnknown);
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000 - offer.priceCents);
      expect((await rentsOf(t, user))[0]).toMatchObject({ status: 'pending', order_id: null });

      const sync = rentSync(t);
      await sync.run();
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000 - offer.priceCents);
      t.clock.advance(PENDING_SETTLE_MS + 1000);
      await sync.run();
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000);
      const [row] = await t.ctx.database.db.select().from(rents);
      expect(row?.status).toBe('failed');
      expect(await rentsOf(t, user)).toEqual([]);
    },
  );

  it('refunds a purchase whose answer came too late and cancels the number it rented upstream', async () => {
    t = await createListeningTestApp({ SMS_PROVIDER_TIMEOUT_MS: '300' });
    await quietSimulator(t);
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, 5000);
    await simulatorControl(t, 'fault', { action: 'getRentNumber', delayMs: 800, times: 1 });
    expect((await rentRequest(t, user, longTermBody(offer))).statusCode).toBe(503);
    // The simulator rents the number once its delay is over, after we stopped waiting.
    await expect.poll(() => t.rents.listActiveRents(), { timeout: 5000 }).toHaveLength(1);
    const [orphan] = await t.rents.listActiveRents();

    const sync = rentSync(t);
    t.clock.advance(PENDING_SETTLE_MS + 1000);
    await sync.run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000);
    t.clock.advance(5 * 60_000 + 1000);
    await sync.run();
    const state = (await simulatorControl(t, 'state', { rentId: orphan!.rentId })) as {
      rent: { status: string };
    };
    expect(state.rent.status).toBe('cancelled');
  });

  it('prices rent options from the upstream once per country and period, however many people look', async () => {
    t = await createListeningTestApp();
    const users = await Promise.all(Array.from({ length: 5 }, () => createUser(t)));
    const reads = vi.spyOn(t.rents, 'getRentCatalog');
    const look = (user: (typeof users)[number], hours: number) =>
      t.app.inject({
        url: `/api/dashboard/rent-services?country=us&periodID=${hours}`,
        headers: user.headers,
      });
    const answers = await Promise.all(
      users.flatMap((user) => [look(user, 48), look(user, 48), look(user, 48)]),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    const services = answers[0]!.json().services;
    expect(Object.keys(services).length).toBeGreaterThan(10);
    expect(Object.keys(services).every((key) => /^opt\d+$/.test(key))).toBe(true);
    expect(services.opt29).toEqual({
      name: 'Telegram',
      price: expect.any(Number),
      count: expect.any(Number),
      img: 'telegram',
    });
    expect(reads).toHaveBeenCalledTimes(2); // the rent countries, and the US for 48 hours
    t.clock.advance(RENT_CATALOG_TTL_MS + 1);
    await look(users[0]!, 48);
    expect(reads).toHaveBeenCalledTimes(4);

    // Walking through every period cannot make the upstream calls grow past the budget.
    reads.mockClear();
    for (let hours = 100; hours < 100 + RENT_CATALOG_CALLS_PER_MINUTE + 20; hours += 1) {
      const answer = await look(users[hours % users.length]!, hours);
      expect([200, 429, 503]).toContain(answer.statusCode);
    }
    expect(reads.mock.calls.length).toBeLessThanOrEqual(RENT_CATALOG_CALLS_PER_MINUTE);
  });

  it('lists the rent countries with names and dial codes', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const response = await t.app.inject({ url: '/api/dashboard/rent-countries', headers: user.headers });
    expect(response.statusCode).toBe(200);
    const { countries } = response.json();
    expect(countries).toContainEqual({ code: 'US', name: 'United States', dialCode: '1' });
    expect(countries.map((country: { name: string }) => country.name)).toEqual(
      [...countries.map((country: { name: string }) => country.name)].sort((a, b) => a.localeCompare(b)),
    );
  });
});

describe('bad input', () => {
  it('answers every malformed rent, renew, price and switch request with a 4xx and a message, changing nothing', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    const offer = await aRentOffer(t);
    const balance = await balanceOf(t.ctx.database.db, user.id);
    const base = longTermBody(offer);
    const rentCases: Array<[string, unknown, number]> = [
      ['an empty body', {}, 400],
      ['no period', { ...base, period: undefined }, 400],
      ['below the 4-hour minimum', { ...base, period: '3 hours', periodID: 3 }, 400],
      ['1 hour', { ...base, period: '1 hour', periodID: 1 }, 400],
      ['above the 720-hour maximum', { ...base, period: '721 hours', periodID: 721 }, 400],
      ['0 weeks', { ...base, period: '0 weeks', periodID: 0 }, 400],
      ['8 weeks', { ...base, period: '8 weeks', periodID: 1344 }, 400],
      ['4 months', { ...base, period: '4 months', periodID: 2880 }, 400],
      ['a month counted as 168 hours', { ...base, period: '1 month', periodID: 168 }, 400],
      ['hours that do not match the text', { ...base, period: '2 weeks', periodID: 168 }, 400],
      ['a period in days', { ...base, period: '2 days', periodID: 48 }, 400],
      ['fractional hours', { ...base, period: '24 hours', periodID: 24.5 }, 400],
      ['hours as text', { ...base, periodID: '24' }, 400],
      ['a one-time service code', { ...base, service: 'tg' }, 400],
      ['an unknown option', { ...base, service: 'opt9999' }, 400],
      ['a three-letter country', { ...base, countryID: 'USA' }, 400],
      ['an unknown country', { ...base, countryID: 'ZZ' }, 400],
      ['auto-renew as text', { ...base, autoRenew: 'yes' }, 400],
      ['an array', [base], 400],
    ];
    for (const [name, body, status] of rentCases) {
      const response = await rentRequest(t, user, body);
      expect(response.statusCode, name).toBe(status);
      expect(response.json().error, name).toMatch(/\w{4,}/);
    }
    const text = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/rent-number',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: '{"countryID":',
    });
    expect(text.statusCode).toBe(400);

    const renewCases: Array<[unknown, number]> = [
      [{}, 400],
      [{ periodID: 0 }, 400],
      [{ periodID: 721 }, 400],
      [{ periodID: 'abc' }, 400],
      [{ periodID: 1.5 }, 400],
    ];
    for (const [body, status] of renewCases) {
      const response = await rentAction(t, user, rent.order_id!, 'renew', body as object);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().error).toMatch(/periodID|hours/);
    }
    for (const query of ['', '?periodID=0', '?periodID=721', '?periodID=x']) {
      const response = await t.app.inject({
        url: `/api/dashboard/rents/${rent.order_id}/renew-price${query}`,
        headers: user.headers,
      });
      expect(response.statusCode, query).toBe(400);
    }
    for (const query of [
      '?country=us',
      '?country=us&periodID=3',
      '?country=us&periodID=2161',
      '?country=usa&periodID=24',
      '?country=zz&periodID=24',
    ]) {
      const response = await t.app.inject({
        url: `/api/dashboard/rent-services${query}`,
        headers: user.headers,
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json().error).toBeTruthy();
    }
    for (const body of [{}, { enabled: 'yes' }]) {
      expect((await rentAction(t, user, rent.order_id!, 'auto-renew', body)).statusCode).toBe(400);
    }
    for (const url of [
      '/api/dashboard/rent-status/%20',
      '/api/dashboard/rent-status/a%2Fb',
      `/api/dashboard/rent-status/${'9'.repeat(65)}`,
    ]) {
      expect((await t.app.inject({ url, headers: user.headers })).statusCode, url).toBeGreaterThanOrEqual(
        400,
      );
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balance);
    expect(await rentsOf(t, user)).toHaveLength(1);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/rent-number',
      payload: base,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('ownership', () => {
  it("answers 404 for another user's order id on every rent endpoint, and changes nothing", async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t.ctx.database, stranger.id, 10_000);
    const rent = await rentedNumber(t, owner);
    const ownerBalance = await balanceOf(t.ctx.database.db, owner.id);
    const requests = [
      { method: 'GET' as const, url: `/api/dashboard/rent-status/${rent.order_id}` },
      { method: 'GET' as const, url: `/api/dashboard/rents/${rent.order_id}/renew-price?periodID=24` },
      { method: 'POST' as const, url: `/api/dashboard/rents/${rent.order_id}/cancel` },
      { method: 'POST' as const, url: `/api/dashboard/rents/${rent.order_id}/repeat` },
      {
        method: 'POST' as const,
        url: `/api/dashboard/rents/${rent.order_id}/renew`,
        payload: { periodID: 24 },
      },
      {
        method: 'POST' as const,
        url: `/api/dashboard/rents/${rent.order_id}/auto-renew`,
        payload: { enabled: true },
      },
      { method: 'GET' as const, url: '/api/dashboard/rent-status/999999999' },
      { method: 'POST' as const, url: '/api/dashboard/rents/no-such-order/cancel' },
    ];
    for (const request of requests) {
      const response = await t.app.inject({ ...request, headers: stranger.headers });
      expect(response.statusCode, request.url).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: 'Not found.' });
    }
    expect(await rentsOf(t, stranger)).toEqual([]);
    expect(await balanceOf(t.ctx.database.db, stranger.id)).toBe(10_000);
    expect(await balanceOf(t.ctx.database.db, owner.id)).toBe(ownerBalance);
    expect((await rentRow(t, rent.id)).status).toBe('active');
  });
});

describe('cancelling', () => {
  it('cancels within 20 minutes before any SMS and returns the money exactly once', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user, { fundCents: 5000 });
    t.clock.advance(RENT_CANCEL_WINDOW_MS - 60_000);
    const results = await Promise.all([1, 2, 3].map(() => rentAction(t, user, rent.order_id!, 'cancel')));
    expect(results.filter((result) => result.statusCode === 200)).toHaveLength(1);
    for (const result of results.filter((r) => r.statusCode !== 200)) expect(result.statusCode).toBe(409);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(5000);
    const [listed] = await rentsOf(t, user);
    expect(listed).toMatchObject({ status: 'canceled', status_reason: expect.stringMatching(/returned/) });
    expect(await statusOf(user, rent.order_id!)).toEqual({
      status: 'error',
      message: 'STATUS_CANCEL',
      values: [],
      error: null,
    });
    const again = await rentAction(t, user, rent.order_id!, 'cancel');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(rentMessages.alreadyEnded);
  });

  it('refuses once an SMS has arrived, which the list says beforehand', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    expect((await rentsOf(t, user)).find((listed) => listed.id === rent.id)?.sms_received).toBe(false);
    await simulatorControl(t, 'sms', { rentId: await upstreamRentId(t, rent.order_id), text: 'code 4321' });
    await expect
      .poll(async () => (await statusOf(user, rent.order_id!)).status, { timeout: 5000 })
      .toBe('success');
    expect((await rentsOf(t, user)).find((listed) => listed.id === rent.id)?.sms_received).toBe(true);
    const paid = await balanceOf(t.ctx.database.db, user.id);
    const response = await rentAction(t, user, rent.order_id!, 'cancel');
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(rentMessages.cannotCancel);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);
  });

  it('refuses after 20 minutes, even without an SMS, and the upstream agrees when asked anyway', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    const paid = await balanceOf(t.ctx.database.db, user.id);
    t.clock.advance(RENT_CANCEL_WINDOW_MS + 1000);
    const response = await rentAction(t, user, rent.order_id!, 'cancel');
    expect(response.statusCode).toBe(409);
    expect(response.json().error).toBe(rentMessages.cannotCancel);
    // Our clock and the upstream's may differ: when we let a cancel through, the upstream's refusal stands.
    await expect(t.rents.cancelRent(await upstreamRentId(t, rent.order_id))).rejects.toMatchObject({
      kind: 'cannot_cancel',
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);
    expect((await rentRow(t, rent.id)).status).toBe('active');
  });

  it('replaces a rent with a new one of the same country, service and period', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user, { hours: 48 });
    const response = await rentAction(t, user, rent.order_id!, 'repeat');
    expect(response.statusCode, response.body).toBe(200);
    const repeated = response.json().rent;
    expect(repeated.order_id).not.toBe(rent.order_id);
    expect(repeated).toMatchObject({
      country_id: rent.country_id,
      service: rent.service,
      period: '48 hours',
      hours: 48,
      status: 'active',
    });
    expect(await rentsOf(t, user)).toHaveLength(2);
  });
});

describe('renewing', () => {
  it('charges the upstream continue-rent price with our markup once, and moves the end date', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    const before = await balanceOf(t.ctx.database.db, user.id);
    const quote = await t.app.inject({
      url: `/api/dashboard/rents/${rent.order_id}/renew-price?periodID=24`,
      headers: user.headers,
    });
    expect(quote.statusCode).toBe(200);
    const { price } = quote.json();
    const upstreamPrice = await t.rents.getRentExtensionPrice(await upstreamRentId(t, rent.order_id), 24);
    expect(Math.round(price * 100)).toBe(
      salePriceCents(upstreamPrice, t.config.SMS_PROVIDER_USD_RATE, t.config.PRICE_MARKUP_PERCENT),
    );
    expect(t.config.PRICE_MARKUP_PERCENT).toBeGreaterThan(0);

    const response = await rentAction(t, user, rent.order_id!, 'renew', { periodID: 24 });
    expect(response.statusCode, response.body).toBe(200);
    const renewed = response.json().rent;
    expect(renewed.status).toBe('renewed');
    expect(new Date(renewed.end_date).getTime() - new Date(rent.end_date!).getTime()).toBe(24 * HOUR_MS);
    expect(renewed.price).toBeCloseTo(rent.price + price, 2);
    // The row says the hours it now runs for, not the first period's.
    expect(renewed.period).toBe(`${rent.hours + 24} hours`);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(before - Math.round(price * 100));
    const state = (await simulatorControl(t, 'state', {
      rentId: await upstreamRentId(t, rent.order_id),
    })) as {
      rent: { endsAtMs: number };
    };
    // The protocol's dates are to the second.
    expect(Math.floor(state.rent.endsAtMs / 1000) * 1000).toBe(new Date(renewed.end_date).getTime());

    // One hour, the dialog's minimum, is accepted too.
    expect((await rentAction(t, user, rent.order_id!, 'renew', { periodID: 1 })).statusCode).toBe(200);
    expect((await renewalRows(t, rent.id)).map((renewal) => renewal.status)).toEqual(['done', 'done']);
  });

  it('returns the money at once when the upstream refuses the extension', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    const before = await balanceOf(t.ctx.database.db, user.id);
    await simulatorControl(t, 'fault', { action: 'continueRentNumber', token: 'NO_BALANCE', times: 1 });
    const response = await rentAction(t, user, rent.order_id!, 'renew', { periodID: 24 });
    expect(response.statusCode).toBe(503);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(before);
    expect((await renewalRows(t, rent.id)).map((renewal) => renewal.status)).toEqual(['failed']);
    const [listed] = await rentsOf(t, user);
    expect(listed).toMatchObject({ status: 'active', end_date: rent.end_date, renewal_pending: false });
  });

  it('refuses without enough balance and changes nothing', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const offer = await aRentOffer(t);
    await fundUser(t.ctx.database, user.id, offer.priceCents);
    const rent = (await rentRequest(t, user, longTermBody(offer))).json().rent;
    const response = await rentAction(t, user, rent.order_id, 'renew', { periodID: 720 });
    expect(response.statusCode).toBe(402);
    expect(response.json().error).toBe(rentMessages.insufficientBalanceRenew);
    expect(await renewalRows(t, rent.id)).toEqual([]);
  });

  it('keeps a renewal with an unknown outcome held, then settles it by what the upstream shows after the old end date', async () => {
    t = await createListeningTestApp({ SMS_PROVIDER_TIMEOUT_MS: '300' });
    await quietSimulator(t);
    const user = await createUser(t);
    const first = await rentedNumber(t, user, { hours: 4 });
    const second = await rentedNumber(t, user, { hours: 4 });
    const start = await balanceOf(t.ctx.database.db, user.id);

    // The first extension reaches the upstream after we stopped waiting; the second never arrives.
    await simulatorControl(t, 'fault', { action: 'continueRentNumber', delayMs: 800, times: 1 });
    expect((await rentAction(t, user, first.order_id!, 'renew', { periodID: 2 })).statusCode).toBe(503);
    const extendedEnd = new Date(first.end_date!).getTime() + 2 * HOUR_MS;
    await expect
      .poll(
        async () => {
          const state = (await simulatorControl(t, 'state', {
            rentId: await upstreamRentId(t, first.order_id),
          })) as {
            rent: { endsAtMs: number };
          };
          return Math.floor(state.rent.endsAtMs / 1000) * 1000;
        },
        { timeout: 5000 },
      )
      .toBe(extendedEnd);
    await simulatorControl(t, 'fault', { action: 'continueRentNumber', broken: 'hang', times: 1 });
    expect((await rentAction(t, user, second.order_id!, 'renew', { periodID: 2 })).statusCode).toBe(503);
    const held = await balanceOf(t.ctx.database.db, user.id);
    expect(held).toBeLessThan(start);
    expect((await rentsOf(t, user)).every((rent) => rent.renewal_pending)).toBe(true);

    // Neither rent expires while its renewal is undecided; after the old end date the upstream's list decides.
    const sync = rentSync(t);
    t.clock.advance(4 * HOUR_MS + 6 * 60_000);
    await t.simulator!.tick();
    await sync.run();
    const [firstRenewal] = await renewalRows(t, first.id);
    const [secondRenewal] = await renewalRows(t, second.id);
    expect(firstRenewal?.status).toBe('done');
    expect(secondRenewal?.status).toBe('failed');
    expect((await rentRow(t, first.id)).endsAt?.getTime()).toBe(
      new Date(first.end_date!).getTime() + 2 * HOUR_MS,
    );
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(held + secondRenewal!.priceCents);
    await sync.run();
    expect((await rentRow(t, second.id)).status).toBe('expired');
    expect((await rentRow(t, first.id)).status).toBe('renewed');
  });
});

describe('the SMS webhook', () => {
  it('records a pushed rent SMS once, and ignores unknown rents', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const rent = await rentedNumber(t, user);
    const url = `/api/upstream/sms/${t.config.SMS_WEBHOOK_SECRET}`;
    const body = {
      rentId: await upstreamRentId(t, rent.order_id),
      sms: { phoneFrom: 'Bank', text: 'Your code 654321', date: '2026-03-01 10:00:00' },
    };
    for (let i = 0; i < 2; i += 1) {
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload: body,
        remoteAddress: '203.0.113.5',
      });
      expect(response.json()).toEqual({ success: true, recorded: true });
    }
    expect(await t.ctx.database.db.select().from(rentSmsMessages)).toMatchObject([
      { sourceAddress: '203.0.113.5' },
    ]);
    const unknown = await t.app.inject({ method: 'POST', url, payload: { ...body, rentId: '1' } });
    expect(unknown.json()).toEqual({ success: true, recorded: false });
    expect((await statusOf(user, rent.order_id!)).values).toEqual([
      { phoneFrom: 'Bank', text: 'Your code 654321', code: '654321', date: '2026-03-01T10:00:00.000Z' },
    ]);
    // A provider that can send a header keeps the secret out of the URL; a wrong one is a route that does not exist.
    const later = { ...body, sms: { ...body.sms, text: 'Your code 111222', date: '2026-03-01 10:05:00' } };
    for (const [secret, status] of [
      ['wrong-secret', 404],
      [t.config.SMS_WEBHOOK_SECRET, 200],
    ] as const) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/upstream/sms',
        headers: { 'x-webhook-secret': secret },
        payload: later,
      });
      expect(response.statusCode).toBe(status);
    }
    expect(await t.ctx.database.db.select().from(rentSmsMessages)).toHaveLength(2);
  });
});

describe('money under concurrency', () => {
  type Racer = (rent: { id: number; order_id: string | null }, user: TestUser) => Promise<unknown>;
  const renew: Racer = (rent, user) => rentAction(t, user, rent.order_id!, 'renew', { periodID: 24 });
  const cancel: Racer = (rent, user) => rentAction(t, user, rent.order_id!, 'cancel');
  const upstreamEnds: Racer = (rent) =>
    t.ctx.rentals.refund(rent.id, {
      of: 'rent',
      from: ['active', 'renewed'],
      to: 'canceled',
      reason: 'withdrawn',
    });
  const endsEarly: Racer = (rent) => t.ctx.rentals.expire(rent.id, 'ended_early');
  const sync: Racer = async (rent) => {
    await t.ctx.rentals.readFromUpstream(await rentRow(t, rent.id));
    await rentSync(t).run();
  };

  it.each([
    ['renew twice and cancel twice', [renew, renew, cancel, cancel]],
    ['renew while the upstream ends it', [renew, upstreamEnds, renew]],
    ['renew while it ends early and syncs', [renew, endsEarly, sync]],
    ['cancel while the upstream ends it', [cancel, upstreamEnds, cancel, sync]],
    ['everything at once', [renew, cancel, upstreamEnds, endsEarly, sync, renew, cancel]],
  ])('never charges or refunds twice: %s', async (_name, racers) => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    for (let round = 0; round < 4; round += 1) {
      const rent = await rentedNumber(t, user, { fundCents: 20_000 });
      // The renewal price is cached as after the Renew dialog, and later racers start a little later each
      // round, so that different paths win different rounds; every outcome must balance.
      await t.app.inject({
        url: `/api/dashboard/rents/${rent.order_id}/renew-price?periodID=24`,
        headers: user.headers,
      });
      const startAfterMs = (index: number) => (index === 0 ? 0 : round * 15 * index);
      await Promise.allSettled(
        racers.map(async (racer, index) => {
          await new Promise((resolve) => setTimeout(resolve, startAfterMs(index)));
          return racer(rent, user);
        }),
      );
      // Whatever won, a later tick settles what is left and nothing moves twice.
      await rentSync(t).run();
      await assertRentMoneySettled(t);
      await assertLedgerInvariant(t.ctx.database);
      const final = await rentRow(t, rent.id);
      const renewals = await renewalRows(t, rent.id);
      const net = (await ledgerOf(t, user.id))
        .filter((entry) =>
          entry.referenceType === 'rent'
            ? entry.referenceId === String(rent.id)
            : entry.referenceType === 'rent_renewal' &&
              renewals.some((renewal) => String(renewal.id) === entry.referenceId),
        )
        .reduce((sum, entry) => sum + entry.amountCents, 0);
      // What the user pays in the end: the rent unless it was refunded, and every renewal that stands.
      const standing =
        (final.status === 'canceled' ? 0 : final.priceCents) +
        renewals
          .filter((renewal) => renewal.status === 'done')
          .reduce((sum, renewal) => sum + renewal.priceCents, 0);
      expect(
        net + standing,
        `round ${round}: ${final.status}, renewals ${renewals.map((r) => r.status)}`,
      ).toBe(0);
    }
  });
});
