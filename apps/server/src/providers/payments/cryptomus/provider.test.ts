import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeSignedWebhook, signBody } from '@simcode/cryptomus-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { type PaymentProvider, PaymentProviderError } from '../types';
import { createCryptomusProvider } from './provider';

const MERCHANT = 'merchant-uuid';
const KEY = 'TEST_PAYMENT_KEY';

interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** What the fake answers: a status and a JSON value or raw text, or never answering at all. */
type FakeAnswer = { status?: number; json?: unknown; text?: string; contentType?: string } | 'hang';

/** A scripted Cryptomus on 127.0.0.1 that records every request it gets. */
async function startFakeCryptomus(answer: (request: ReceivedRequest, index: number) => FakeAnswer) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const received = {
        path: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(received);
      const reply = answer(received, requests.length - 1);
      if (reply === 'hang') return;
      response.writeHead(reply.status ?? 200, {
        'content-type': reply.contentType ?? 'application/json',
      });
      response.end(reply.text ?? JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  cleanups.push(close);
  return { url: `http://127.0.0.1:${port}`, requests, close };
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
});

function provider(
  baseUrl: string | (() => string),
  extra: { timeoutMs?: number; webhookIps?: string[] } = {},
) {
  return createCryptomusProvider({
    baseUrl,
    merchantId: MERCHANT,
    apiKey: KEY,
    timeoutMs: extra.timeoutMs ?? 5000,
    webhookIps: extra.webhookIps,
  });
}

function paymentObject(overrides: Record<string, unknown> = {}) {
  return {
    uuid: '26109ba0-b05b-4ee0-93d1-fd62c822ce95',
    order_id: 'topup-1',
    amount: '12.34000000',
    payment_amount: null,
    payer_amount: null,
    payer_currency: null,
    currency: 'USD',
    merchant_amount: null,
    network: null,
    address: null,
    from: null,
    txid: null,
    payment_status: 'check',
    url: 'https://pay.cryptomus.com/pay/26109ba0-b05b-4ee0-93d1-fd62c822ce95',
    expired_at: 1_767_229_200,
    status: 'check',
    is_final: false,
    additional_data: null,
    created_at: '2026-01-01T00:00:00+03:00',
    updated_at: '2026-01-01T00:05:00+03:00',
    ...overrides,
  };
}

const INVOICE_REQUEST = {
  orderId: 'topup-1',
  amountCents: 1234,
  callbackUrl: 'https://simcode.example/api/payments/webhook',
  returnUrl: 'https://simcode.example/wallet',
  successUrl: 'https://simcode.example/wallet?paid=1',
  lifetimeSeconds: 3600,
};

async function failureOf(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

describe('createInvoice', () => {
  it('sends a signed request and maps the invoice', async () => {
    const fake = await startFakeCryptomus(() => ({ json: { state: 0, result: paymentObject() } }));
    const invoice = await provider(`${fake.url}/`).createInvoice(INVOICE_REQUEST);

    expect(invoice).toEqual({
      providerPaymentId: '26109ba0-b05b-4ee0-93d1-fd62c822ce95',
      url: 'https://pay.cryptomus.com/pay/26109ba0-b05b-4ee0-93d1-fd62c822ce95',
      status: 'check',
      isFinal: false,
      expiresAt: new Date(1_767_229_200_000),
    });
    const [request] = fake.requests;
    expect(request?.path).toBe('/v1/payment');
    expect(request?.headers.merchant).toBe(MERCHANT);
    expect(request?.headers['content-type']).toBe('application/json');
    // The server hashes what it received: the sign must cover these exact bytes.
    expect(request?.headers.sign).toBe(signBody(request?.body ?? '', KEY));
    expect(JSON.parse(request?.body ?? '')).toEqual({
      amount: '12.34',
      currency: 'USD',
      order_id: 'topup-1',
      url_callback: INVOICE_REQUEST.callbackUrl,
      url_return: INVOICE_REQUEST.returnUrl,
      url_success: INVOICE_REQUEST.successUrl,
      lifetime: 3600,
      is_payment_multiple: false,
    });
  });

  it('reads the base URL at every call', async () => {
    const fake = await startFakeCryptomus(() => ({ json: { state: 0, result: paymentObject() } }));
    let baseUrl = 'http://127.0.0.1:1';
    const payments = provider(() => baseUrl);
    baseUrl = `${fake.url}/sandbox/cryptomus`;
    await payments.createInvoice(INVOICE_REQUEST);
    expect(fake.requests[0]?.path).toBe('/sandbox/cryptomus/v1/payment');
  });

  it('refuses an existing invoice of the same order for another amount', async () => {
    const fake = await startFakeCryptomus(() => ({
      json: { state: 0, result: paymentObject({ amount: '99.00' }) },
    }));
    const error = await failureOf(provider(fake.url).createInvoice(INVOICE_REQUEST));
    expect(error.kind).toBe('rejected');
  });

  it('refuses a bad amount without calling the provider', async () => {
    const fake = await startFakeCryptomus(() => ({ json: { state: 0, result: paymentObject() } }));
    for (const amountCents of [0, -5, 12.5]) {
      const error = await failureOf(provider(fake.url).createInvoice({ ...INVOICE_REQUEST, amountCents }));
      expect(error.kind).toBe('rejected');
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('surfaces state 1 messages and validation errors as rejected', async () => {
    const fake = await startFakeCryptomus((_request, index) =>
      index === 0
        ? { json: { state: 1, message: 'The currency is not available' } }
        : {
            status: 422,
            json: {
              state: 1,
              errors: { order_id: ['validation.alpha_dash'], lifetime: ['validation.min.numeric'] },
            },
          },
    );
    const payments = provider(fake.url);
    const first = await failureOf(payments.createInvoice(INVOICE_REQUEST));
    expect(first.kind).toBe('rejected');
    expect(first.message).toContain('The currency is not available');
    const second = await failureOf(payments.createInvoice(INVOICE_REQUEST));
    expect(second.kind).toBe('rejected');
    expect(second.message).toContain('order_id: validation.alpha_dash; lifetime: validation.min.numeric');
  });

  it('reports a bad key as configuration', async () => {
    const fake = await startFakeCryptomus(() => ({
      status: 401,
      json: { state: 1, message: 'Invalid Sign.' },
    }));
    const error = await failureOf(provider(fake.url).createInvoice(INVOICE_REQUEST));
    expect(error.kind).toBe('configuration');
    expect(error.message).toContain('Invalid Sign.');
  });

  it('reports HTML, garbage and odd shapes as unavailable, without retrying creation', async () => {
    const answers: FakeAnswer[] = [
      { status: 502, text: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' },
      { text: 'definitely not json' },
      { json: { state: 0, result: { hello: 'world' } } },
      { json: { ok: true } },
      { json: { state: 0, result: paymentObject({ amount: 'twelve' }) } },
      { status: 503, json: { state: 1, message: 'Service temporarily unavailable' } },
    ];
    const fake = await startFakeCryptomus((_request, index) => answers[index] ?? 'hang');
    const payments = provider(fake.url);
    for (const _ of answers) {
      const error = await failureOf(payments.createInvoice(INVOICE_REQUEST));
      expect(error.kind).toBe('unavailable');
    }
    expect(fake.requests).toHaveLength(answers.length);
  });

  it('gives up after its timeout and does not send the creation again', async () => {
    const fake = await startFakeCryptomus(() => 'hang');
    const error = await failureOf(provider(fake.url, { timeoutMs: 100 }).createInvoice(INVOICE_REQUEST));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('no answer within 100 ms');
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a refused connection as unavailable', async () => {
    const fake = await startFakeCryptomus(() => 'hang');
    await fake.close();
    const error = await failureOf(provider(fake.url).createInvoice(INVOICE_REQUEST));
    expect(error.kind).toBe('unavailable');
  });
});

describe('getPayment', () => {
  it('looks up by order id or by uuid and maps the payment', async () => {
    const paid = paymentObject({
      status: 'paid',
      payment_status: 'paid',
      is_final: true,
      payment_amount: '12.34',
      payment_amount_usd: '12.33500000',
    });
    const fake = await startFakeCryptomus(() => ({ json: { state: 0, result: paid } }));
    const payments = provider(fake.url);

    const byOrder = await payments.getPayment({ orderId: 'topup-1' });
    const byUuid = await payments.getPayment({ providerPaymentId: paid.uuid });

    expect(byOrder).toEqual({
      providerPaymentId: paid.uuid,
      orderId: 'topup-1',
      status: 'paid',
      outcome: 'paid',
      isFinal: true,
      amountCents: 1234,
      paidAmountUsdCents: 1234,
      currency: 'USD',
      updatedAt: new Date('2026-01-01T00:05:00+03:00'),
    });
    expect(byUuid).toEqual(byOrder);
    expect(fake.requests.map((request) => [request.path, JSON.parse(request.body)])).toEqual([
      ['/v1/payment/info', { order_id: 'topup-1' }],
      ['/v1/payment/info', { uuid: paid.uuid }],
    ]);
  });

  it('falls back to payment_status and leaves the paid amount out until there is one', async () => {
    const fake = await startFakeCryptomus(() => ({
      json: {
        state: 0,
        result: paymentObject({ status: undefined, payment_status: 'cancel', is_final: true }),
      },
    }));
    const info = await provider(fake.url).getPayment({ orderId: 'topup-1' });
    expect(info.status).toBe('cancel');
    expect(info.paidAmountUsdCents).toBeUndefined();
  });

  it('reports an unknown payment as not_found, once', async () => {
    const fake = await startFakeCryptomus(() => ({
      status: 404,
      json: { state: 1, message: 'Payment not found' },
    }));
    const error = await failureOf(provider(fake.url).getPayment({ orderId: 'nope' }));
    expect(error.kind).toBe('not_found');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries a failed read and succeeds', async () => {
    const fake = await startFakeCryptomus((_request, index) =>
      index < 2
        ? { status: 502, text: '<html>Bad Gateway</html>', contentType: 'text/html' }
        : { json: { state: 0, result: paymentObject() } },
    );
    const info = await provider(fake.url).getPayment({ orderId: 'topup-1' });
    expect(info.status).toBe('check');
    expect(fake.requests).toHaveLength(3);
  });

  it('stops after three attempts', async () => {
    const fake = await startFakeCryptomus(() => 'hang');
    const error = await failureOf(provider(fake.url, { timeoutMs: 50 }).getPayment({ orderId: 'topup-1' }));
    expect(error.kind).toBe('unavailable');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a configuration error', async () => {
    const fake = await startFakeCryptomus(() => ({
      status: 401,
      json: { state: 1, message: 'Invalid Sign.' },
    }));
    const error = await failureOf(provider(fake.url).getPayment({ orderId: 'topup-1' }));
    expect(error.kind).toBe('configuration');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('verifyWebhook', () => {
  const payload = {
    type: 'payment',
    uuid: '26109ba0-b05b-4ee0-93d1-fd62c822ce95',
    order_id: 'topup-1',
    amount: '12.34',
    payment_amount: '12.40',
    payment_amount_usd: '12.40',
    merchant_amount: '12.15',
    commission: '0.25',
    is_final: true,
    status: 'paid_over',
    from: null,
    wallet_address_uuid: null,
    network: 'tron',
    currency: 'USD',
    payer_currency: 'USDT',
    additional_data: 'https://simcode.example/wallet',
    txid: 'abc',
  };
  const unused = 'http://127.0.0.1:1';

  it('returns the webhook in our terms', () => {
    expect(provider(unused).verifyWebhook(encodeSignedWebhook(payload, KEY), '203.0.113.7')).toEqual({
      providerPaymentId: payload.uuid,
      orderId: 'topup-1',
      status: 'paid_over',
      isFinal: true,
      amountCents: 1234,
      paidAmountUsdCents: 1240,
    });
  });

  it('checks the source address when an allow-list is set', () => {
    const payments: PaymentProvider = provider(unused, { webhookIps: ['91.227.144.54'] });
    const body = encodeSignedWebhook(payload, KEY);
    expect(payments.verifyWebhook(body, '91.227.144.54')).not.toBeNull();
    expect(payments.verifyWebhook(body, '::ffff:91.227.144.54')).not.toBeNull();
    expect(payments.verifyWebhook(body, '203.0.113.7')).toBeNull();
  });

  it('rejects forged, unsigned, altered and foreign bodies', () => {
    const payments = provider(unused);
    const body = encodeSignedWebhook(payload, KEY);
    expect(payments.verifyWebhook(encodeSignedWebhook(payload, 'OTHER_KEY'), '127.0.0.1')).toBeNull();
    expect(payments.verifyWebhook(JSON.stringify(payload), '127.0.0.1')).toBeNull();
    expect(payments.verifyWebhook(body.replace('"paid_over"', '"paid"'), '127.0.0.1')).toBeNull();
    expect(payments.verifyWebhook('<html></html>', '127.0.0.1')).toBeNull();
    expect(
      payments.verifyWebhook(encodeSignedWebhook({ ...payload, type: 'payout' }, KEY), '127.0.0.1'),
    ).toBeNull();
    // A static wallet's deposit is its own kind: its amount is in the coin, never read as an invoice's.
    expect(
      payments.verifyWebhook(encodeSignedWebhook({ ...payload, type: 'wallet' }, KEY), '127.0.0.1'),
    ).toMatchObject({ kind: 'deposit', status: 'paid_over' });
    expect(
      payments.verifyWebhook(encodeSignedWebhook({ ...payload, amount: '-1' }, KEY), '127.0.0.1'),
    ).toBeNull();
    expect(
      payments.verifyWebhook(encodeSignedWebhook({ ...payload, is_final: 'yes' }, KEY), '127.0.0.1'),
    ).toBeNull();
  });
});
