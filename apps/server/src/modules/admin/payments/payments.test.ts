import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant } from '../../../../test/support/money';
import {
  createInvoice,
  createPaymentsTestApp,
  nowPaymentsControl,
  sandboxControl,
} from '../../../../test/support/payments';
import { createUser, type TestUser } from '../../../../test/support/users';
import { auditLog, ledgerEntries } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

function post(caller: TestUser, url: string, body?: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin${url}`,
    headers: caller.headers,
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

const get = (caller: TestUser, url: string) =>
  t.app.inject({ url: `/api/admin${url}`, headers: caller.headers });

describe('payments in the console', () => {
  it('finds an invoice, reconciles it with the provider now, and shows what the provider said', async () => {
    t = await createPaymentsTestApp();
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 12.34);
    expect((await get(admin, `/payments?q=${invoice.orderId.slice(4, 14)}`)).json().payments).toEqual([
      expect.objectContaining({
        id: invoice.paymentId,
        username: user.username,
        amount: 12.34,
        status: 'pending',
      }),
    ]);
    expect((await get(admin, `/payments?user_id=${admin.id}`)).json().payments).toEqual([]);

    await sandboxControl(t, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const reconciled = await post(admin, `/payments/${invoice.paymentId}/reconcile`);
    expect(reconciled.statusCode, reconciled.body).toBe(200);
    expect(reconciled.json()).toMatchObject({ payment: { status: 'completed', credited: 12.34 } });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1234);
    const detail = (await get(admin, `/payments/${invoice.paymentId}`)).json();
    expect(detail.events).toEqual([expect.objectContaining({ source: 'poll', status: 'paid' })]);
    expect(detail.ledger).toEqual([expect.objectContaining({ kind: 'topup', amount: 12.34 })]);
    expect(detail.audit).toEqual([expect.objectContaining({ action: 'payment.reconcile' })]);
    // A paid payment cannot be credited again by hand.
    expect(
      (await post(admin, `/payments/${invoice.paymentId}/credit`, { amount: 1, reason: 'again?' }))
        .statusCode,
    ).toBe(409);
  });

  it("lists every provider's payments in one list, and credits a held NOWPayments payment by hand", async () => {
    t = await createPaymentsTestApp();
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const viaCryptomus = await createInvoice(t, user, 12.34, 'cryptomus');
    const viaNowPayments = await createInvoice(t, user, 20, 'nowpayments');
    expect((await get(admin, `/payments?user_id=${user.id}`)).json().payments).toEqual([
      expect.objectContaining({ id: viaNowPayments.paymentId, provider: 'nowpayments' }),
      expect.objectContaining({ id: viaCryptomus.paymentId, provider: 'cryptomus' }),
    ]);

    await nowPaymentsControl(t, 'payment', { invoice_id: viaNowPayments.uuid, status: 'partially_paid' });
    await expect
      .poll(async () => (await get(admin, `/payments/${viaNowPayments.paymentId}`)).json().payment.status)
      .toBe('underpaid');
    const credited = await post(admin, `/payments/${viaNowPayments.paymentId}/credit`, {
      amount: 10,
      reason: 'paid half, ticket 7',
    });
    expect(credited.statusCode, credited.body).toBe(200);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000);
  });

  it('shows each payment provider with its health', async () => {
    t = await createPaymentsTestApp();
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const providers = async () => (await get(admin, '/payments/providers')).json().providers;
    const healthy = { up: true, down_since: null, last_error: null, last_error_code: null };
    const quiet = { payments: 0, credited: 0, credited_amount: 0 };
    // Nothing paid yet: the processors hold nothing.
    expect(await providers()).toEqual([
      {
        name: 'cryptomus',
        kind: 'cryptomus',
        ...healthy,
        deposit_addresses: true,
        balances: [],
        today: quiet,
      },
      {
        name: 'nowpayments',
        kind: 'nowpayments',
        ...healthy,
        deposit_addresses: false,
        balances: [],
        today: quiet,
      },
    ]);
    // Today's figures: an invoice paid at Cryptomus counts as opened and credited.
    const invoice = await createInvoice(t, user, 12.5);
    await fetch(`${invoice.url}/pay`, { method: 'POST' });
    await expect
      .poll(async () => (await providers())[0].today)
      .toEqual({ payments: 1, credited: 1, credited_amount: 12.5 });
    await nowPaymentsControl(t, 'fault', { down: true });
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/topup/cryptomus/create-invoice',
      headers: user.headers,
      payload: { amount: 10, provider: 'nowpayments' },
    });
    expect(refused.statusCode).toBe(502);
    expect((await providers())[1]).toMatchObject({
      name: 'nowpayments',
      up: false,
      // A provider that is down is not asked: the console does not wait for it.
      balances: null,
      down_since: t.clock.now().toISOString(),
      last_error: expect.stringContaining('HTTP 503'),
      last_error_code: 'unavailable',
    });
    // Users are refused the console's view.
    expect((await get(user, '/payments/providers')).statusCode).toBe(403);
  });

  it("shows each processor's merchant balance per coin, read from each sandbox's balance call", async () => {
    t = await createPaymentsTestApp();
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const providers = async () =>
      (await get(admin, '/payments/providers')).json().providers as {
        name: string;
        balances: { currency: string; amount: string }[] | null;
      }[];
    const paidAtCryptomus = await createInvoice(t, user, 20, 'cryptomus');
    await sandboxControl(t, 'status', { uuid: paidAtCryptomus.uuid, status: 'paid', send_webhook: false });
    const paidAtNowPayments = await createInvoice(t, user, 10, 'nowpayments');
    await nowPaymentsControl(t, 'payment', {
      invoice_id: paidAtNowPayments.uuid,
      status: 'finished',
      pay_currency: 'usdttrc20',
      send_ipn: false,
    });

    const [cryptomus, nowpayments] = await providers();
    // Each holds what was paid less its commission, in the coin paid. Cryptomus: 20 USDT (the sandbox's
    // default coin, 1:1) less its 2%.
    expect(cryptomus!.balances).toEqual([{ currency: 'USDT', amount: '19.60' }]);
    // NOWPayments: 10 USDT at its sandbox's 1:1 rate, less the 0.5% service fee.
    expect(nowpayments!.balances).toEqual([{ currency: 'usdttrc20', amount: '9.95' }]);
  });

  it('credits an underpaid payment by hand once, with its audit entry', async () => {
    t = await createPaymentsTestApp();
    const admin = await createUser(t, { admin: true });
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 20);
    await sandboxControl(t, 'status', { uuid: invoice.uuid, status: 'wrong_amount', send_webhook: false });
    expect((await post(admin, `/payments/${invoice.paymentId}/reconcile`)).json()).toMatchObject({
      payment: { status: 'underpaid' },
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(0);

    const body = { amount: 19.5, reason: 'paid 19.50 of 20.00, ticket 12' };
    const [a, b] = await Promise.all([
      post(admin, `/payments/${invoice.paymentId}/credit`, body),
      post(admin, `/payments/${invoice.paymentId}/credit`, body),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1950);
    const credits = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.kind, 'topup'));
    expect(credits).toHaveLength(1);
    const audit = await t.ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'payment.credit'));
    expect(audit).toEqual([expect.objectContaining({ reason: body.reason, adminId: admin.id })]);
    for (const wrong of [{ amount: 0, reason: 'zero' }, { amount: -5, reason: 'negative' }, { amount: 5 }]) {
      expect((await post(admin, `/payments/${invoice.paymentId}/credit`, wrong)).statusCode).toBe(400);
    }
  });
});
