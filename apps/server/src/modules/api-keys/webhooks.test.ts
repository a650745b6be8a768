import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiKeyMessages } from '@simcode/contract';
import { protocolIds } from '@simcode/sms-activate-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey, protocolCall } from '../../../test/support/reseller';
import { anOffer, createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { balanceOf } from '../accounts/ledger';
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
    const order = await t.ctx.activations.find(user.id, orderId);
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
    const upstream = (await simulatorControl(t, 'state', { activationId: order!.providerActivationId })) as {
      activation: { sms: Array<{ from: string }> };
    };
    expect(JSON.parse(last.body)).toEqual({
      activationId: orderId,
      // Who sent it, as the upstream pushed it (Hero's field).
      phoneFrom: upstream.activation.sms[0]!.from,
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

  it('delivers a rent’s SMS to the URL given with the rent, signed with the key’s secret, never a late one', async () => {
    // Rents get their SMS only when the test sends one.
    t = await createListeningTestApp({
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      SIMULATOR_SMS_DELAY_MIN_MS: '3600000',
      SIMULATOR_SMS_DELAY_MAX_MS: '3600000',
    });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const { url, received } = await startReceiver([200]);
    // The key has no callback URL: the rent's own URL is where its SMS go.
    const key = await createApiKey(t, user);
    const catalog = JSON.parse(
      (await protocolCall(t, key.secret, 'getRentServicesAndCountries', { country: 187 })).body,
    );
    const service = Object.keys(catalog.services)[0]!;
    const rented = JSON.parse(
      (await protocolCall(t, key.secret, 'getRentNumber', { service, country: 187, url })).body,
    );
    const rentId = rented.phone.id as number;
    const rent = await t.ctx.rentals.findOwnById(user.id, rentId);
    expect(rent?.webhookUrl).toBe(url);

    await simulatorControl(t, 'sms', {
      rentId: rent!.providerRentId,
      from: 'SPORTMASTER',
      text: 'Code 4455',
    });
    await expect
      .poll(async () => (await logOf(key.id, user.headers)).deliveries.length, { timeout: 5000 })
      .toBe(1);
    expect(await delivery(true).run()).toBe(1);
    expect(received).toHaveLength(1);
    expect(JSON.parse(received[0]!.body)).toEqual({
      rentId: String(rentId),
      sms: {
        phoneFrom: 'SPORTMASTER',
        text: 'Code 4455',
        date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    });
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(received[0]!.headers['x-simcode-signature']));
    expect(match![2]).toBe(
      createHmac('sha256', key.webhookSecret).update(`${match![1]}.${received[0]!.body}`).digest('hex'),
    );

    // The address is checked again when delivering: without the closed-network setting it is refused.
    await simulatorControl(t, 'sms', {
      rentId: rent!.providerRentId,
      from: 'SPORTMASTER',
      text: 'Code 6677',
    });
    await expect
      .poll(async () => (await logOf(key.id, user.headers)).deliveries.length, { timeout: 5000 })
      .toBe(2);
    expect(await delivery(false).run()).toBe(1);
    expect(received).toHaveLength(1);
    expect((await logOf(key.id, user.headers)).deliveries[0]).toMatchObject({
      status: 'pending',
      last_error: expect.stringContaining('non-public address (127.0.0.1)'),
    });

    // An SMS after the rent ended is kept for audit only, and never sent.
    expect(
      JSON.parse((await protocolCall(t, key.secret, 'setRentStatus', { id: rentId, status: 1 })).body),
    ).toEqual({ status: 'success' });
    const ended = await t.ctx.rentals.findOwnById(user.id, rentId);
    t.clock.advance(60_000);
    await t.ctx.rentals.recordSms(ended!, { from: 'LATE', text: 'Too late 1234', receivedAt: t.clock.now() });
    expect((await logOf(key.id, user.headers)).deliveries).toHaveLength(2);
  });

  it('refuses a rent’s webhook URL that a key’s callback URL could not have, before charging', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const key = await createApiKey(t, user);
    const catalog = JSON.parse(
      (await protocolCall(t, key.secret, 'getRentServicesAndCountries', { country: 187 })).body,
    );
    const service = Object.keys(catalog.services)[0]!;
    for (const url of ['https://127.0.0.1/hook', 'http://example.com/hook', 'not a url']) {
      const answer = await protocolCall(t, key.secret, 'getRentNumber', { service, country: 187, url });
      expect(JSON.parse(answer.body), url).toEqual({ status: 'error', message: 'BAD_ACTION' });
      const hero = await protocolCall(
        t,
        key.secret,
        'getRentNumber',
        { service, country: 187, url },
        'GET',
        'hero',
      );
      expect([hero.status, JSON.parse(hero.body).title], url).toEqual([422, 'UNPROCESSABLE_ENTITY']);
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000);
    expect(await t.ctx.rentals.listRows(user.id, 10)).toEqual([]);
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
