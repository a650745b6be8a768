import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../../test/support/money';
import {
  aFailoverOffer,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../../test/support/upstream';
import { createUser, type TestUser } from '../../../../test/support/users';
import { activations, auditLog, ledgerEntries } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

async function setUp() {
  t = await createListeningTestApp();
  // The number waits for its code until a test sends one.
  await simulatorControl(t, 'settings', { smsDelayMinMs: 3_600_000, smsDelayMaxMs: 3_600_000 });
  const admin = await createUser(t, { admin: true });
  const user = await createUser(t);
  const offer = anOffer(t);
  await fundUser(t.ctx.database, user.id, 1000);
  const bought = await t.app.inject({
    method: 'POST',
    url: '/api/dashboard/buy-number',
    headers: user.headers,
    payload: { countryID: offer.countryId, service: offer.service },
  });
  expect(bought.statusCode, bought.body).toBe(200);
  const [order] = await t.ctx.database.db.select().from(activations);
  return { admin, user, order: order!, offer };
}

function post(caller: TestUser, url: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin${url}`,
    headers: caller.headers,
    payload: body as object,
  });
}

function get(caller: TestUser, url: string) {
  return t.app.inject({ url: `/api/admin${url}`, headers: caller.headers });
}

describe('orders in the console', () => {
  it('finds an order by status, service, country, provider, user, day and phone', async () => {
    const { admin, user, order } = await setUp();
    const day = order.createdAt.toISOString().slice(0, 10);
    for (const query of [
      `status=waiting`,
      `service=${order.service}`,
      `country=${order.countryId}`,
      `provider=${order.provider}`,
      `user_id=${user.id}`,
      `from=${day}&to=${day}`,
      `q=${order.phoneNumber!.slice(-6)}`,
      `q=${order.id}`,
    ]) {
      const response = await get(admin, `/orders?${query}`);
      expect(response.statusCode, query).toBe(200);
      expect(
        response.json().orders.map((row: { id: number }) => row.id),
        query,
      ).toEqual([order.id]);
    }
    for (const query of [
      'status=expired',
      'service=zz',
      `user_id=${admin.id}`,
      'from=2030-01-01',
      'problem=true',
    ]) {
      expect((await get(admin, `/orders?${query}`)).json().orders, query).toEqual([]);
    }
    expect((await get(admin, '/orders?from=yesterday')).statusCode).toBe(400);
    const detail = (await get(admin, `/orders/${order.id}`)).json();
    expect(detail.order).toMatchObject({
      id: order.id,
      username: user.username,
      status: 'waiting',
      code: null,
    });
    expect(detail.ledger).toEqual([
      expect.objectContaining({ kind: 'purchase', amount: -order.priceCents / 100 }),
    ]);
  });

  it('refunds once when two administrators refund at the same moment, with one audit entry', async () => {
    const { admin, user, order } = await setUp();
    const second = await createUser(t, { admin: true });
    const [a, b] = await Promise.all([
      post(admin, `/orders/${order.id}/refund`, { reason: 'number never worked' }),
      post(second, `/orders/${order.id}/refund`, { reason: 'customer asked in ticket 7' }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = a.statusCode === 200 ? a : b;
    expect(winner.json()).toMatchObject({ order: { status: 'canceled' } });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const refunds = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'refund'));
    expect(refunds).toHaveLength(1);
    const audit = await t.ctx.database.db.select().from(auditLog);
    expect(audit).toEqual([expect.objectContaining({ action: 'order.refund', objectId: String(order.id) })]);
    // The user sees why, without the administrators' internal reason.
    const [after] = await t.ctx.database.db.select().from(activations);
    expect(after!.statusReason).toBe('refunded_by_support');
  });

  it("names a support refund the same way on the customer's pages, the CSV and the console", async () => {
    const { admin, user, order } = await setUp();
    expect(
      (await post(admin, `/orders/${order.id}/refund`, { reason: 'number never worked' })).statusCode,
    ).toBe(200);
    const dashboard = (url: string) => t.app.inject({ url: `/api/dashboard${url}`, headers: user.headers });

    const ledger = (await dashboard('/ledger')).json();
    expect(ledger.entries[0]).toMatchObject({ kind: 'refund', refund_reason: 'refunded_by_support' });
    expect((await dashboard('/ledger.csv')).body).toMatch(/,refund,.*,refunded_by_support,/);
    expect((await dashboard(`/numbers/${order.id}/money`)).json().refund_reason).toBe('refunded_by_support');
    // My Numbers: "Refunded" (status expired) finds it, "Canceled" does not.
    const refunded = (await dashboard('/numbers?status=expired')).json().numbers;
    expect(refunded).toEqual([expect.objectContaining({ id: order.id, status: 'expired' })]);
    expect((await dashboard('/numbers?status=canceled')).json().numbers).toEqual([]);
    expect((await get(admin, `/orders/${order.id}`)).json().order).toMatchObject({
      status: 'canceled',
      refund_reason: 'refunded_by_support',
    });
    // The console filters by that name too: support's refunds, and no other order.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: 'US', service: order.service },
    });
    expect(other.statusCode, other.body).toBe(200);
    const bySupport = (await get(admin, '/orders?status=refunded_by_support')).json().orders;
    expect(bySupport.map((row: { id: number }) => row.id)).toEqual([order.id]);
    expect((await get(admin, '/orders?status=waiting')).json().orders).toHaveLength(1);
  });

  it('refuses to refund an order with a code unless forced, and marks problems', async () => {
    const { admin, user, order } = await setUp();
    await simulatorControl(t, 'sms', {
      activationId: order.providerActivationId,
      text: 'Your code is 123456',
    });
    await expect
      .poll(async () => (await get(admin, `/orders/${order.id}`)).json().order.code, { timeout: 5000 })
      .toBe('123456');
    const refused = await post(admin, `/orders/${order.id}/refund`, { reason: 'code rejected' });
    expect(refused.statusCode).toBe(409);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - order.priceCents);

    const marked = await post(admin, `/orders/${order.id}/problem`, { reason: 'service rejected the code' });
    expect(marked.json()).toMatchObject({ order: { problem_note: 'service rejected the code' } });
    expect((await get(admin, '/orders?problem=true')).json().orders).toHaveLength(1);

    const forced = await post(admin, `/orders/${order.id}/refund`, {
      reason: 'code rejected by the bank',
      force: true,
    });
    expect(forced.statusCode, forced.body).toBe(200);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
    const detail = (await get(admin, `/orders/${order.id}`)).json();
    expect(detail.audit.map((entry: { action: string }) => entry.action)).toEqual([
      'order.refund',
      'order.mark_problem',
    ]);
    expect(detail.messages).toEqual([expect.objectContaining({ code: '123456', late: false })]);
  });

  it('ends a one-time order at its provider before support refunds it, and records the answer', async () => {
    const { admin, user, order } = await setUp();
    t.clock.advance(3 * 60_000);
    const refunded = await post(admin, `/orders/${order.id}/refund`, { reason: 'number never worked' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const state = (await simulatorControl(t, 'state', { activationId: order.providerActivationId })) as {
      activation: { status: string };
    };
    expect(state.activation.status).toBe('cancelled');
    const detail = (await get(admin, `/orders/${order.id}`)).json();
    expect(
      detail.upstream.map((call: { action: string; outcome: string }) => `${call.action} ${call.outcome}`),
    ).toEqual(['buy ok', 'cancel ok']);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
  });

  it('finishes a one-time order at its provider when the provider refuses the cancel, then refunds', async () => {
    // Inside the provider's first two minutes: the cancel is refused, so the number is finished instead.
    const { admin, user, order } = await setUp();
    const refunded = await post(admin, `/orders/${order.id}/refund`, { reason: 'number never worked' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const state = (await simulatorControl(t, 'state', { activationId: order.providerActivationId })) as {
      activation: { status: string };
    };
    expect(state.activation.status).toBe('finished');
    const detail = (await get(admin, `/orders/${order.id}`)).json();
    expect(detail.upstream.map((call: { action: string }) => call.action)).toEqual([
      'buy',
      'cancel',
      'finish',
    ]);
    expect(detail.upstream.at(-1)).toMatchObject({ action: 'finish', outcome: 'ok' });
    expect(detail.upstream[1].outcome).not.toBe('ok');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
  });

  it('cancels the number at its provider and records it', async () => {
    const { admin, order } = await setUp();
    t.clock.advance(3 * 60_000);
    const response = await post(admin, `/orders/${order.id}/cancel-upstream`, {
      reason: 'stuck at the provider',
    });
    expect(response.statusCode, response.body).toBe(200);
    const state = (await simulatorControl(t, 'state', { activationId: order.providerActivationId })) as {
      activation: { status: string };
    };
    expect(state.activation.status).toBe('cancelled');
    const detail = (await get(admin, `/orders/${order.id}`)).json();
    expect(detail.audit[0]).toMatchObject({ action: 'order.cancel_upstream' });
    expect(
      detail.upstream.map((call: { action: string; outcome: string }) => `${call.action} ${call.outcome}`),
    ).toEqual(['buy ok', 'cancel ok']);
  });

  it('shows each provider a purchase tried, with its answer', async () => {
    t = await createListeningTestApp({ SMS_PROVIDERS: 'sim-a,sim-b', SMS_ROUTING_PINS: 'US=sim-a' });
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    await simulatorControl(t, 'fault', { action: 'getNumberV2', token: 'NO_NUMBERS', times: 1 }, 'sim-a');
    const offer = aFailoverOffer(t, 'US', 'sim-a', 'sim-b');
    const bought = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/buy-number',
      headers: user.headers,
      payload: { countryID: 'US', service: offer.service },
    });
    expect(bought.statusCode, bought.body).toBe(200);
    const [order] = await t.ctx.database.db.select().from(activations);
    const detail = (await get(admin, `/orders/${order!.id}`)).json();
    expect(detail.upstream).toEqual([
      expect.objectContaining({ provider: 'sim-a', action: 'buy', outcome: 'NO_NUMBERS' }),
      expect.objectContaining({ provider: 'sim-b', action: 'buy', outcome: 'ok' }),
    ]);
  });
});
