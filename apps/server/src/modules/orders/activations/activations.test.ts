import { gunzipSync } from 'node:zlib';
import { ACTIVATION_LIFETIME_MS, numberMessages } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { activationMessages, activations, ledgerEntries } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';
import { PENDING_SETTLE_MS } from '../budget';
import { lateSmsByProvider } from '../late-sms';
import { BLIND_EXPIRY_MS } from './sync';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

async function buy(user: TestUser, body: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url: '/api/dashboard/buy-number',
    headers: user.headers,
    payload: body,
  });
}

/** The sync job; `startedAt` as in the first run after a (re)start of the server. */
function syncJob(startedAt?: Date) {
  return activationSync(t, { startedAt });
}

/** The provider's id of one of our orders (users see our own id only). */
async function upstreamIdOf(orderId: number): Promise<string> {
  const [order] = await t.ctx.database.db.select().from(activations).where(eq(activations.id, orderId));
  return order!.providerActivationId!;
}

async function waitForStatus(user: TestUser, numberId: string, expected: RegExp) {
  await expect
    .poll(
      async () =>
        (
          await t.app.inject({ url: `/api/dashboard/number-status/${numberId}`, headers: user.headers })
        ).json().status,
      { timeout: 5000 },
    )
    .toMatch(expected);
}

describe('buying a one-time number', () => {
  it('My Numbers, served from memory between changes, shows the code as soon as it arrives, compressed or not', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t, 'GB');
    await fundUser(t.ctx.database, user.id, 10_000);
    const list = async (encoding: string) => {
      const response = await t.app.inject({
        url: '/api/dashboard/numbers',
        headers: { ...user.headers, 'accept-encoding': encoding },
      });
      const body =
        response.headers['content-encoding'] === 'gzip'
          ? gunzipSync(response.rawPayload)
          : response.rawPayload;
      return JSON.parse(body.toString());
    };
    // Enough numbers for the page to be worth compressing.
    const bought = [];
    for (let index = 0; index < 6; index += 1) {
      const response = await buy(user, { countryID: 'gb', operator: 'any', service: offer.service });
      expect(response.statusCode, response.body).toBe(200);
      bought.push(response.json().number);
    }
    const waiting = await list('gzip');
    expect(waiting.numbers).toHaveLength(6);
    expect(await list('identity')).toEqual(waiting);
    expect(waiting.numbers[0]).toMatchObject({ id: bought[5].id, status: 'waiting', code: null });

    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(bought[5].id),
      code: '51234',
      text: 'Code 51234',
    });
    await waitForStatus(user, bought[5].number_id, /^STATUS_OK:51234$/);
    for (const encoding of ['gzip', 'identity'])
      expect((await list(encoding)).numbers[0]).toMatchObject({
        id: bought[5].id,
        status: 'received',
        code: '51234',
      });
  });

  it('holds the price, issues a real-format number, and shows the code the simulator pushes', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t, 'GB');
    await fundUser(t.ctx.database, user.id, 1000);

    const response = await buy(user, {
      country: 'United Kingdom',
      countryID: 'gb',
      operator: 'any',
      service: offer.service,
      price: offer.priceCents / 100,
    });
    expect(response.statusCode).toBe(200);
    const number = response.json().number;
    expect(number).toMatchObject({
      status: 'waiting',
      country: 'GB',
      service: offer.service,
      price: offer.priceCents / 100,
    });
    expect(number.number).toMatch(/^44\d{10}$/);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);

    const status = await t.app.inject({
      url: `/api/dashboard/number-status/${number.number_id}`,
      headers: user.headers,
    });
    expect(status.json()).toEqual({ success: true, status: 'STATUS_WAIT_CODE', code: null });

    expect(number.number_id).toBe(String(number.id));
    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(number.id),
      code: '48213',
      text: 'Your code is 48213',
    });
    await waitForStatus(user, number.number_id, /^STATUS_OK:48213$/);

    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers[0]).toMatchObject({ id: number.id, status: 'received', code: '48213' });
    expect(list.numbers[0].sms).toEqual([
      expect.objectContaining({ code: '48213', text: 'Your code is 48213' }),
    ]);
    const summary = (await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).json();
    expect(summary).toMatchObject({
      success: true,
      balance: (1000 - offer.priceCents) / 100,
      totalNumbers: 1,
      totalOrders: 1,
      liveOneTime: 1,
      liveRented: 0,
    });
    expect(summary.totalCountries).toBeGreaterThan(150);

    // A number still waiting past its end is being refunded: the card no longer counts it, like the list.
    const second = await buy(user, {
      country: 'United Kingdom',
      countryID: 'gb',
      operator: 'any',
      service: offer.service,
      price: offer.priceCents / 100,
    });
    expect(second.statusCode).toBe(200);
    const summaryOf = async () =>
      (await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).json();
    expect(await summaryOf()).toMatchObject({ totalNumbers: 2, liveOneTime: 2, totalOrders: 2 });
    t.clock.advance(21 * 60_000);
    expect(await summaryOf()).toMatchObject({ totalNumbers: 1, liveOneTime: 1, totalOrders: 2 });
  });

  it('refuses without enough balance, server-side, and changes nothing', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, offer.priceCents - 1);
    const response = await buy(user, { countryID: offer.countryId, service: offer.service });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ success: false, error: numberMessages.insufficientBalance });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(offer.priceCents - 1);
    expect(await t.ctx.database.db.select().from(activations)).toHaveLength(0);
  });

  it('answers 50 concurrent buys from a balance that covers 7 with exactly 7 numbers', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, offer.priceCents * 7);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => buy(user, { countryID: offer.countryId, service: offer.service })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(7);
    expect(statuses.filter((status) => status === 402)).toHaveLength(43);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(0);
    const orders = await t.ctx.database.db.select().from(activations).where(eq(activations.userId, user.id));
    expect(orders).toHaveLength(7);
    expect(orders.every((order) => order.status === 'waiting')).toBe(true);
  });

  it.each([
    ['NO_NUMBERS', 409],
    ['NO_BALANCE', 503],
    ['BANNED', 503],
    ['ACCOUNT_INACTIVE', 503],
  ])('returns the money at once when the upstream answers %s', async (token, httpStatus) => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 500);
    await simulatorControl(t, 'fault', { action: 'getNumberV2', token, times: 1 });
    const response = await buy(user, { countryID: offer.countryId, service: offer.service });
    expect(response.statusCode).toBe(httpStatus);
    expect(response.json().success).toBe(false);
    expect(response.json().error.length).toBeGreaterThan(10);
    expect(response.json().error).not.toMatch(/NO_BALANCE|ERROR_SQL/);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500);
    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers).toEqual([]);
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
      const offer = anOffer(t);
      await fundUser(t.ctx.database, user.id, 500);
      await simulatorControl(t, 'fault', { action: 'getNumberV2', ...fault, times: 1 });
      const response = await buy(user, { countryID: offer.countryId, service: offer.service });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toBe(numberMessages.outcomeUnknown);
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500 - offer.priceCents);

      const sync = syncJob();
      await sync.run();
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500 - offer.priceCents);
      t.clock.advance(PENDING_SETTLE_MS + 1000);
      await sync.run();
      expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500);
      const [order] = await t.ctx.database.db.select().from(activations);
      expect(order?.status).toBe('failed');
    },
  );

  it('settles a purchase an earlier process left between hold and settle on the first sweep after a start', async () => {
    t = await createListeningTestApp({ SMS_PROVIDER_TIMEOUT_MS: '300' });
    const user = await createUser(t);
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 500);
    // The process "dies" while the upstream call hangs: the order stays pending with the price held.
    await simulatorControl(t, 'fault', { action: 'getNumberV2', broken: 'hang', times: 1 });
    expect((await buy(user, { countryID: offer.countryId, service: offer.service })).statusCode).toBe(503);
    t.clock.advance(1000);
    // The next process's first sweep, a second later: no waiting out PENDING_SETTLE_MS.
    const restarted = syncJob(t.clock.now());
    await restarted.run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order?.status).toBe('failed');
  });

  it('refuses bad input with 4xx and a clear message', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 500);
    const cases: Array<[unknown, number]> = [
      [{}, 400],
      [{ countryID: 'USA', service: 'tg' }, 400],
      [{ countryID: 'US', service: 42 }, 400],
      [{ countryID: 'ZZ', service: 'tg' }, 400],
      [{ countryID: 'US', service: 'nope' }, 400],
      [{ countryID: 'US', operator: 'nokia', service: 'tg' }, 400],
      [{ countryID: 'US', operator: '<script>', service: 'tg' }, 400],
    ];
    for (const [body, status] of cases) {
      const response = await buy(user, body as Record<string, unknown>);
      expect(response.statusCode, JSON.stringify(body)).toBe(status);
      expect(response.json().error).toBeTruthy();
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      payload: { countryID: 'US', service: 'tg' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().error).toBe('Unauthorized');
  });
});

describe('cancelling, expiry and the code', () => {
  async function boughtNumber(user: TestUser) {
    const offer = anOffer(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const response = await buy(user, { countryID: offer.countryId, service: offer.service });
    expect(response.statusCode).toBe(200);
    return response.json().number as { id: number; number_id: string };
  }

  it('refuses a cancel in the first 2 minutes, then cancels and refunds exactly once', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    const cancel = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/dashboard/numbers/${number.id}/cancel`,
        headers: user.headers,
      });

    const early = await cancel();
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe(numberMessages.cancelTooEarly);

    t.clock.advance(2 * 60_000 + 1000);
    const results = await Promise.all([cancel(), cancel(), cancel()]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const again = await cancel();
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe(numberMessages.alreadyCanceled);
    const status = await t.app.inject({
      url: `/api/dashboard/number-status/${number.number_id}`,
      headers: user.headers,
    });
    expect(status.json().status).toBe('STATUS_CANCEL');
  });

  it('lets the code win over a cancel, and never refunds twice when cancel, expiry and the SMS race', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    t.clock.advance(ACTIVATION_LIFETIME_MS - 1000);
    const sync = syncJob();
    const [order] = await t.ctx.database.db.select().from(activations);
    await Promise.allSettled([
      t.app.inject({
        method: 'POST',
        url: `/api/dashboard/numbers/${number.id}/cancel`,
        headers: user.headers,
      }),
      t.ctx.activations.recordPushedSms(t.sms.name, await upstreamIdOf(number.id), {
        code: '1111',
        text: 'code 1111',
        receivedAt: t.clock.now(),
      }),
      t.ctx.activations.refund(order!, ['waiting'], 'expired', 'expired'),
      sync.run(),
    ]);
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds.length).toBeLessThanOrEqual(1);
    const [after] = await t.ctx.database.db.select().from(activations);
    expect(refunds.length === 1).toBe(['canceled', 'expired'].includes(after!.status));
  });

  it('keeps an SMS that comes after the refund for audit, never as the code, and leaves the money alone', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    t.clock.advance(2 * 60_000 + 1000);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/numbers/${number.id}/cancel`,
      headers: user.headers,
    });
    expect(cancel.statusCode).toBe(200);

    // A provider delivering late: the webhook, and the sync reading the same code.
    const late = { code: '5150', text: 'Your code is 5150', receivedAt: t.clock.now() };
    expect(await t.ctx.activations.recordPushedSms(t.sms.name, await upstreamIdOf(number.id), late)).toBe(
      true,
    );
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(await t.ctx.activations.recordSms(order!, late)).toBe(false);

    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers[0]).toMatchObject({ id: number.id, status: 'canceled', code: null, sms: [] });
    const status = await t.app.inject({
      url: `/api/dashboard/number-status/${number.number_id}`,
      headers: user.headers,
    });
    expect(status.json()).toMatchObject({ status: 'STATUS_CANCEL', code: null });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const stored = await t.ctx.database.db.select().from(activationMessages);
    expect(stored).toEqual([expect.objectContaining({ code: '5150', late: true })]);
    expect(await lateSmsByProvider(t.ctx.database.db)).toEqual({ [t.sms.name]: 1 });
  });

  it('refunds at once with a 502 when the upstream issues an id one of our orders holds', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const first = await boughtNumber(user);
    // A reset simulator starts its ids over: the next one it issues is the first order's.
    await simulatorControl(t, 'reset');
    const balanceBefore = await balanceOf(t.ctx.database.db, user.id);
    const offer = anOffer(t);
    const response = await buy(user, { countryID: offer.countryId, service: offer.service });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toEqual({
      success: false,
      error: numberMessages.providerFault,
      code: 'upstream_duplicate_id',
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balanceBefore);
    const orders = await t.ctx.database.db.select().from(activations).orderBy(activations.id);
    expect(orders.map((order) => order.status)).toEqual(['waiting', 'failed']);
    expect(orders[0]!.providerActivationId).toBe(await upstreamIdOf(first.id));
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds).toHaveLength(1);
  });

  it('refunds automatically when 20 minutes pass without an SMS', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    const paidBalance = await balanceOf(t.ctx.database.db, user.id);
    const sync = syncJob();
    await sync.run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paidBalance);
    t.clock.advance(ACTIVATION_LIFETIME_MS + 5000);
    await t.simulator!.tick();
    await sync.run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers[0]).toMatchObject({ id: number.id, status: 'expired' });
    expect(list.numbers[0].status_reason).toMatch(/20 minutes/);
  });

  it('refunds an expired order although no sweep can read every page, once it is long over', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    const paidBalance = await balanceOf(t.ctx.database.db, user.id);
    const sync = syncJob();
    // As with thousands of live orders: the sweep's calls are spent before it reaches this order's page.
    const runWithoutBudget = async () => {
      while (t.upstreamBudget.tryTake('activations')) {}
      await sync.run();
    };
    t.clock.advance(ACTIVATION_LIFETIME_MS + 5000);
    await runWithoutBudget();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paidBalance);
    t.clock.advance(BLIND_EXPIRY_MS);
    await runWithoutBudget();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers[0]).toMatchObject({ id: number.id, status: 'expired' });
  });

  it('asks each live order on its own when the upstream will not list them, and refunds an expired one at once', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    // A provider without getActiveActivations: every sweep fails.
    await simulatorControl(t, 'fault', { action: 'getActiveActivations', token: 'BAD_ACTION', times: 0 });
    const sync = syncJob();
    t.clock.advance(ACTIVATION_LIFETIME_MS + 5000);
    await t.simulator!.tick();
    await sync.run();
    // Not BLIND_EXPIRY_MS later: getStatus said the activation is over.
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers[0]).toMatchObject({ id: number.id, status: 'expired' });
    expect(list.numbers[0].status_reason).toMatch(/20 minutes/);
  });

  it('keeps the charge when a code arrived, and completes the order after its lifetime', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    await simulatorControl(t, 'sms', {
      activationId: await upstreamIdOf(number.id),
      code: '777',
      text: 'code 777',
    });
    await waitForStatus(user, number.number_id, /^STATUS_OK:777$/);
    const paid = await balanceOf(t.ctx.database.db, user.id);
    t.clock.advance(ACTIVATION_LIFETIME_MS + 5000);
    await t.simulator!.tick();
    await syncJob().run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order?.status).toBe('completed');
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/numbers/${number.id}/cancel`,
      headers: user.headers,
    });
    expect(cancel.json().error).toBe(numberMessages.cancelAfterCode);
  });

  it("answers 404 for another user's number on status, cancel and repeat, and changes nothing", async () => {
    t = await createListeningTestApp();
    const owner = await createUser(t);
    const stranger = await createUser(t);
    await fundUser(t.ctx.database, stranger.id, 1000);
    const number = await boughtNumber(owner);
    t.clock.advance(3 * 60_000);
    const requests = [
      { method: 'GET' as const, url: `/api/dashboard/number-status/${number.number_id}` },
      { method: 'POST' as const, url: `/api/dashboard/numbers/${number.id}/cancel` },
      { method: 'POST' as const, url: `/api/dashboard/numbers/${number.id}/repeat` },
      { method: 'POST' as const, url: '/api/dashboard/numbers/999999/cancel' },
      { method: 'GET' as const, url: '/api/dashboard/number-status/no-such-id' },
    ];
    for (const request of requests) {
      const response = await t.app.inject({ ...request, headers: stranger.headers });
      expect(response.statusCode, request.url).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: 'Not found.' });
    }
    const badId = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/numbers/abc/cancel',
      headers: stranger.headers,
    });
    expect(badId.statusCode).toBe(400);
    expect(await balanceOf(t.ctx.database.db, stranger.id)).toBe(1000);
    const [order] = await t.ctx.database.db.select().from(activations);
    expect(order?.status).toBe('waiting');
  });

  it("repeats a purchase at today's price for the same country, operator and service", async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const number = await boughtNumber(user);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/numbers/${number.id}/repeat`,
      headers: user.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    const orders = await t.ctx.database.db.select().from(activations);
    expect(orders).toHaveLength(2);
    expect(orders[1]).toMatchObject({
      countryId: orders[0]!.countryId,
      operator: orders[0]!.operator,
      service: orders[0]!.service,
    });
  });

  it('ignores a pushed SMS on a wrong secret URL', async () => {
    t = await createListeningTestApp();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/upstream/sms/wrong-secret',
      payload: { activationId: 1, code: '1', text: 'x' },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('upstream cost', () => {
  it('makes no more upstream calls per minute than the budget, however many orders and polls', async () => {
    t = await createListeningTestApp({ UPSTREAM_SYNC_BUDGET_PER_MINUTE: '5' });
    const users = await Promise.all(Array.from({ length: 3 }, () => createUser(t)));
    const offer = anOffer(t);
    for (const user of users) await fundUser(t.ctx.database, user.id, 10_000);
    for (let index = 0; index < 30; index += 1) {
      const user = users[index % users.length]!;
      expect((await buy(user, { countryID: offer.countryId, service: offer.service })).statusCode).toBe(200);
    }
    const sync = syncJob();
    const usedBefore = t.upstreamBudget.used;
    for (let second = 0; second < 60; second += 2) {
      for (const user of users) await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers });
      await sync.run();
      t.clock.advance(2000);
    }
    expect(t.upstreamBudget.used - usedBefore).toBeLessThanOrEqual(5);
    expect(t.upstreamBudget.used - usedBefore).toBeGreaterThan(0);
  });
});
