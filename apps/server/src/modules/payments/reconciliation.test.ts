import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant } from '../../../test/support/money';
import {
  createInvoice,
  createPaymentsTestApp,
  nowPaymentsControl,
  sandboxControl,
  topupStatus,
} from '../../../test/support/payments';
import { createUser } from '../../../test/support/users';
import { ledgerEntries, paymentEvents, payments } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { createPaymentReconciliation, RECHECK_AFTER_MS, RECONCILIATION_BATCH_SIZE } from './reconciliation';
import { createPaymentsRepository } from './repository';
import { CONFIRMATION_WAIT_MS, EXPIRY_GRACE_MS } from './service';

let t: TestApp | undefined;
afterEach(async () => {
  if (!t) return;
  await assertLedgerInvariant(t.ctx.database);
  await closeTestApp(t);
  t = undefined;
});

function reconciliation(app: TestApp) {
  return createPaymentReconciliation({
    topups: app.ctx.topups,
    clock: app.clock,
    log: app.ctx.log,
  });
}

const pollsOf = async (app: TestApp) =>
  (await app.ctx.database.db.select().from(paymentEvents)).filter((event) => event.source === 'poll');

describe('the payment reconciliation job', () => {
  it('credits a paid invoice whose webhook was lost', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 12.34);
    await sandboxControl(t, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const job = reconciliation(t);

    // A fresh invoice is left alone for a minute: its webhook usually arrives first.
    await job.run();
    expect(await pollsOf(t)).toHaveLength(0);
    expect(await topupStatus(t, user, invoice.orderId)).toBe('PENDING');

    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('COMPLETED');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1234);
    // Credited once, however often it runs.
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1234);
    expect(await pollsOf(t)).toHaveLength(1);
  });

  it('keeps a paid-but-confirming invoice pending, and credits it once confirmed', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 40);
    await sandboxControl(t, 'status', { uuid: invoice.uuid, status: 'confirm_check', send_webhook: false });
    const job = reconciliation(t);
    t.clock.advance(t.config.TOPUP_INVOICE_LIFETIME_SECONDS * 1000 + EXPIRY_GRACE_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('PENDING');
    const [listed] = (await t.app.inject({ url: '/api/topup/payments', headers: user.headers })).json()
      .payments;
    expect(listed).toMatchObject({ status: 'PENDING', provider_status: 'confirm_check', url: null });

    await sandboxControl(t, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('COMPLETED');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(4000);
  });

  it('expires an invoice nobody paid once its lifetime is over', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 25);
    const job = reconciliation(t);
    t.clock.advance(t.config.TOPUP_INVOICE_LIFETIME_SECONDS * 1000 - RECHECK_AFTER_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('PENDING');

    t.clock.advance(RECHECK_AFTER_MS + EXPIRY_GRACE_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('EXPIRED');
    // The sandbox closed the invoice when it saw the time, and said so with a webhook: changing nothing more.
    await expect
      .poll(
        async () =>
          (
            (await sandboxControl(t!, 'invoice', { order_id: invoice.orderId })).webhook as {
              delivered?: boolean;
            } | null
          )?.delivered,
      )
      .toBe(true);
    expect(await topupStatus(t, user, invoice.orderId)).toBe('EXPIRED');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(0);
    const [listed] = (await t.app.inject({ url: '/api/topup/payments', headers: user.headers })).json()
      .payments;
    expect(listed).toMatchObject({ status: 'EXPIRED', url: null });
  });

  it('finds an invoice whose creation answer was lost, and credits it when paid', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const created = await t.ctx.topups.createInvoice(user.id, 15);
    const [stored] = await t.ctx.database.db
      .select()
      .from(payments)
      .where(eq(payments.orderId, created.orderId));
    const providerPaymentId = stored!.providerPaymentId!;
    // The provider did create it; our side never heard back: the row is as it was before the answer.
    const [lost] = await t.ctx.database.db
      .update(payments)
      .set({ providerPaymentId: null, paymentUrl: null })
      .where(eq(payments.id, stored!.id))
      .returning();
    await sandboxControl(t, 'status', { uuid: providerPaymentId, status: 'paid', send_webhook: false });
    t.clock.advance(RECHECK_AFTER_MS);
    await reconciliation(t).run();
    const [row] = await t.ctx.database.db.select().from(payments).where(eq(payments.id, lost!.id));
    expect(row).toMatchObject({
      status: 'completed',
      providerPaymentId,
      creditedCents: 1500,
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1500);
  });

  it('writes off an invoice the provider never created, once its lifetime is over', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const now = t.clock.now();
    const ghost = await createPaymentsRepository(t.ctx.database.db).insertPending({
      userId: user.id,
      provider: t.config.paymentProviders[0]!.name,
      orderId: 'top_never_created',
      amountCents: 900,
      expiresAt: new Date(now.getTime() + 3_600_000),
      now,
    });
    const job = reconciliation(t);
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await topupStatus(t, user, ghost.orderId)).toBe('PENDING');
    t.clock.advance(3_600_000 + EXPIRY_GRACE_MS);
    await job.run();
    expect(await topupStatus(t, user, ghost.orderId)).toBe('FAILED');
  });

  it('gives up on an unreachable provider only long after the lifetime', async () => {
    t = await createPaymentsTestApp({
      PAYMENT_PROVIDER: 'cryptomus',
      CRYPTOMUS_MERCHANT_ID: 'm',
      CRYPTOMUS_API_KEY: 'k',
      CRYPTOMUS_BASE_URL: 'http://127.0.0.1:9',
    });
    const user = await createUser(t);
    const now = t.clock.now();
    const stuck = await createPaymentsRepository(t.ctx.database.db).insertPending({
      userId: user.id,
      provider: t.config.paymentProviders[0]!.name,
      orderId: 'top_provider_down',
      amountCents: 900,
      expiresAt: new Date(now.getTime() + 3_600_000),
      now,
    });
    const job = reconciliation(t);
    t.clock.advance(3_600_000 + EXPIRY_GRACE_MS);
    await job.run();
    expect(await topupStatus(t, user, stuck.orderId)).toBe('PENDING');
    t.clock.advance(CONFIRMATION_WAIT_MS);
    await job.run();
    // A day later the user's token has expired too: read the row.
    const [row] = await t.ctx.database.db.select().from(payments).where(eq(payments.id, stuck.id));
    expect(row!.status).toBe('expired');
  });

  it('asks about a bounded number of invoices per run, least recently checked first', async () => {
    t = await createPaymentsTestApp({ TOPUP_MAX_USD: '100' });
    const users = await Promise.all(Array.from({ length: 3 }, () => createUser(t!)));
    const invoices = [];
    for (let index = 0; index < 12; index += 1) {
      const invoice = await createInvoice(t, users[index % 3]!, 5 + index);
      await sandboxControl(t, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
      invoices.push(invoice);
      // Ten seconds apart, so "oldest first" has a meaning.
      t.clock.advance(10_000);
    }
    const job = reconciliation(t);
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await pollsOf(t)).toHaveLength(RECONCILIATION_BATCH_SIZE);
    const completed = await t.ctx.database.db.select().from(payments).where(eq(payments.status, 'completed'));
    expect(completed.map((row) => row.orderId).sort()).toEqual(
      invoices
        .slice(0, RECONCILIATION_BATCH_SIZE)
        .map((invoice) => invoice.orderId)
        .sort(),
    );
    for (let run = 0; run < 2; run += 1) await job.run();
    expect(await pollsOf(t)).toHaveLength(12);
    const total = await Promise.all(users.map((user) => balanceOf(t!.ctx.database.db, user.id)));
    expect(total.reduce((sum, cents) => sum + cents, 0)).toBe(
      invoices.reduce((sum, _invoice, index) => sum + (5 + index) * 100, 0),
    );
  });
});

describe('the payment reconciliation job with NOWPayments', () => {
  it('credits a finished payment whose IPN was lost, once, keyed by the invoice id', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 12.34, 'nowpayments');
    await nowPaymentsControl(t, 'payment', { invoice_id: invoice.uuid, status: 'finished', send_ipn: false });
    const job = reconciliation(t);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('PENDING');

    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('COMPLETED');
    t.clock.advance(RECHECK_AFTER_MS);
    await job.run();
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1234);
    const entries = await t.ctx.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, user.id));
    expect(entries).toEqual([
      expect.objectContaining({ amountCents: 1234, idempotencyKey: `topup:nowpayments:${invoice.uuid}` }),
    ]);
    expect(await pollsOf(t)).toHaveLength(1);
  });

  it('credits a payment that finishes after the invoice expired (NOWPayments invoices have no lifetime)', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await createInvoice(t, user, 20, 'nowpayments');
    const job = reconciliation(t);
    // Nobody picked a coin within our lifetime: the invoice ends expired on our side.
    t.clock.advance(t.config.TOPUP_INVOICE_LIFETIME_SECONDS * 1000 + EXPIRY_GRACE_MS);
    await job.run();
    expect(await topupStatus(t, user, invoice.orderId)).toBe('EXPIRED');

    // The payer pays on the still open NOWPayments page: its IPN credits the expired top-up.
    await nowPaymentsControl(t, 'payment', { invoice_id: invoice.uuid, status: 'finished' });
    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(2000);
  });
});
