import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../../test/support/app';
import { assertLedgerInvariant } from '../../../../test/support/money';
import { createUser, type TestUser } from '../../../../test/support/users';
import { auditLog, ledgerEntries } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';
import { createInvoice, createPaymentsTestApp, sandboxControl } from '../../payments/test-fixtures';

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
