import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  SANDBOX_KEY as KEY,
  SANDBOX_MERCHANT as MERCHANT,
  pressButton,
  stopAllSandboxes,
} from '@simcode/stand-ins/testing';
import { Cryptomus } from 'cryptomus-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type SandboxHarness as Harness,
  startSandbox,
  webhookNumber,
} from '../../../../test/support/stand-ins';

/**
 * The sandbox driven by clients we did not write: the `cryptomus-sdk` npm package as published, and the
 * wire format of Cryptomus's official PHP SDK (its RequestBuilder and the webhook check its users write),
 * replayed byte for byte, since PHP itself is not part of this project.
 */

afterEach(stopAllSandboxes);

let h: Harness;
beforeEach(async () => {
  h = await startSandbox();
});

let orderCounter = 0;
const nextOrderId = (prefix: string) => {
  orderCounter += 1;
  return `${prefix}-${orderCounter}`;
};

/**
 * The SDK hard-codes `https://api.cryptomus.com/v1/` in a private field and has no option for another
 * address. Its methods read the field on every call, so setting it points the unmodified client at the
 * sandbox; everything else (signing, headers, axios) is the package's own code.
 */
function sdkClient(merchant = MERCHANT, key = KEY): Cryptomus {
  const client = new Cryptomus(merchant, key, 'payout-key-unused');
  Object.assign(client, { url: `${h.origin}/sandbox/cryptomus/v1/` });
  return client;
}

describe('the cryptomus-sdk npm client', () => {
  it('creates invoices in dollars and in USDT and reads them back by uuid and by order id', async () => {
    const sdk = sdkClient();
    const usdOrder = nextOrderId('sdk-usd');
    const usd = await sdk.createPayment({
      amount: '12.34',
      currency: 'USD',
      order_id: usdOrder,
      url_callback: h.receiver.url,
      lifetime: 900,
    });
    expect(usd.state).toBe(0);
    expect(usd.result).toMatchObject({
      order_id: usdOrder,
      amount: '12.34',
      currency: 'USD',
      payer_currency: null,
      payer_amount: null,
      payment_amount: null,
      status: 'check',
      payment_status: 'check',
      is_final: false,
      url: `${h.origin}/sandbox/pay/${usd.result.uuid}`,
      expired_at: Math.floor(h.clock.now().getTime() / 1000) + 900,
    });

    const usdt = await sdk.createPayment({
      amount: '10',
      currency: 'USDT',
      network: 'tron',
      order_id: nextOrderId('sdk-usdt'),
    });
    expect(usdt.result).toMatchObject({
      amount: '10.00',
      currency: 'USDT',
      payer_currency: 'USDT',
      payer_amount: '10.00',
      network: 'tron',
      status: 'check',
    });
    expect(usdt.result.uuid).not.toBe(usd.result.uuid);

    const byUuid = await sdk.getPaymentInfo({ uuid: usd.result.uuid });
    const byOrder = await sdk.getPaymentInfo({ order_id: usdOrder });
    expect(byUuid).toEqual({ state: 0, result: usd.result });
    expect(byOrder).toEqual(byUuid);
    // The same order id gives the invoice created first, as Cryptomus does.
    const again = await sdk.createPayment({ amount: '99', currency: 'USD', order_id: usdOrder });
    expect(again.result.uuid).toBe(usd.result.uuid);
    expect(again.result.amount).toBe('12.34');
  });

  it('sees a payment in info, balance and a resent webhook identical to the first', async () => {
    const sdk = sdkClient();
    const orderId = nextOrderId('sdk-paid');
    const created = await sdk.createPayment({
      amount: '12.34',
      currency: 'USD',
      order_id: orderId,
      url_callback: h.receiver.url,
    });
    await pressButton(h, created.result.uuid, 'pay', 'method=usdt-bsc');
    const first = await webhookNumber(h, 1);
    expect(first.webhook).toMatchObject({
      orderId,
      status: 'paid',
      amountCents: 1234,
      paidAmountUsdCents: 1234,
    });

    const info = await sdk.getPaymentInfo({ order_id: orderId });
    expect(info.result).toMatchObject({
      status: 'paid',
      is_final: true,
      payment_amount: '12.34',
      payer_amount: '12.34',
      payer_currency: 'USDT',
      network: 'bsc',
    });
    expect(info.result.txid).toMatch(/^0x[0-9a-f]{64}$/);
    expect(info.result.address).toMatch(/^0x[0-9a-f]{40}$/);

    expect(await sdk.resendWebhook({ uuid: created.result.uuid })).toEqual({ state: 0, result: [] });
    expect((await webhookNumber(h, 2)).raw).toBe(first.raw);

    const balance = await sdk.getBalance();
    expect(balance.state).toBe(0);
    const usdtWallet = balance.result[0].balance.merchant.find((wallet) => wallet.currency_code === 'USDT');
    // 12.34 paid, less the 2% fee (0.25 after rounding to the cent).
    expect(usdtWallet?.balance).toBe('12.09');
  });

  it('pages through the payment history with the cursor it puts in the query', async () => {
    const sdk = sdkClient();
    const created: string[] = [];
    for (let index = 0; index < 17; index += 1) {
      const invoice = await sdk.createPayment({
        amount: '5',
        currency: 'USD',
        order_id: nextOrderId('sdk-list'),
      });
      created.push(invoice.result.uuid);
    }
    const first = await sdk.getPaymentHistory();
    expect(first.result.items.map((item) => item.uuid)).toEqual([...created].reverse().slice(0, 15));
    expect(first.result.paginate).toMatchObject({
      count: 15,
      hasPages: true,
      perPage: 15,
      previousCursor: null,
    });
    expect(first.result.items[0]).toMatchObject({ amount: '5.00', currency: 'USD', status: 'check' });

    const nextCursor = first.result.paginate.nextCursor;
    expect(nextCursor).toEqual(expect.any(String));
    const second = await sdk.getPaymentHistory({}, nextCursor ?? undefined);
    expect(second.result.items.map((item) => item.uuid)).toEqual([created[1], created[0]]);
    expect(second.result.paginate).toMatchObject({ count: 2, hasPages: true, nextCursor: null });

    const tomorrow = await sdk.getPaymentHistory({ date_from: '2026-01-02 00:00:00' });
    expect(tomorrow.result.items).toEqual([]);
    expect(tomorrow.result.paginate).toMatchObject({ count: 0, hasPages: false, nextCursor: null });
  });

  it('lists the payment services', async () => {
    const services = await sdkClient().getPaymentServices();
    expect(services.state).toBe(0);
    expect(services.result).toContainEqual({
      network: 'TRON',
      currency: 'USDT',
      is_available: true,
      limit: { min_amount: '0.01', max_amount: '10000000.00' },
      commission: { fee_amount: '0.00', percent: '2.00' },
    });
    expect(services.result.map((service) => service.currency)).toEqual(
      expect.arrayContaining(['USDT', 'USDC', 'BTC', 'ETH', 'LTC', 'TRX']),
    );
  });

  it('fails on a refusal, a wrong key and an endpoint the sandbox does not offer', async () => {
    const sdk = sdkClient();
    await expect(
      sdk.createPayment({ amount: '10', currency: 'EUR', order_id: nextOrderId('sdk-eur') }),
    ).rejects.toThrow();
    await expect(sdkClient(MERCHANT, 'wrong-key').getPaymentServices()).rejects.toThrow();
    await expect(sdkClient('someone-else').getBalance()).rejects.toThrow();
    // Refunds move money back to a payer; the sandbox does not offer them, and says so in the envelope.
    await expect(sdk.refund({ order_id: 'any', address: 'TAddress', is_subtract: true })).rejects.toThrow();
  });
});

/** PHP's `json_encode($data, JSON_UNESCAPED_UNICODE)` for the strings, booleans and nulls used here. */
const phpJson = (data: unknown) => JSON.stringify(data).replaceAll('/', '\\/');
const md5 = (text: string) => createHash('md5').update(text).digest('hex');
/** `md5(base64_encode($body) . $apiKey)`, as the PHP SDK signs. */
const phpSign = (body: string, key: string) => md5(Buffer.from(body, 'utf8').toString('base64') + key);

interface WireAnswer {
  status: number;
  text: string;
}

function send(method: string, path: string, headers: Record<string, string>, body = ''): Promise<WireAnswer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${h.origin}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** The request Cryptomus's PHP SDK (RequestBuilder::sendRequest) sends: PHP JSON, its headers, its sign. */
function phpSdkSend(uri: string, body: string, sign = phpSign(body, KEY)): Promise<WireAnswer> {
  return send(
    'POST',
    `/sandbox/cryptomus/${uri}`,
    {
      Accept: 'application/json',
      'Content-Type': 'application/json;charset=UTF-8',
      'Content-Length': String(Buffer.byteLength(body)),
      merchant: MERCHANT,
      sign,
    },
    body,
  );
}

class PhpSdkError extends Error {
  constructor(
    message: string,
    readonly errors?: unknown,
  ) {
    super(message);
  }
}

/**
 * What the PHP SDK makes of an answer: an error when the status is not 200 or `state` is not 0 *and* there
 * is a `message` or `errors` to report; otherwise `result`, or `true` (which callers take for success).
 */
async function phpSdkCall(uri: string, data: unknown): Promise<unknown> {
  const answer = await phpSdkSend(uri, phpJson(data));
  const json = JSON.parse(answer.text) as {
    state?: number;
    result?: unknown;
    message?: string;
    errors?: unknown;
  };
  if (answer.status !== 200 || (json.state !== undefined && json.state !== 0)) {
    if (json.message) throw new PhpSdkError(json.message);
    if (json.errors) throw new PhpSdkError('Validation error', json.errors);
  }
  const empty = json.result === undefined || (Array.isArray(json.result) && json.result.length === 0);
  return !empty && json.state === 0 ? json.result : true;
}

describe("the official PHP SDK's wire format", () => {
  const additionalData = 'Заказ №7 — café ☕ https://shop.example/orders/7';

  it('accepts a body signed as PHP writes it: slashes escaped, non-ASCII raw', async () => {
    const data = {
      amount: '15',
      currency: 'USD',
      order_id: nextOrderId('php'),
      url_callback: h.receiver.url,
      url_return: 'https://shop.example/return',
      additional_data: additionalData,
    };
    const body = phpJson(data);
    expect(body).toContain('https:\\/\\/shop.example\\/return');
    expect(body).toContain('café ☕');

    const result = (await phpSdkCall('v1/payment', data)) as Record<string, unknown>;
    expect(result).toMatchObject({
      order_id: data.order_id,
      amount: '15.00',
      additional_data: additionalData,
    });

    // The sign covers the bytes sent: the same data signed without PHP's escapes is someone else's body.
    const unescapedSign = phpSign(JSON.stringify(data), KEY);
    expect(await phpSdkSend('v1/payment', body, unescapedSign)).toEqual({
      status: 401,
      text: JSON.stringify({ state: 1, message: 'Invalid Sign.' }),
    });
  });

  it('sends empty parameters as [] and the first history page as cursor "1"', async () => {
    const services = await phpSdkCall('v1/payment/services', []);
    expect(services).toEqual(
      expect.arrayContaining([expect.objectContaining({ currency: 'BTC', network: 'BTC' })]),
    );
    const balance = (await phpSdkCall('v1/balance', [])) as Array<{ balance: { merchant: unknown[] } }>;
    expect(balance[0]?.balance.merchant).toHaveLength(6);

    const created = (await phpSdkCall('v1/payment', {
      amount: '1',
      currency: 'USD',
      order_id: nextOrderId('php'),
    })) as {
      uuid: string;
    };
    const history = (await phpSdkCall('v1/payment/list', { cursor: '1' })) as {
      items: Array<{ uuid: string }>;
    };
    expect(history.items.map((item) => item.uuid)).toEqual([created.uuid]);
  });

  it('gets an error, not a silent success, from a route the sandbox does not have', async () => {
    await expect(
      phpSdkCall('v1/payment/refund', { uuid: 'x', address: 'y', is_subtract: true }),
    ).rejects.toThrow(new PhpSdkError('Route not found'));
    const raw = await phpSdkSend('v2/payment/nothing', '[]');
    expect(raw.status).toBe(404);
    expect(JSON.parse(raw.text)).toEqual({ state: 1, message: 'Route not found' });

    // Also without credentials, with the wrong method, and for a body too large to read.
    const unsigned = await send('POST', '/sandbox/cryptomus/v1/nothing', {});
    expect([unsigned.status, JSON.parse(unsigned.text)]).toEqual([
      404,
      { state: 1, message: 'Route not found' },
    ]);
    const wrongMethod = await send('GET', '/sandbox/cryptomus/v1/payment', {});
    expect([wrongMethod.status, JSON.parse(wrongMethod.text)]).toEqual([
      404,
      { state: 1, message: 'Route not found' },
    ]);
    const huge = await send(
      'POST',
      '/sandbox/cryptomus/v1/payment',
      { 'content-type': 'application/json' },
      'x'.repeat(2 ** 21),
    );
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.text)).toMatchObject({ state: 1, message: expect.any(String) });
  });

  it('signs webhooks so that the PHP check (unset sign, json_encode, md5) accepts them', async () => {
    const created = (await phpSdkCall('v1/payment', {
      amount: '7.5',
      currency: 'USD',
      order_id: nextOrderId('php-webhook'),
      url_callback: h.receiver.url,
      additional_data: additionalData,
    })) as { uuid: string };
    await pressButton(h, created.uuid, 'pay');
    const { raw } = await webhookNumber(h, 1);
    // Written as PHP writes it, which is what the receiver re-encodes.
    expect(raw).toContain('https:\\/\\/shop.example\\/orders\\/7');
    expect(raw).toContain('café ☕');

    const phpCheck = (key: string) => {
      const data = JSON.parse(raw) as Record<string, unknown>;
      const { sign } = data;
      delete data.sign;
      return phpSign(phpJson(data), key) === sign;
    };
    expect(phpCheck(KEY)).toBe(true);
    expect(phpCheck('another-key')).toBe(false);
    expect(JSON.parse(raw)).toMatchObject({
      additional_data: additionalData,
      amount: '7.50',
      payment_amount_usd: '7.50',
    });
  });
});
