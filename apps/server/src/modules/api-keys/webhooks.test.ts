import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiKeyMessages } from '@simcode/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey, protocolCall } from '../../../test/support/reseller';
import { anOffer, createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { protocolIds } from '../reseller/protocol-ids';
import { createWebhookDelivery, retryDelayMs } from './webhooks';

let t: TestApp;
let receiver: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
  receiver = undefined;
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A customer's endpoint on 127.0.0.1 answering the statuses it is given, in turn. */
async function startReceiver(statuses: number[]): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  receiver = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.statusCode = statuses[Math.min(received.length - 1, statuses.length - 1)]!;
      response.end();
    });
  });
  await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, received };
}

function delivery(allowPrivateTargets: boolean) {
  return createWebhookDelivery({
    db: t.ctx.database.db,
    clock: t.ctx.clock,
    secretBox: t.ctx.secretBox,
    log: t.ctx.log,
    allowPrivateTargets,
    timeoutMs: 3000,
  });
}

async function logOf(keyId: number, headers: { authorization: string }) {
  return (await t.app.inject({ url: `/api/dashboard/api-keys/${keyId}/log`, headers })).json();
}

describe('customer webhooks', () => {
  it('posts each SMS of a key’s order, signed, and retries until the receiver accepts it', async () => {
    t = await createListeningTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { url, received } = await startReceiver([503, 200]);
    const key = await createApiKey(t, user, { callback_url: url });

    const bought = await protocolCall(t, key.secret, 'getNumber', {
      service: protocolIds.serviceOf(offer.service),
      country: protocolIds.countryOf('GB'),
    });
    const orderId = Number(bought.body.split(':')[1]);
    const order = await t.ctx.activations.repository.findForUser(user.id, orderId);
    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '90210',
      text: 'Code 90210',
    });
    await expect
      .poll(async () => (await logOf(key.id, user.headers)).deliveries.length, { timeout: 5000 })
      .toBe(1);

    expect(await delivery(true).run()).toBe(1);
    expect((await logOf(key.id, user.headers)).deliveries[0]).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 503,
    });
    // Not due again before its backoff.
    expect(await delivery(true).run()).toBe(0);
    t.clock.advance(retryDelayMs(1));
    expect(await delivery(true).run()).toBe(1);
    expect((await logOf(key.id, user.headers)).deliveries[0]).toMatchObject({
      status: 'delivered',
      attempts: 2,
    });

    expect(received).toHaveLength(2);
    const last = received[1]!;
    expect(JSON.parse(last.body)).toEqual({
      activationId: orderId,
      service: protocolIds.serviceOf(offer.service),
      text: 'Code 90210',
      code: '90210',
      country: protocolIds.countryOf('GB'),
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    // Both attempts carry the same body; each is signed over its own timestamp.
    expect(received[0]!.body).toBe(last.body);
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(last.headers['x-simcode-signature']));
    expect(match).not.toBeNull();
    const expected = createHmac('sha256', key.webhookSecret)
      .update(`${match![1]}.${last.body}`)
      .digest('hex');
    expect(match![2]).toBe(expected);
  });

  it('sends a test delivery on request', async () => {
    t = await createListeningTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const user = await createUser(t);
    const { url, received } = await startReceiver([204]);
    const key = await createApiKey(t, user, { callback_url: url });
    const queued = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/api-keys/${key.id}/test-delivery`,
      headers: user.headers,
    });
    expect(queued.statusCode).toBe(200);
    expect(await delivery(true).run()).toBe(1);
    expect(JSON.parse(received[0]!.body)).toMatchObject({ test: true, code: '12345' });
    expect((await logOf(key.id, user.headers)).deliveries[0]).toMatchObject({
      kind: 'test',
      status: 'delivered',
    });
  });

  it('refuses a callback URL on a private address, at save time and at delivery time', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    for (const callback_url of [
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://[::ffff:10.0.0.1]/x',
    ]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/dashboard/api-keys',
        headers: user.headers,
        payload: { name: 'bot', current_password: user.password, callback_url },
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        success: false,
        error: apiKeyMessages.callbackPrivate,
        code: 'callback_refused',
      });
    }
    const plain = await t.app.inject({
      method: 'POST',
      url: '/api/dashboard/api-keys',
      headers: user.headers,
      payload: { name: 'bot', current_password: user.password, callback_url: 'http://example.com/hook' },
    });
    expect(plain.json()).toEqual({
      success: false,
      error: apiKeyMessages.callbackNotHttps,
      code: 'invalid_request',
    });

    // A URL that was accepted (a closed network allowed it then) is still refused when delivering without it.
    const { url, received } = await startReceiver([200]);
    await closeTestApp(t);
    t = await createListeningTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    const owner = await createUser(t);
    const key = await createApiKey(t, owner, { callback_url: url });
    await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/api-keys/${key.id}/test-delivery`,
      headers: owner.headers,
    });
    expect(await delivery(false).run()).toBe(1);
    expect(received).toHaveLength(0);
    expect((await logOf(key.id, owner.headers)).deliveries[0]).toMatchObject({
      status: 'pending',
      last_error: expect.stringContaining('non-public address (127.0.0.1)'),
    });
  });
});
