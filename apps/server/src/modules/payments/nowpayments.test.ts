// The second payment rail end to end: the app's NOWPayments adapter against the built-in NOWPayments
// sandbox over real HTTP, IPN callbacks signed and verified as NOWPayments does, on PGlite (or PostgreSQL
// with TEST_DATABASE_URL).
import { signIpn } from '@simcode/nowpayments-protocol';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant } from '../../../test/support/money';
import {
  createInvoice,
  createPaymentsTestApp,
  nowPaymentsControl,
  topupStatus,
} from '../../../test/support/payments';
import { createUser, type TestUser } from '../../../test/support/users';
import { ledgerEntries, paymentEvents, payments } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { PROBE_INTERVAL_MS } from './health';

let t: TestApp | undefined;
afterEach(async () => {
  if (!t) return;
  await assertLedgerInvariant(t.ctx.database);
  await closeTestApp(t);
  t = undefined;
});

const db = () => t!.ctx.database.db;
const ipnSecret = () =>
  (t!.config.paymentProviders.find((provider) => provider.kind === 'nowpayments') as { ipnSecret: string })
    .ipnSecret;
const entriesOf = (userId: number) =>
  db().select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));
const paymentRow = async (orderId: string) =>
  (await db().select().from(payments).where(eq(payments.orderId, orderId)))[0]!;

function postIpn(body: string, signature: string | undefined) {
  return t!.app.inject({
    method: 'POST',
    url: '/api/topup/nowpayments/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-nowpayments-sig': signature } : {}) },
    payload: body,
  });
}

/** Pays a NOWPayments invoice on its hosted page, as a payer would. */
async function payOnPage(invoiceUrl: string, amount: 'exact' | 'partial' | 'over') {
  const page = await fetch(invoiceUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Pay in sandbox');
  const iid = new URL(invoiceUrl).searchParams.get('iid')!;
  const response = await fetch(new URL('pay', invoiceUrl), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ iid, coin: 'usdttrc20', amount }).toString(),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
}

async function nowPaymentsInvoice(user: TestUser, amount = 12.34) {
  const invoice = await createInvoice(t!, user, amount, 'nowpayments');
  expect(new URL(invoice.url).pathname).toBe('/sandbox/nowpayments/payment/');
  expect((await paymentRow(invoice.orderId)).provider).toBe('nowpayments');
  return invoice;
}

describe('NOWPayments through its sandbox', () => {
  it('credits an invoice paid on the hosted page once, keyed by provider and invoice id', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user);
    await payOnPage(invoice.url, 'exact');

    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
    expect(await balanceOf(db(), user.id)).toBe(1234);
    expect(await entriesOf(user.id)).toEqual([
      expect.objectContaining({
        kind: 'topup',
        amountCents: 1234,
        idempotencyKey: `topup:nowpayments:${invoice.uuid}`,
      }),
    ]);
    expect((await paymentRow(invoice.orderId)).providerStatus).toBe('finished');
  });

  it('credits what arrived in dollars for an overpayment', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user, 10);
    await payOnPage(invoice.url, 'over');

    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
    // 10% more at the sandbox's fixed 1 USDT = 1 USD.
    expect(await balanceOf(db(), user.id)).toBe(1100);
  });

  it('holds a partial payment for an administrator and credits nothing', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user, 10);
    await payOnPage(invoice.url, 'partial');

    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('UNDERPAID');
    expect(await balanceOf(db(), user.id)).toBe(0);
    expect((await paymentRow(invoice.orderId)).providerStatus).toBe('partially_paid');
  });

  it('ends an expired payment unpaid and credits nothing', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user);
    await nowPaymentsControl(t, 'payment', { invoice_id: invoice.uuid, status: 'expired' });

    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('EXPIRED');
    expect(await balanceOf(db(), user.id)).toBe(0);
  });

  it('does not credit while the payment is only confirming', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user);
    await nowPaymentsControl(t, 'payment', { invoice_id: invoice.uuid, status: 'confirming' });
    await expect.poll(async () => (await paymentRow(invoice.orderId)).providerStatus).toBe('confirming');
    expect(await topupStatus(t, user, invoice.orderId)).toBe('PENDING');
    expect(await balanceOf(db(), user.id)).toBe(0);
  });

  it('credits replayed and concurrent deliveries of a paid IPN once', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user);
    const paid = await nowPaymentsControl(t, 'payment', { invoice_id: invoice.uuid, status: 'finished' });
    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');

    // The sandbox sends it again, and 20 copies arrive at once (keys in another order: same signature).
    await nowPaymentsControl(t, 'resend', { payment_id: paid.payment_id });
    const body = JSON.stringify(Object.fromEntries(Object.entries(paid).reverse()));
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => postIpn(body, signIpn(paid, ipnSecret()))),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(200));

    expect(await balanceOf(db(), user.id)).toBe(1234);
    expect(await entriesOf(user.id)).toHaveLength(1);
  });

  it('refuses a forged, unsigned or altered IPN (4xx) and credits nothing', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const invoice = await nowPaymentsInvoice(user);
    // A made-up "finished" callback for our invoice, as an attacker would write it.
    const forged = {
      payment_id: 1,
      invoice_id: Number(invoice.uuid),
      order_id: invoice.orderId,
      payment_status: 'finished',
      price_amount: 12.34,
      price_currency: 'usd',
      pay_amount: 12.34,
      actually_paid: 12.34,
      actually_paid_at_fiat: 12.34,
      pay_currency: 'usdttrc20',
    };
    const body = JSON.stringify(forged);
    const good = signIpn(forged, ipnSecret());
    for (const [payload, signature] of [
      [body, signIpn(forged, 'another-secret')],
      [body, undefined],
      [body.replace('12.34,"pay_currency"', '99.99,"pay_currency"'), good],
      ['not json', good],
    ] as const) {
      const answer = await postIpn(payload, signature);
      expect(answer.statusCode).toBe(401);
    }
    // Even correctly signed, a callback is only a hint: the sandbox has no finished payment for it.
    expect((await postIpn(body, good)).statusCode).toBe(200);
    expect(await topupStatus(t, user, invoice.orderId)).toBe('PENDING');
    expect(await balanceOf(db(), user.id)).toBe(0);
    const events = await db().select().from(paymentEvents);
    expect(events.filter((event) => event.source === 'webhook')).toHaveLength(1);
  });

  it("ignores a provider's callback about another provider's order", async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const cryptomusInvoice = await createInvoice(t, user, 12.34, 'cryptomus');
    const claim = {
      payment_id: 1,
      invoice_id: 1,
      order_id: cryptomusInvoice.orderId,
      payment_status: 'finished',
      price_amount: 12.34,
      price_currency: 'usd',
    };
    expect((await postIpn(JSON.stringify(claim), signIpn(claim, ipnSecret()))).statusCode).toBe(200);
    expect(await topupStatus(t, user, cryptomusInvoice.orderId)).toBe('PENDING');
    expect(await balanceOf(db(), user.id)).toBe(0);
  });
});

describe('the payment pool', () => {
  it('offers the methods of both providers, hides one that fails, and shows it again once it answers', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const methods = async () => {
      const response = await t!.app.inject({ url: '/api/topup/methods', headers: user.headers });
      expect(response.statusCode).toBe(200);
      return response.json().providers as {
        provider: string;
        methods: { min_amount: string; fee_percent: string }[];
      }[];
    };
    const both = await methods();
    expect(both.map((entry) => entry.provider)).toEqual(['cryptomus', 'nowpayments']);
    expect(both[1]!.methods).toContainEqual({
      currency: 'USDT',
      network: 'TRON',
      min_amount: '1',
      fee_percent: '0.5',
    });

    await nowPaymentsControl(t, 'fault', { down: true });
    // The payer picked NOWPayments before it went down: the invoice fails, and the provider is hidden.
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/topup/cryptomus/create-invoice',
      headers: user.headers,
      payload: { amount: 10, provider: 'nowpayments' },
    });
    expect(refused.statusCode).toBe(502);
    expect(t.ctx.topups.providers().find((provider) => provider.name === 'nowpayments')).toMatchObject({
      up: false,
    });
    expect((await methods()).map((entry) => entry.provider)).toEqual(['cryptomus']);

    // Without a choice the invoice goes to the first healthy provider.
    const invoice = await createInvoice(t, user, 10);
    expect((await paymentRow(invoice.orderId)).provider).toBe('cryptomus');

    // Back up: the next probe after the interval finds it and shows it again.
    await nowPaymentsControl(t, 'fault', { down: false });
    expect((await methods()).map((entry) => entry.provider)).toEqual(['cryptomus']);
    t.clock.advance(PROBE_INTERVAL_MS);
    expect((await methods()).map((entry) => entry.provider)).toEqual(['cryptomus', 'nowpayments']);
  });

  it('refuses a provider that is not configured with 400', async () => {
    t = await createPaymentsTestApp();
    const user = await createUser(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/topup/cryptomus/create-invoice',
      headers: user.headers,
      payload: { amount: 10, provider: 'paypal' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_payment_provider');
  });
});
