import { topupMessages } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { testDatabaseUrl } from '../../../test/support/database';
import { assertLedgerInvariant } from '../../../test/support/money';
import {
  createInvoice,
  createPaymentsTestApp,
  postWebhook,
  sandboxControl,
  signedWebhook,
  topupStatus,
} from '../../../test/support/payments';
import { createUser, type TestUser } from '../../../test/support/users';
import { ledgerEntries, paymentEvents, payments } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';

let t: TestApp | undefined;
afterEach(async () => {
  if (!t) return;
  await assertLedgerInvariant(t.ctx.database);
  await closeTestApp(t);
  t = undefined;
});

async function start(env: Record<string, string> = {}) {
  t = await createPaymentsTestApp(env);
  return t;
}

const db = () => t!.ctx.database.db;
const topupEntries = (userId: number) =>
  db().select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId));
const eventsOf = (paymentId: number | null) =>
  db()
    .select()
    .from(paymentEvents)
    .where(paymentId === null ? undefined : eq(paymentEvents.paymentId, paymentId))
    .orderBy(paymentEvents.id);

function createInvoiceRaw(user: TestUser | null, payload: string | Record<string, unknown>) {
  return t!.app.inject({
    method: 'POST',
    url: '/api/topup/cryptomus/create-invoice',
    headers: { ...(user?.headers ?? {}), 'content-type': 'application/json' },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
}

async function listTopups(user: TestUser) {
  const response = await t!.app.inject({ url: '/api/topup/payments', headers: user.headers });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('creating an invoice', () => {
  it('creates a USD invoice for the exact amount, with our callback and return pages, and lists it as pending', async () => {
    const { config, clock } = await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 12.34);
    expect(invoice.orderId).toMatch(/^[A-Za-z0-9_-]{20,128}$/);
    expect(invoice.url).toBe(`${config.PUBLIC_URL}/sandbox/pay/${invoice.uuid}`);

    const atProvider = await sandboxControl(t!, 'invoice', { order_id: invoice.orderId });
    expect(atProvider).toMatchObject({
      amount: '12.34',
      currency: 'USD',
      status: 'check',
      uuid: invoice.uuid,
    });
    const lifetimeSeconds = config.TOPUP_INVOICE_LIFETIME_SECONDS;
    expect(atProvider.expired_at).toBe(Math.floor(clock.now().getTime() / 1000) + lifetimeSeconds);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe('PENDING');

    const [row] = await db().select().from(payments).where(eq(payments.orderId, invoice.orderId));
    expect(row).toMatchObject({
      userId: user.id,
      amountCents: 1234,
      status: 'pending',
      providerStatus: 'check',
    });
    const list = await listTopups(user);
    expect(list.limits).toEqual({ min_amount: 5, max_amount: 10_000 });
    expect(list.payments).toEqual([
      expect.objectContaining({
        order_id: invoice.orderId,
        amount: 12.34,
        status: 'PENDING',
        credited_amount: null,
        url: invoice.url,
      }),
    ]);

    // Order ids are random: a second invoice for the same amount is another order.
    const second = await createInvoice(t!, user, 12.34);
    expect(second.orderId).not.toBe(invoice.orderId);
    expect(second.uuid).not.toBe(invoice.uuid);

    // After paying, the payment page's "Return to the site" leads back to the Top Up page on PUBLIC_URL,
    // which follows this order.
    const paid = await fetch(`${invoice.url}/pay`, { method: 'POST', redirect: 'follow' });
    expect(await paid.text()).toContain(
      `href="${config.PUBLIC_URL}/dashboard/topup?order=${invoice.orderId}"`,
    );
    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
  });

  it.each([
    ['4.999', topupMessages.minimum],
    ['4.99', topupMessages.minimum],
    ['0', topupMessages.minimum],
    ['-5', topupMessages.minimum],
    ['5.001', topupMessages.tooManyDecimals],
    ['12.345', topupMessages.tooManyDecimals],
    ['1e9', topupMessages.maximum(1_000_000)],
    ['10000.01', topupMessages.maximum(1_000_000)],
    ['1e400', 'Invalid request: amount must be a number.'],
    ['"12.34"', 'Invalid request: amount must be a number.'],
    ['"ten"', 'Invalid request: amount must be a number.'],
    ['null', 'Invalid request: amount must be a number.'],
    ['[5]', 'Invalid request: amount must be a number.'],
    [undefined, 'Invalid request: amount is required.'],
  ])('refuses amount %s with 400 "%s" and creates nothing', async (amountJson, text) => {
    await start();
    const user = await createUser(t!);
    const body = amountJson === undefined ? '{}' : `{"amount":${amountJson}}`;
    const response = await createInvoiceRaw(user, body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: text });
    expect(await db().select().from(payments)).toHaveLength(0);
  });

  it.each([
    ['not JSON', '{"amount":'],
    ['no body', ''],
    ['a JSON array', '[12.34]'],
  ])('refuses %s with 400', async (_name, body) => {
    await start();
    const user = await createUser(t!);
    const response = await createInvoiceRaw(user, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().error).toMatch(/^(Invalid request|Request body)/);
  });

  it('accepts exactly $5 and exactly the configured maximum, and says the maximum when above it', async () => {
    await start({ TOPUP_MAX_USD: '250' });
    const user = await createUser(t!);
    expect((await createInvoiceRaw(user, { amount: 5 })).statusCode).toBe(200);
    expect((await createInvoiceRaw(user, { amount: 250 })).statusCode).toBe(200);
    const above = await createInvoiceRaw(user, { amount: 250.01 });
    expect(above.json()).toMatchObject({ success: false, error: 'Maximum top up is $250.00' });
    expect((await listTopups(user)).limits).toEqual({ min_amount: 5, max_amount: 250 });
    const amounts = (await db().select().from(payments)).map((row) => row.amountCents).sort((a, b) => a - b);
    expect(amounts).toEqual([500, 25_000]);
  });

  it("answers 'Failed to create Cryptomus invoice' when the provider cannot be reached, and lists nothing", async () => {
    await start({
      PAYMENT_PROVIDER: 'cryptomus',
      CRYPTOMUS_MERCHANT_ID: 'm',
      CRYPTOMUS_API_KEY: 'k',
      CRYPTOMUS_BASE_URL: 'http://127.0.0.1:9',
    });
    const user = await createUser(t!);
    const response = await createInvoiceRaw(user, { amount: 20 });
    expect(response.statusCode).toBe(502);
    expect(response.json()).toMatchObject({ success: false, error: topupMessages.invoiceFailed });
    // The outcome is unknown, so the row waits for the reconciliation job; the user sees no invoice.
    const [row] = await db().select().from(payments);
    expect(row).toMatchObject({ status: 'pending', providerPaymentId: null });
    expect((await listTopups(user)).payments).toEqual([]);
  });

  it('needs a signed-in user and limits invoices per user', async () => {
    await start();
    expect((await createInvoiceRaw(null, { amount: 10 })).statusCode).toBe(401);
    const user = await createUser(t!);
    const other = await createUser(t!);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt += 1)
      statuses.push((await createInvoiceRaw(user, { amount: 10 })).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // Another user's allowance is their own.
    expect((await createInvoiceRaw(other, { amount: 10 })).statusCode).toBe(200);
  });
});

describe('the status of a top-up', () => {
  it("is the owner's only: another user's order and unknown orders answer 404, bad ids 400", async () => {
    await start();
    const owner = await createUser(t!);
    const stranger = await createUser(t!);
    const { orderId } = await createInvoice(t!, owner);
    const asStranger = await t!.app.inject({
      url: `/api/topup/cryptomus/status?order_id=${orderId}`,
      headers: stranger.headers,
    });
    expect(asStranger.statusCode).toBe(404);
    expect(asStranger.json()).toMatchObject({ success: false, error: topupMessages.paymentNotFound });
    const unknown = await t!.app.inject({
      url: '/api/topup/cryptomus/status?order_id=top_nothing_here',
      headers: owner.headers,
    });
    expect(unknown.statusCode).toBe(404);
    for (const query of ['', '?order_id=', `?order_id=${'a'.repeat(129)}`, '?order_id=a%20b']) {
      const bad = await t!.app.inject({ url: `/api/topup/cryptomus/status${query}`, headers: owner.headers });
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().error).toMatch(/^Invalid request: order id /);
    }
    expect((await t!.app.inject({ url: `/api/topup/cryptomus/status?order_id=${orderId}` })).statusCode).toBe(
      401,
    );
    // The stranger's list does not show it either.
    expect((await listTopups(stranger)).payments).toEqual([]);
  });
});

describe('the payment webhook', () => {
  it('credits a payment made on the checkout page once, from the webhook the provider sends', async () => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 12.34);
    const checkout = await fetch(invoice.url);
    expect(await checkout.text()).toContain('Pay $12.34');
    await fetch(`${invoice.url}/pay`, {
      method: 'POST',
      body: 'method=usdt-tron',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

    await expect.poll(() => topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
    expect(await balanceOf(db(), user.id)).toBe(1234);
    const entries = await topupEntries(user.id);
    expect(entries).toEqual([
      expect.objectContaining({
        kind: 'topup',
        amountCents: 1234,
        idempotencyKey: `topup:cryptomus:${invoice.uuid}`,
        referenceType: 'payment',
      }),
    ]);
    const summary = (await t!.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).json();
    expect(summary.balance).toBe(12.34);
    const [listed] = (await listTopups(user)).payments;
    expect(listed).toMatchObject({
      status: 'COMPLETED',
      credited_amount: 12.34,
      provider_status: 'paid',
      url: null,
    });
    expect(listed.credited_at).not.toBeNull();
    // The pushed webhook is kept as received, next to what the provider confirmed.
    const events = await eventsOf(invoice.paymentId);
    expect(events.map((event) => [event.source, event.status])).toEqual([
      ['webhook', 'paid'],
      ['poll', 'paid'],
    ]);
    expect(events[0]!.rawBody).toContain(`"order_id":"${invoice.orderId}"`);
  });

  it('credits a replayed webhook once', async () => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 20);
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const body = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '20.00',
      payment_amount_usd: '20.00',
    });
    for (let delivery = 0; delivery < 5; delivery += 1) {
      const response = await postWebhook(t!, body);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ success: true });
    }
    expect(await balanceOf(db(), user.id)).toBe(2000);
    expect(await topupEntries(user.id)).toHaveLength(1);
    // Replays are counted on the one stored event, not stored again.
    expect((await eventsOf(invoice.paymentId)).filter((event) => event.source === 'webhook')).toMatchObject([
      { repeatCount: 4 },
    ]);
  });

  it(`credits 20 concurrent deliveries of the same paid webhook once${testDatabaseUrl ? ' (PostgreSQL)' : ''}`, async () => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 50);
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const body = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '50.00',
      payment_amount_usd: '50.00',
    });
    const responses = await Promise.all(Array.from({ length: 20 }, () => postWebhook(t!, body)));
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    expect(await balanceOf(db(), user.id)).toBe(5000);
    expect(await topupEntries(user.id)).toHaveLength(1);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
  });

  it('acknowledges a signed webhook for an order we do not have, records it, and changes nothing', async () => {
    await start();
    const user = await createUser(t!);
    const body = signedWebhook(t!, {
      uuid: 'a2b5e1f4-0000-4000-8000-000000000000',
      order_id: 'top_not_ours',
      status: 'paid',
      amount: '100.00',
    });
    const response = await postWebhook(t!, body);
    expect(response.statusCode).toBe(200);
    expect(await balanceOf(db(), user.id)).toBe(0);
    expect(await db().select().from(ledgerEntries)).toHaveLength(0);
    const [event] = await eventsOf(null);
    expect(event).toMatchObject({
      paymentId: null,
      orderId: 'top_not_ours',
      source: 'webhook',
      status: 'paid',
    });
  });

  it("credits the provider's truth, never the webhook's amounts", async () => {
    await start();
    const user = await createUser(t!);
    const exact = await createInvoice(t!, user, 12.34);
    await sandboxControl(t!, 'status', { uuid: exact.uuid, status: 'paid', send_webhook: false });
    const inflated = signedWebhook(t!, {
      uuid: exact.uuid,
      order_id: exact.orderId,
      status: 'paid_over',
      amount: '1000.00',
      payment_amount_usd: '1000.00',
    });
    expect((await postWebhook(t!, inflated)).statusCode).toBe(200);
    expect(await balanceOf(db(), user.id)).toBe(1234);

    // Paid over: the provider-confirmed USD amount, not the body's.
    const over = await createInvoice(t!, user, 10);
    await sandboxControl(t!, 'status', {
      uuid: over.uuid,
      status: 'paid_over',
      payment_amount: '15.00',
      send_webhook: false,
    });
    const lying = signedWebhook(t!, {
      uuid: over.uuid,
      order_id: over.orderId,
      status: 'paid_over',
      amount: '10.00',
      payment_amount_usd: '999.00',
    });
    expect((await postWebhook(t!, lying)).statusCode).toBe(200);
    expect(await balanceOf(db(), user.id)).toBe(1234 + 1500);
    const listed = (await listTopups(user)).payments.find(
      (payment: { order_id: string }) => payment.order_id === over.orderId,
    );
    expect(listed).toMatchObject({ status: 'COMPLETED', amount: 10, credited_amount: 15 });
  });

  it('does not credit a webhook saying paid while the provider still waits for the money', async () => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 30);
    const early = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '30.00',
      payment_amount_usd: '30.00',
    });
    expect((await postWebhook(t!, early)).statusCode).toBe(200);
    expect(await balanceOf(db(), user.id)).toBe(0);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe('PENDING');
  });

  it.each([
    ['wrong_amount', 'UNDERPAID', { payment_amount: '3.00' }],
    ['cancel', 'CANCELED', {}],
    ['fail', 'FAILED', {}],
    ['system_fail', 'FAILED', {}],
  ])('credits nothing for %s and records the status as %s', async (providerStatus, ourStatus, extra) => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 10);
    await sandboxControl(t!, 'status', {
      uuid: invoice.uuid,
      status: providerStatus,
      send_webhook: false,
      ...extra,
    });
    const body = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: providerStatus,
      amount: '10.00',
    });
    expect((await postWebhook(t!, body)).statusCode).toBe(200);
    expect(await balanceOf(db(), user.id)).toBe(0);
    expect(await db().select().from(ledgerEntries)).toHaveLength(0);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe(ourStatus);
    const [listed] = (await listTopups(user)).payments;
    expect(listed).toMatchObject({
      status: ourStatus,
      provider_status: providerStatus,
      credited_amount: null,
      url: null,
    });
    expect((await eventsOf(invoice.paymentId)).map((event) => [event.source, event.status])).toEqual([
      ['webhook', providerStatus],
      ['poll', providerStatus],
    ]);
  });

  it('still credits a payment confirmed after the invoice was written off', async () => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 10);
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'fail', send_webhook: false });
    const failed = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'fail',
      amount: '10.00',
    });
    await postWebhook(t!, failed);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe('FAILED');
    // The provider corrects itself: the money did arrive.
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const paid = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '10.00',
      payment_amount_usd: '10.00',
    });
    await postWebhook(t!, paid);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe('COMPLETED');
    expect(await balanceOf(db(), user.id)).toBe(1000);
  });

  it.each([
    [
      'a forged sign',
      (body: string) => body.replace(/"sign":"[0-9a-f]{32}"/, `"sign":"${'0'.repeat(32)}"`),
      401,
    ],
    [
      'a body changed after signing',
      (body: string) => body.replace('"amount":"10.00"', '"amount":"99.00"'),
      401,
    ],
    ['no sign', (body: string) => body.replace(/,"sign":"[0-9a-f]{32}"/, ''), 401],
    ['not JSON', () => 'status=paid', 401],
    ['an empty body', () => '', 401],
  ])('refuses a webhook with %s (4xx) and changes nothing', async (_name, tamper, httpStatus) => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 10);
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const body = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '10.00',
      payment_amount_usd: '10.00',
    });
    const response = await postWebhook(t!, tamper(body));
    expect(response.statusCode).toBe(httpStatus);
    expect(response.json().success).toBe(false);
    expect(await balanceOf(db(), user.id)).toBe(0);
    expect(await eventsOf(invoice.paymentId)).toEqual([]);
    expect(await topupStatus(t!, user, invoice.orderId)).toBe('PENDING');
  });

  it('refuses a webhook signed with another key, or sent as another content type', async () => {
    await start();
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 10);
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const fields = {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '10.00',
      payment_amount_usd: '10.00',
    };
    expect((await postWebhook(t!, signedWebhook(t!, fields, 'not-the-key'))).statusCode).toBe(401);
    const asForm = await postWebhook(t!, signedWebhook(t!, fields), {
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(asForm.statusCode).toBe(415);
    expect(await balanceOf(db(), user.id)).toBe(0);
  });

  it('accepts webhooks only from the configured addresses when an allow-list is set', async () => {
    await start({ CRYPTOMUS_WEBHOOK_IPS: '91.227.144.54' });
    const user = await createUser(t!);
    const invoice = await createInvoice(t!, user, 10);
    await sandboxControl(t!, 'status', { uuid: invoice.uuid, status: 'paid', send_webhook: false });
    const body = signedWebhook(t!, {
      uuid: invoice.uuid,
      order_id: invoice.orderId,
      status: 'paid',
      amount: '10.00',
      payment_amount_usd: '10.00',
    });
    expect((await postWebhook(t!, body, { remoteAddress: '203.0.113.9' })).statusCode).toBe(401);
    expect(await balanceOf(db(), user.id)).toBe(0);
    expect((await postWebhook(t!, body, { remoteAddress: '91.227.144.54' })).statusCode).toBe(200);
    expect(await balanceOf(db(), user.id)).toBe(1000);
  });
});
