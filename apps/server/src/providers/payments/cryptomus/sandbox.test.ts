import { signBody } from '@simcode/cryptomus-protocol';
import {
  SANDBOX_KEY as KEY,
  ManualClock,
  SANDBOX_MERCHANT as MERCHANT,
  pressButton,
  stopAllSandboxes,
  stopSandbox,
} from '@simcode/stand-ins/testing';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testDatabase, testDatabaseUrl } from '../../../../test/support/database';
import {
  type SandboxHarness as Harness,
  startSandbox,
  webhookNumber,
} from '../../../../test/support/stand-ins';
import { sandboxInvoices } from '../../../db/schema';
import { createSandboxStore, createSandboxWalletStore, createSharedTurnPort } from '../../stand-in-stores';
import { type CreateInvoiceRequest, PaymentProviderError } from '../types';
import { createCryptomusProvider } from './provider';

afterEach(stopAllSandboxes);

let h: Harness;
beforeEach(async () => {
  h = await startSandbox();
});

let orderCounter = 0;
function invoiceRequest(overrides: Partial<CreateInvoiceRequest> = {}): CreateInvoiceRequest {
  orderCounter += 1;
  return {
    orderId: `topup-${orderCounter}`,
    amountCents: 1234,
    callbackUrl: h.receiver.url,
    returnUrl: 'http://localhost:3000/wallet',
    successUrl: 'http://localhost:3000/wallet?paid=1',
    lifetimeSeconds: 3600,
    ...overrides,
  };
}

/** A merchant API call signed like the adapter does, for the answers the adapter does not expose. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whatever JSON the merchant API answers.
async function merchantCall(path: string, body: unknown, key = KEY): Promise<{ status: number; body: any }> {
  const text = JSON.stringify(body);
  const response = await fetch(`${h.origin}/sandbox/cryptomus/v1/${path}`, {
    method: 'POST',
    headers: { merchant: MERCHANT, sign: signBody(text, key), 'content-type': 'application/json' },
    body: text,
  });
  return { status: response.status, body: await response.json() };
}

interface SandboxAnswer {
  state: number;
  result?: Record<string, unknown>;
  message?: string;
  errors?: Record<string, string[]>;
}

async function control(path: string, body: unknown, key = KEY) {
  const response = await fetch(`${h.origin}/sandbox/control/${path}`, {
    method: 'POST',
    headers: { 'x-sandbox-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as SandboxAnswer };
}

async function page(uuid: string) {
  const response = await fetch(`${h.origin}/sandbox/pay/${uuid}`);
  return { status: response.status, type: response.headers.get('content-type'), html: await response.text() };
}

describe('merchant API through the Cryptomus adapter', () => {
  it('creates an invoice once per order id and reports it', async () => {
    const request = invoiceRequest({ lifetimeSeconds: 900 });
    const invoice = await h.payments.createInvoice(request);
    expect(invoice.status).toBe('check');
    expect(invoice.isFinal).toBe(false);
    expect(invoice.url).toBe(`${h.origin}/sandbox/pay/${invoice.providerPaymentId}`);
    expect(invoice.expiresAt).toEqual(new Date(h.clock.now().getTime() + 900_000));

    const again = await h.payments.createInvoice(request);
    expect(again.providerPaymentId).toBe(invoice.providerPaymentId);

    const byOrder = await h.payments.getPayment({ orderId: request.orderId });
    const byUuid = await h.payments.getPayment({ providerPaymentId: invoice.providerPaymentId });
    expect(byOrder).toEqual(byUuid);
    expect(byOrder).toMatchObject({
      providerPaymentId: invoice.providerPaymentId,
      orderId: request.orderId,
      status: 'check',
      isFinal: false,
      amountCents: 1234,
      currency: 'USD',
      updatedAt: h.clock.now(),
    });
    expect(byOrder.paidAmountUsdCents).toBeUndefined();
  });

  it('answers validation errors like Cryptomus', async () => {
    const answer = await merchantCall('payment', {
      amount: 'ten',
      currency: 'EUR',
      order_id: 'bad id!',
      url_callback: 'ftp://x',
      lifetime: 10,
    });
    expect(answer).toEqual({
      status: 422,
      body: {
        state: 1,
        errors: {
          amount: ['validation.numeric'],
          currency: ['validation.in'],
          order_id: ['validation.alpha_dash'],
          url_callback: ['validation.url'],
          lifetime: ['validation.min.numeric'],
        },
      },
    });
    expect(await merchantCall('payment/info', {})).toEqual({
      status: 422,
      body: {
        state: 1,
        errors: { uuid: ['validation.required_without'], order_id: ['validation.required_without'] },
      },
    });
    const error = await h.payments.createInvoice(invoiceRequest({ lifetimeSeconds: 60 })).catch((e) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(error.kind).toBe('rejected');
  });

  it('refuses a wrong signature or merchant and reports unknown payments', async () => {
    expect(await merchantCall('payment/info', { order_id: 'x' }, 'wrong-key')).toEqual({
      status: 401,
      body: { state: 1, message: 'Invalid Sign.' },
    });
    const wrongKey = createCryptomusProvider({
      baseUrl: `${h.origin}/sandbox/cryptomus`,
      merchantId: MERCHANT,
      apiKey: 'wrong-key',
      timeoutMs: 5000,
    });
    const wrongMerchant = createCryptomusProvider({
      baseUrl: `${h.origin}/sandbox/cryptomus`,
      merchantId: 'someone-else',
      apiKey: KEY,
      timeoutMs: 5000,
    });
    for (const provider of [wrongKey, wrongMerchant]) {
      const error = await provider.createInvoice(invoiceRequest()).catch((e) => e);
      expect(error.kind).toBe('configuration');
    }
    const missing = await h.payments.getPayment({ orderId: 'never-created' }).catch((e) => e);
    expect(missing.kind).toBe('not_found');
  });

  it('answers in the Cryptomus envelope where it has no route, and reads [] as no parameters', async () => {
    expect(await merchantCall('payment/refund', { uuid: 'x' })).toEqual({
      status: 404,
      body: { state: 1, message: 'Route not found' },
    });
    const wrongMethod = await fetch(`${h.origin}/sandbox/cryptomus/v1/payment/info`);
    expect([wrongMethod.status, await wrongMethod.json()]).toEqual([
      404,
      { state: 1, message: 'Route not found' },
    ]);
    // PHP's json_encode writes an empty parameter array as a list.
    expect(await merchantCall('payment/info', [])).toEqual({
      status: 422,
      body: {
        state: 1,
        errors: { uuid: ['validation.required_without'], order_id: ['validation.required_without'] },
      },
    });
  });

  it('resends finalized payments only, and sends test webhooks', async () => {
    const invoice = await h.payments.createInvoice(invoiceRequest());
    expect((await merchantCall('payment/resend', { uuid: invoice.providerPaymentId })).body).toEqual({
      state: 1,
      message: 'Payment is not finalized',
    });
    await pressButton(h, invoice.providerPaymentId, 'pay');
    const first = await webhookNumber(h, 1);
    expect(await merchantCall('payment/resend', { uuid: invoice.providerPaymentId })).toEqual({
      status: 200,
      body: { state: 0, result: [] },
    });
    expect((await webhookNumber(h, 2)).raw).toBe(first.raw);

    const test = await merchantCall('test-webhook/payment', {
      url_callback: h.receiver.url,
      currency: 'USDT',
      network: 'tron',
      status: 'paid',
      order_id: 'any-order',
    });
    expect(test).toEqual({ status: 200, body: { state: 0, result: [] } });
    expect((await webhookNumber(h, 3)).webhook).toMatchObject({
      orderId: 'any-order',
      status: 'paid',
      isFinal: true,
    });
  });
});

describe('checkout page', () => {
  it('renders the invoice without scripts or outside resources', async () => {
    const invoice = await h.payments.createInvoice(invoiceRequest({ amountCents: 123_456 }));
    const { status, type, html } = await page(invoice.providerPaymentId);
    expect(status).toBe(200);
    expect(type).toContain('text/html');
    expect(html).toContain('$1,234.56');
    expect(html).toContain(`topup-${orderCounter}`);
    expect(html).toMatch(/sandbox/i);
    expect(html).toContain('Expires in');
    expect(html).toContain(`action="/sandbox/pay/${invoice.providerPaymentId}/pay"`);
    expect(html).toContain(`action="/sandbox/pay/${invoice.providerPaymentId}/cancel"`);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="https?:/i);
    expect(html).not.toMatch(/@import|url\(http/i);
  });

  it('answers an unknown invoice with a friendly 404 page', async () => {
    const { status, html } = await page('00000000-0000-4000-8000-000000000000');
    expect(status).toBe(404);
    expect(html).toContain('Invoice not found');
    expect((await pressButton(h, 'nope', 'pay')).status).toBe(404);
  });

  it('pays, notifies the shop with a signed webhook and refuses to pay twice', async () => {
    const request = invoiceRequest();
    const invoice = await h.payments.createInvoice(request);
    const paid = await pressButton(h, invoice.providerPaymentId, 'pay', 'method=usdt-bsc');
    expect(paid.status).toBe(303);
    expect(paid.location).toBe(`/sandbox/pay/${invoice.providerPaymentId}`);

    const { raw, webhook } = await webhookNumber(h, 1);
    expect(webhook).toEqual({
      providerPaymentId: invoice.providerPaymentId,
      orderId: request.orderId,
      status: 'paid',
      isFinal: true,
      amountCents: 1234,
      paidAmountUsdCents: 1234,
    });
    const fields = JSON.parse(raw);
    expect(Object.keys(fields)).toEqual([
      'type',
      'uuid',
      'order_id',
      'amount',
      'payment_amount',
      'payment_amount_usd',
      'merchant_amount',
      'commission',
      'is_final',
      'status',
      'from',
      'wallet_address_uuid',
      'network',
      'currency',
      'payer_currency',
      'additional_data',
      'txid',
      'sign',
    ]);
    expect(fields).toMatchObject({
      amount: '12.34',
      payment_amount: '12.34',
      merchant_amount: '12.09',
      commission: '0.25',
      network: 'bsc',
      payer_currency: 'USDT',
    });
    expect(raw).toContain('"currency":"USD"');

    expect(await h.payments.getPayment({ orderId: request.orderId })).toMatchObject({
      status: 'paid',
      isFinal: true,
      paidAmountUsdCents: 1234,
    });
    const outcome = await page(invoice.providerPaymentId);
    expect(outcome.html).toContain('Payment received');
    expect(outcome.html).toContain('You can close this window and return to the site');
    expect(outcome.html).toContain('href="http://localhost:3000/wallet?paid=1"');

    for (const button of ['pay', 'cancel'] as const) {
      const refused = await pressButton(h, invoice.providerPaymentId, button);
      expect(refused.status).toBe(409);
      expect(refused.html).toContain('already paid');
    }
    await vi.waitFor(
      async () => {
        const view = await control('invoice', { uuid: invoice.providerPaymentId });
        expect(view.body.result).toMatchObject({
          status: 'paid',
          webhook: { status: 'paid', delivered: true },
        });
      },
      { timeout: 5000 },
    );
  });

  it('cancels', async () => {
    const invoice = await h.payments.createInvoice(invoiceRequest());
    expect((await pressButton(h, invoice.providerPaymentId, 'cancel')).status).toBe(303);
    expect((await webhookNumber(h, 1)).webhook).toMatchObject({ status: 'cancel', isFinal: true });
    expect(JSON.parse(h.receiver.received[0]!.body)).not.toHaveProperty('txid');
    expect((await page(invoice.providerPaymentId)).html).toContain('Invoice closed');
  });

  it('expires after its lifetime', async () => {
    const invoice = await h.payments.createInvoice(invoiceRequest({ lifetimeSeconds: 300 }));
    h.clock.advance(299_000);
    expect((await h.payments.getPayment({ providerPaymentId: invoice.providerPaymentId })).status).toBe(
      'check',
    );
    h.clock.advance(1_000);
    const expired = await h.payments.getPayment({ providerPaymentId: invoice.providerPaymentId });
    expect(expired).toMatchObject({ status: 'cancel', isFinal: true });
    expect((await webhookNumber(h, 1)).webhook).toMatchObject({ status: 'cancel', isFinal: true });

    const refused = await pressButton(h, invoice.providerPaymentId, 'pay');
    expect(refused.status).toBe(409);
    expect(refused.html).toContain('closed or expired');
    expect((await h.payments.getPayment({ providerPaymentId: invoice.providerPaymentId })).status).toBe(
      'cancel',
    );
  });
});

describe('control API', () => {
  it('requires the sandbox key', async () => {
    expect((await control('reset', {}, 'wrong')).status).toBe(401);
  });

  it('sets any status, with or without a webhook, resends and resets', async () => {
    const request = invoiceRequest();
    const invoice = await h.payments.createInvoice(request);
    const uuid = invoice.providerPaymentId;

    expect((await control('status', { uuid, status: 'confirm_check' })).status).toBe(200);
    expect((await webhookNumber(h, 1)).webhook).toMatchObject({ status: 'confirm_check', isFinal: false });

    const over = await control('status', {
      order_id: request.orderId,
      status: 'paid_over',
      payment_amount: '15.00',
    });
    expect(over.body.result).toMatchObject({ status: 'paid_over', is_final: true, payment_amount: '15.00' });
    expect((await webhookNumber(h, 2)).webhook).toMatchObject({
      status: 'paid_over',
      paidAmountUsdCents: 1500,
    });

    expect((await control('status', { uuid, status: 'wrong_amount', payment_amount: '20.00' })).body).toEqual(
      {
        state: 1,
        errors: { payment_amount: ['validation.lt'] },
      },
    );
    expect((await control('status', { uuid, status: 'nonsense' })).status).toBe(422);

    // A lost webhook: the status changes, the shop hears nothing, the last webhook stays the old one.
    const silent = await control('status', { uuid, status: 'fail', send_webhook: false });
    expect(silent.body.result).toMatchObject({ status: 'fail', webhook: { status: 'paid_over' } });
    expect((await h.payments.getPayment({ providerPaymentId: uuid })).status).toBe('fail');

    const resent = await control('resend', { uuid });
    expect(resent.status).toBe(200);
    const repeated = await webhookNumber(h, 3);
    expect(repeated.raw).toBe(h.receiver.received[1]!.body);

    const read = await control('invoice', { uuid });
    expect(read.body.result).toMatchObject({
      uuid,
      order_id: request.orderId,
      status: 'fail',
      resend_count: 0,
    });

    expect((await control('reset', {})).body).toEqual({ state: 0, result: { removed: 1 } });
    expect((await control('invoice', { uuid })).status).toBe(404);
    expect((await h.payments.getPayment({ providerPaymentId: uuid }).catch((e) => e)).kind).toBe('not_found');
  });

  it('defaults the paid amount of an underpayment to half', async () => {
    const invoice = await h.payments.createInvoice(invoiceRequest());
    await control('status', { uuid: invoice.providerPaymentId, status: 'wrong_amount' });
    expect((await webhookNumber(h, 1)).webhook).toMatchObject({
      status: 'wrong_amount',
      paidAmountUsdCents: 617,
    });
  });
});

/** A signed merchant-API invoice for `amount` in `currency`; extra fields as Cryptomus takes them. */
async function createIn(amount: string, currency: string, extra: Record<string, unknown> = {}) {
  orderCounter += 1;
  const answer = await merchantCall('payment', {
    amount,
    currency,
    order_id: `coin-${orderCounter}`,
    url_callback: h.receiver.url,
    ...extra,
  });
  expect(answer.status).toBe(200);
  return answer.body.result as Record<string, string | null>;
}

describe('invoices in coins', () => {
  it('prices in a coin, fixes it as the payer currency and pays in it', async () => {
    const created = await createIn('0.001', 'btc');
    expect(created).toMatchObject({
      amount: '0.00100000',
      currency: 'BTC',
      payer_currency: 'BTC',
      payer_amount: '0.00100000',
      payment_amount: null,
      network: null,
      status: 'check',
    });
    const checkout = await page(created.uuid!);
    expect(checkout.html).toContain('0.00100000<small>BTC</small>');
    expect(checkout.html).toContain('Pay 0.00100000 BTC');
    // A BTC invoice offers BTC only: no stablecoin can pay it.
    expect(checkout.html).toContain('value="btc-btc"');
    expect(checkout.html).not.toContain('value="usdt-tron"');

    await pressButton(h, created.uuid!, 'pay', 'method=usdt-tron');
    const { raw, webhook } = await webhookNumber(h, 1);
    expect(JSON.parse(raw)).toMatchObject({
      amount: '0.00100000',
      payment_amount: '0.00100000',
      payment_amount_usd: '60.00',
      merchant_amount: '0.00098000',
      commission: '0.00002000',
      currency: 'BTC',
      payer_currency: 'BTC',
      network: 'btc',
    });
    expect(JSON.parse(raw).txid).toMatch(/^[0-9a-f]{64}$/);
    expect(webhook).toMatchObject({ status: 'paid', paidAmountUsdCents: 6000 });
  });

  it('prices in USDT, paid on the network the invoice names', async () => {
    const created = await createIn('25.5', 'USDT', { network: 'BSC' });
    expect(created).toMatchObject({
      amount: '25.50',
      currency: 'USDT',
      payer_currency: 'USDT',
      network: 'bsc',
    });
    const checkout = await page(created.uuid!);
    expect(checkout.html).toContain('value="usdt-bsc"');
    expect(checkout.html).not.toContain('value="usdt-tron"');
    await pressButton(h, created.uuid!, 'pay');
    expect(JSON.parse((await webhookNumber(h, 1)).raw)).toMatchObject({
      amount: '25.50',
      payment_amount: '25.50',
      payment_amount_usd: '25.50',
      network: 'bsc',
      payer_currency: 'USDT',
    });
  });

  it('converts a dollar invoice into the to_currency at the fixed rate, and credits its dollars', async () => {
    const created = await createIn('12.34', 'USD', { to_currency: 'BTC' });
    expect(created).toMatchObject({
      amount: '12.34',
      currency: 'USD',
      payer_currency: 'BTC',
      // 12.34 / 60000 = 0.000205666..., rounded half up to the satoshi.
      payer_amount: '0.00020567',
    });
    expect((await page(created.uuid!)).html).toContain('Pay 0.00020567 BTC');
    await pressButton(h, created.uuid!, 'pay');
    const { raw, webhook } = await webhookNumber(h, 1);
    expect(JSON.parse(raw)).toMatchObject({ payment_amount: '0.00020567', payment_amount_usd: '12.34' });
    // What our server reads: the invoice's own dollars, and the same dollars confirmed as paid.
    expect(webhook).toMatchObject({ status: 'paid', amountCents: 1234, paidAmountUsdCents: 1234 });
    expect(await h.payments.getPayment({ providerPaymentId: created.uuid! })).toMatchObject({
      currency: 'USD',
      amountCents: 1234,
      paidAmountUsdCents: 1234,
    });
  });

  it('counts over- and underpayments of a coin invoice in the coin', async () => {
    const created = await createIn('100', 'TRX');
    const over = await control('status', { uuid: created.uuid, status: 'paid_over', payment_amount: '101' });
    expect(over.body.result).toMatchObject({ payment_amount: '101.00000000', payment_amount_usd: '25.25' });
    const second = await createIn('100', 'TRX');
    expect(
      (await control('status', { uuid: second.uuid, status: 'wrong_amount', payment_amount: '100' })).body,
    ).toEqual({ state: 1, errors: { payment_amount: ['validation.lt'] } });
  });

  it('refuses currencies, coins and networks it does not list', async () => {
    const answer = await merchantCall('payment', {
      amount: '10',
      currency: 'USD',
      to_currency: 'EUR',
      network: 'btc',
      order_id: 'refused-1',
    });
    expect(answer).toEqual({
      status: 422,
      body: { state: 1, errors: { to_currency: ['validation.in'], network: ['validation.in'] } },
    });
    expect(
      (await merchantCall('payment', { amount: '10', currency: 'USD', network: 'btc', order_id: 'x' })).body,
    ).toEqual({ state: 1, errors: { network: ['validation.in'] } });
    expect(
      (await merchantCall('payment', { amount: '1', currency: 'BTC', network: 'tron', order_id: 'x' })).body,
    ).toEqual({ state: 1, errors: { network: ['validation.in'] } });
    expect(
      (await merchantCall('payment', { amount: '0.001', currency: 'USDT', order_id: 'x' })).body,
    ).toEqual({
      state: 1,
      errors: { amount: ['validation.min.numeric'] },
    });
  });

  it('holds invoices to the limits payment/services lists', async () => {
    const services = (await merchantCall('payment/services', {})).body.result as Array<
      Record<string, unknown>
    >;
    const btc = services.find((service) => service.currency === 'BTC');
    expect(btc).toEqual({
      network: 'BTC',
      currency: 'BTC',
      is_available: true,
      limit: { min_amount: '0.00000001', max_amount: '166.66666666' },
      commission: { fee_amount: '0.00', percent: '2.00' },
    });
    await createIn('166.66666666', 'BTC');
    expect(
      (await merchantCall('payment', { amount: '166.66666667', currency: 'BTC', order_id: 'big' })).body,
    ).toEqual({ state: 1, errors: { amount: ['validation.max.numeric'] } });
    expect(services.map((service) => `${service.currency}/${service.network}`)).toEqual([
      'USDT/TRON',
      'USDT/BSC',
      'USDT/ETH',
      'USDC/ETH',
      'BTC/BTC',
      'ETH/ETH',
      'LTC/LTC',
      'TRX/TRON',
    ]);
  });
});

describe('merchant API beyond our adapter', () => {
  it('lists payments newest first, a cursor page at a time, without repeats when invoices arrive', async () => {
    const uuids: string[] = [];
    for (let index = 0; index < 20; index += 1) uuids.push((await createIn('1', 'USD')).uuid!);
    const newestFirst = [...uuids].reverse();
    const first = (await merchantCall('payment/list', {})).body.result;
    expect(first.items.map((item: { uuid: string }) => item.uuid)).toEqual(newestFirst.slice(0, 15));
    expect(first.paginate).toMatchObject({ count: 15, hasPages: true, previousCursor: null, perPage: 15 });
    expect(first.items[0]).toMatchObject({
      amount: '1.00',
      currency: 'USD',
      status: 'check',
      is_final: false,
    });

    const newer = await createIn('1', 'USD');
    // Cryptomus documents the cursor as a query parameter.
    const second = (await merchantCall(`payment/list?cursor=${first.paginate.nextCursor}`, {})).body.result;
    expect(second.items.map((item: { uuid: string }) => item.uuid)).toEqual(newestFirst.slice(15));
    expect(second.paginate).toMatchObject({ count: 5, hasPages: true, nextCursor: null });

    const back = (await merchantCall('payment/list', { cursor: second.paginate.previousCursor })).body.result;
    expect(back.items.map((item: { uuid: string }) => item.uuid)).toEqual(newestFirst.slice(0, 15));
    expect(back.paginate.previousCursor).not.toBeNull();
    const top = (await merchantCall('payment/list', { cursor: back.paginate.previousCursor })).body.result;
    expect(top.items.map((item: { uuid: string }) => item.uuid)).toEqual([newer.uuid]);
  });

  it('filters the list by creation date, read as UTC, and refuses dates it cannot read', async () => {
    const early = await createIn('1', 'USD');
    h.clock.advance(2 * 86_400_000);
    const late = await createIn('2', 'USD');
    const list = async (body: Record<string, unknown>) =>
      (await merchantCall('payment/list', body)).body.result.items.map((item: { uuid: string }) => item.uuid);
    // The clock started at 2026-01-01 12:00:00 UTC.
    expect(await list({ date_from: '2026-01-01 12:00:00', date_to: '2026-01-01 12:00:00' })).toEqual([
      early.uuid,
    ]);
    expect(await list({ date_from: '2026-01-02 0:00:00' })).toEqual([late.uuid]);
    expect(await list({ date_to: '2026-01-01 11:59:59' })).toEqual([]);
    expect(
      await merchantCall('payment/list', { date_from: '2026-02-30 00:00:00', date_to: 'yesterday' }),
    ).toEqual({
      status: 422,
      body: {
        state: 1,
        errors: { date_from: ['validation.date_format'], date_to: ['validation.date_format'] },
      },
    });
  });

  it("reports the merchant's balance per coin: what arrived, less the fee", async () => {
    const before = (await merchantCall('balance', {})).body.result;
    const wallets = before[0].balance.merchant as Array<Record<string, string>>;
    expect(wallets.map((wallet) => wallet.currency_code)).toEqual([
      'USDT',
      'USDC',
      'BTC',
      'ETH',
      'LTC',
      'TRX',
    ]);
    expect(wallets.every((wallet) => /^0\.0+$/.test(wallet.balance!))).toBe(true);
    expect(before[0].balance.user).toHaveLength(6);

    const dollars = await h.payments.createInvoice(invoiceRequest());
    await pressButton(h, dollars.providerPaymentId, 'pay', 'method=usdt-tron');
    await pressButton(h, (await createIn('0.001', 'BTC')).uuid!, 'pay');
    await pressButton(h, (await createIn('5', 'USD')).uuid!, 'cancel');
    const after = (await merchantCall('balance', {})).body.result[0].balance.merchant as Array<
      Record<string, string>
    >;
    expect(after.find((wallet) => wallet.currency_code === 'USDT')?.balance).toBe('12.09');
    expect(after.find((wallet) => wallet.currency_code === 'BTC')?.balance).toBe('0.00098000');
    // Wallets keep their ids from one call to the next.
    expect(after.map((wallet) => wallet.uuid)).toEqual(wallets.map((wallet) => wallet.uuid));
  });

  it('gives each coin its fixed exchange rates, without credentials', async () => {
    const response = await fetch(`${h.origin}/sandbox/cryptomus/v1/exchange-rate/btc/list`);
    expect(response.status).toBe(200);
    const btc = (await response.json()) as { state: number; result: unknown[] };
    expect(btc.state).toBe(0);
    expect(btc.result).toContainEqual({ from: 'BTC', to: 'USD', course: '60000.00000000' });
    expect(btc.result).toContainEqual({ from: 'BTC', to: 'ETH', course: '20.00000000' });
    expect(btc.result).toHaveLength(6);
    const trx = await fetch(`${h.origin}/sandbox/cryptomus/v1/exchange-rate/TRX/list`);
    expect(((await trx.json()) as { result: unknown[] }).result).toContainEqual({
      from: 'TRX',
      to: 'BTC',
      course: '0.00000417',
    });

    const unknown = await fetch(`${h.origin}/sandbox/cryptomus/v1/exchange-rate/DOGE/list`);
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ state: 1, message: 'Currency not found' });
    const wrongKey = await fetch(`${h.origin}/sandbox/cryptomus/v1/exchange-rate/BTC/list`, {
      headers: { merchant: MERCHANT, sign: signBody('', 'wrong-key') },
    });
    expect(wrongKey.status).toBe(401);
  });

  it('draws a QR code of the hosted page, then of the address paid to', async () => {
    const created = await createIn('3', 'USD');
    const qr = await merchantCall('payment/qr', { merchant_payment_uuid: created.uuid });
    expect(qr.status).toBe(200);
    const image = qr.body.result.image as string;
    expect(image).toMatch(/^data:image\/png;base64,/);
    const png = Buffer.from(image.slice(image.indexOf(',') + 1), 'base64');
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');

    await pressButton(h, created.uuid!, 'pay');
    const paid = await merchantCall('payment/qr', { merchant_payment_uuid: created.uuid });
    // A different text gives a different picture: the address replaced the page.
    expect(paid.body.result.image).not.toBe(image);

    expect(await merchantCall('payment/qr', {})).toEqual({
      status: 422,
      body: { state: 1, errors: { merchant_payment_uuid: ['validation.required'] } },
    });
    expect(
      await merchantCall('payment/qr', { merchant_payment_uuid: '00000000-0000-4000-8000-000000000000' }),
    ).toEqual({ status: 404, body: { state: 1, message: 'Payment not found' } });
  });
});

describe('webhook delivery and state', () => {
  // Opening the database takes seconds on a busy machine: a hook's time, not a test's.
  beforeAll(() => testDatabase(), 180_000);

  it('retries a webhook the shop answered with 500', async () => {
    await stopSandbox(h);
    h = await startSandbox({ receiverStatuses: [500, 503] });
    const invoice = await h.payments.createInvoice(invoiceRequest());
    await pressButton(h, invoice.providerPaymentId, 'pay');

    const third = await webhookNumber(h, 3);
    expect(third.webhook).toMatchObject({ status: 'paid' });
    expect(new Set(h.receiver.received.map((webhook) => webhook.body)).size).toBe(1);
    await vi.waitFor(
      async () => {
        const view = await control('invoice', { uuid: invoice.providerPaymentId });
        expect(view.body.result?.webhook).toMatchObject({
          attempts: 3,
          delivered: true,
          last_response_status: 200,
        });
      },
      { timeout: 5000 },
    );
  });

  it('reads invoices stored before amounts were counted per currency', async () => {
    await stopSandbox(h);
    const { db } = await testDatabase();
    const now = Date.UTC(2026, 0, 1, 12);
    const stored = {
      uuid: '11111111-1111-4111-8111-111111111111',
      orderId: 'legacy-1',
      amountCents: 1500,
      currency: 'USD',
      status: 'paid',
      isFinal: true,
      url: 'http://127.0.0.1/sandbox/pay/11111111-1111-4111-8111-111111111111',
      urlCallback: null,
      urlReturn: null,
      urlSuccess: null,
      additionalData: null,
      createdAtMs: now,
      updatedAtMs: now,
      expiresAtMs: now + 3_600_000,
      payment: {
        amountCents: 1500,
        payerCurrency: 'USDT',
        network: 'tron',
        address: 'T1',
        from: 'T2',
        txid: 'ab',
      },
      resendCount: 0,
      webhook: null,
    };
    await db.insert(sandboxInvoices).values({ uuid: stored.uuid, orderId: stored.orderId, data: stored });
    h = await startSandbox({ store: createSandboxStore(db) });
    expect(await h.payments.getPayment({ orderId: 'legacy-1' })).toMatchObject({
      status: 'paid',
      amountCents: 1500,
      paidAmountUsdCents: 1500,
    });
  });

  it('holds a payment in the database before Pay answers, and knows it after a restart', async () => {
    await stopSandbox(h);
    const { db } = await testDatabase();
    const clock = new ManualClock(Date.UTC(2026, 0, 1, 12));
    h = await startSandbox({ store: createSandboxStore(db), clock });
    const request = invoiceRequest();
    const invoice = await h.payments.createInvoice(request);
    await pressButton(h, invoice.providerPaymentId, 'pay');
    const stored = await db.select().from(sandboxInvoices);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.data).toMatchObject({ status: 'paid', webhook: { status: 'paid' } });

    // What the next start reads is what the database held when Pay answered (asserted above).
    await stopSandbox(h);
    h = await startSandbox({ store: createSandboxStore(db), clock });
    expect(await h.payments.getPayment({ orderId: request.orderId })).toMatchObject({
      providerPaymentId: invoice.providerPaymentId,
      status: 'paid',
      isFinal: true,
      paidAmountUsdCents: 1234,
    });
    const again = await h.payments.createInvoice(request);
    expect(again.providerPaymentId).toBe(invoice.providerPaymentId);
  });
});

describe('static wallets', () => {
  const walletRequest = (orderId: string) => ({
    orderId,
    currency: 'USDT',
    network: 'TRON',
    callbackUrl: h.receiver.url,
  });

  it('creates a wallet once per order id, refuses unsigned calls and coins it does not list', async () => {
    const wallets = h.payments.staticWallets!;
    const first = await wallets.create(walletRequest('wallet-1'));
    expect(first.address).toMatch(/^T\w{33}$/);
    expect(first.url).toBe(`${h.origin}/sandbox/wallet/${first.walletUuid}`);
    expect(await wallets.create(walletRequest('wallet-1'))).toEqual(first);
    expect((await wallets.create(walletRequest('wallet-2'))).address).not.toBe(first.address);

    const forged = await merchantCall(
      'wallet',
      { currency: 'USDT', network: 'tron', order_id: 'w3' },
      'OTHER_KEY',
    );
    expect(forged).toMatchObject({ status: 401, body: { state: 1, message: 'Invalid Sign.' } });
    const odd = await merchantCall('wallet', { currency: 'USDT', network: 'btc', order_id: 'bad id' });
    expect(odd).toMatchObject({
      status: 422,
      body: { errors: { network: ['validation.in'], order_id: ['validation.alpha_dash'] } },
    });
  });

  it('announces a deposit with a signed wallet webhook, and confirms it later', async () => {
    const wallet = await h.payments.staticWallets!.create(walletRequest('wallet-4'));
    const seen = await control('wallet/deposit', {
      address: wallet.address,
      amount: '20.00',
      status: 'confirm_check',
    });
    expect(seen.status).toBe(200);
    const first = await webhookNumber(h, 1);
    expect(first.webhook).toMatchObject({ kind: 'deposit', orderId: 'wallet-4', status: 'confirm_check' });
    expect(JSON.parse(first.raw)).toMatchObject({ type: 'wallet', wallet_address_uuid: wallet.walletUuid });

    const uuid = seen.body.result!.uuid as string;
    await control('status', { uuid, status: 'paid' });
    expect((await webhookNumber(h, 2)).webhook).toMatchObject({ kind: 'deposit', status: 'paid' });
    expect(await h.payments.staticWallets!.getDeposit(uuid)).toMatchObject({
      orderId: 'wallet-4',
      status: 'paid',
      outcome: 'paid',
      isFinal: true,
      paidAmountUsdCents: 2000,
      currency: 'USDT',
    });
    // A deposit is found by its uuid only: the wallet's order id still names no invoice.
    expect(await merchantCall('payment/info', { order_id: 'wallet-4' })).toMatchObject({ status: 404 });
  });

  it('keeps wallets and their deposits over a restart', async () => {
    await stopSandbox(h);
    const { db } = await testDatabase();
    const stores = () => ({ store: createSandboxStore(db), walletStore: createSandboxWalletStore(db) });
    h = await startSandbox(stores());
    const wallet = await h.payments.staticWallets!.create(walletRequest('wallet-5'));
    const sent = await control('wallet/deposit', { uuid: wallet.walletUuid, amount: '3.50' });
    await stopSandbox(h);
    h = await startSandbox(stores());
    expect(await h.payments.staticWallets!.create(walletRequest('wallet-5'))).toEqual(wallet);
    expect(await h.payments.staticWallets!.getDeposit(sent.body.result!.uuid as string)).toMatchObject({
      status: 'paid',
      paidAmountUsdCents: 350,
    });
  });
});

// Two servers on one PostgreSQL database, each serving the sandbox (a public demo behind a load balancer).
describe.skipIf(!testDatabaseUrl)('one sandbox served by two processes', () => {
  beforeAll(() => testDatabase(), 180_000);

  it('pays on one process an invoice the other created, and both answer with its state', async () => {
    await stopSandbox(h);
    const database = await testDatabase();
    await database.db.delete(sandboxInvoices);
    const served = () =>
      startSandbox({
        store: createSandboxStore(database.db),
        walletStore: createSandboxWalletStore(database.db),
        sharedTurns: createSharedTurnPort(database, 'sandbox:two-processes'),
      });
    const [a, b] = [await served(), await served()];
    h = a;
    const request = invoiceRequest();
    const invoice = await a.payments.createInvoice(request);
    const onB = await fetch(`${b.origin}/sandbox/pay/${invoice.providerPaymentId}`);
    expect(onB.status).toBe(200);
    expect((await pressButton(b, invoice.providerPaymentId, 'pay')).status).toBe(303);
    expect(await a.payments.getPayment({ orderId: request.orderId })).toMatchObject({ status: 'paid' });
    // Invoices created on both at once are each stored once, and each known to the other.
    const requests = Array.from({ length: 6 }, () => invoiceRequest());
    await Promise.all(requests.map((each, index) => (index % 2 ? a : b).payments.createInvoice(each)));
    for (const { orderId } of requests) {
      expect(await b.payments.getPayment({ orderId })).toMatchObject({ status: 'check' });
      expect(await a.payments.getPayment({ orderId })).toMatchObject({ status: 'check' });
    }
    expect(await database.db.select().from(sandboxInvoices)).toHaveLength(7);
  });
});
