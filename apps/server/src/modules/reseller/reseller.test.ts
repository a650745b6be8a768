import { protocolIds } from '@simcode/sms-activate-protocol';
import { eq } from 'drizzle-orm';
import SMSActivate from 'sms-activate';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { assertParallelBuysKeepToCap, createApiKey, protocolCall } from '../../../test/support/reseller';
import {
  activationSync,
  anOffer,
  createListeningTestApp,
  simulatorControl,
} from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { apiKeyEvents } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { NOTE_COALESCE_MS } from '../api-keys/service';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

/** The real npm client, unmodified; only its base URL (hard-coded in its constructor) is pointed at us. */
function client(secret: string): SMSActivate {
  const sms = new SMSActivate(secret);
  sms.session.defaults.baseURL = `${t.ctx.loopback.origin}/stubs/handler_api.php`;
  return sms;
}

describe('the SMS-Activate protocol through the npm client sms-activate', () => {
  it('buys, reads the code, asks for another SMS, finishes; buys again and cancels; the ledger matches', async () => {
    t = await createListeningTestApp({ SIMULATOR_EARLY_CANCEL_MS: '0' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { secret } = await createApiKey(t, user);
    const sms = client(secret);

    expect(await sms.getBalance()).toBe(10);
    const bought = await sms.getNumber(protocolIds.serviceOf(offer.service), protocolIds.countryOf('GB'));
    expect(bought).toMatchObject({ id: expect.any(Number), number: expect.any(Number) });
    expect(String(bought!.number)).toMatch(/^44\d{10}$/);
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);
    // Our order id, never the upstream's.
    const order = await t.ctx.activations.find(user.id, bought!.id);
    expect(order).toMatchObject({ status: 'waiting', apiKeyId: expect.any(Number) });
    expect(await sms.getStatus(bought!.id)).toBe('STATUS_WAIT_CODE');
    expect(await sms.setStatus(bought!.id, 1)).toBe('ACCESS_READY');

    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '48213',
      text: 'Code 48213',
    });
    await expect.poll(() => sms.getCode(bought!.id), { timeout: 5000 }).toBe('48213');

    expect(await sms.setStatus(bought!.id, 3)).toBe('ACCESS_RETRY_GET');
    expect(await sms.getStatus(bought!.id)).toBe('STATUS_WAIT_RETRY');
    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '55120',
      text: 'Code 55120',
    });
    await expect.poll(() => sms.getCode(bought!.id), { timeout: 5000 }).toBe('55120');
    expect(await sms.setStatus(bought!.id, 6)).toBe('ACCESS_ACTIVATION');
    expect((await t.ctx.activations.find(user.id, bought!.id))?.status).toBe('completed');

    // No number of ours forwards calls: asked for one, the client hears there is none, and nothing is charged.
    await expect(
      sms.getNumber(protocolIds.serviceOf(offer.service), protocolIds.countryOf('GB'), true),
    ).rejects.toMatchObject({ name: 'NoFreeNumbers' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);

    const second = await sms.getNumber(protocolIds.serviceOf(offer.service), protocolIds.countryOf('GB'));
    expect(await sms.setStatus(second!.id, 8)).toBe('ACCESS_CANCEL');
    expect(await sms.getStatus(second!.id)).toBe('STATUS_CANCEL');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);

    // The web shows both orders, marked as API orders.
    const list = (await t.app.inject({ url: '/api/dashboard/numbers', headers: user.headers })).json();
    expect(list.numbers.map((n: { via_api: boolean }) => n.via_api)).toEqual([true, true]);
  });

  it('rents, reads the status, extends and cancels a rent over the protocol; the ledger matches', async () => {
    // Rents get their SMS only when the test sends one.
    t = await createListeningTestApp({
      SIMULATOR_SMS_DELAY_MIN_MS: '3600000',
      SIMULATOR_SMS_DELAY_MAX_MS: '3600000',
    });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const { secret } = await createApiKey(t, user);
    const catalog = JSON.parse(
      (await protocolCall(t, secret, 'getRentServicesAndCountries', { country: 187, rent_time: 4 })).body,
    );
    const service = Object.keys(catalog.services)[0]!;
    const rented = JSON.parse(
      (await protocolCall(t, secret, 'getRentNumber', { service, country: 187, rent_time: 4 }, 'POST')).body,
    );
    expect(rented).toMatchObject({
      status: 'success',
      phone: { id: expect.any(Number), number: expect.any(String) },
    });
    const id = rented.phone.id;
    expect(JSON.parse((await protocolCall(t, secret, 'getRentStatus', { id })).body)).toEqual({
      status: 'error',
      message: 'STATUS_WAIT_CODE',
    });
    expect(JSON.parse((await protocolCall(t, secret, 'getRentList')).body).values['0']).toMatchObject({
      id: String(id),
    });
    const price = JSON.parse(
      (await protocolCall(t, secret, 'getContinueRentPriceNumber', { id, rent_time: 4 })).body,
    );
    expect(price).toMatchObject({ status: 'success', price: expect.any(Number) });
    const extended = JSON.parse(
      (await protocolCall(t, secret, 'continueRentNumber', { id, rent_time: 4 })).body,
    );
    expect(extended).toMatchObject({ status: 'success', phone: { id } });
    const cancel = JSON.parse((await protocolCall(t, secret, 'setRentStatus', { id, status: 2 })).body);
    expect(cancel).toEqual({ status: 'success' });
    expect(JSON.parse((await protocolCall(t, secret, 'getRentStatus', { id })).body).message).toBe(
      'STATUS_CANCEL',
    );
    // Cancelled within the window: the rent and its renewal are both refunded.
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000);

    // Another rent receives an SMS, shows it, and is finished (no refund).
    const next = JSON.parse((await protocolCall(t, secret, 'getRentNumber', { service, country: 187 })).body);
    const row = await t.ctx.rentals.findOwnById(user.id, next.phone.id);
    await simulatorControl(t, 'sms', { rentId: row!.providerRentId, text: 'Your code 7788' });
    await expect
      .poll(
        async () => JSON.parse((await protocolCall(t, secret, 'getRentStatus', { id: next.phone.id })).body),
        {
          timeout: 5000,
        },
      )
      .toMatchObject({ status: 'success', quantity: '1', values: { '0': { text: 'Your code 7788' } } });
    expect(
      JSON.parse((await protocolCall(t, secret, 'setRentStatus', { id: next.phone.id, status: 1 })).body),
    ).toEqual({
      status: 'success',
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000 - row!.priceCents);
  });
});

describe('finishing a number upstream when its order is done', () => {
  it('frees the number upstream on status 6, and a failing finish changes neither the order nor the money', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const { secret } = await createApiKey(t, user);
    const call = async (action: string, params: Record<string, string | number> = {}) =>
      (await protocolCall(t, secret, action, params)).body;
    const params = { service: protocolIds.serviceOf(offer.service), country: protocolIds.countryOf('GB') };
    const upstreamStatus = async (providerActivationId: string | null) =>
      (
        (await simulatorControl(t, 'state', { activationId: providerActivationId })) as {
          activation: { status: string };
        }
      ).activation.status;
    /** Buys a number and has the simulator deliver its code; returns our order id and the upstream's. */
    const withCode = async (code: string) => {
      const id = Number((await call('getNumber', params)).split(':')[1]);
      const order = await t.ctx.activations.find(user.id, id);
      await simulatorControl(t, 'sms', { activationId: order!.providerActivationId, code, text: code });
      await expect.poll(() => call('getStatus', { id }), { timeout: 5000 }).toBe(`STATUS_OK:${code}`);
      return { id, upstreamId: order!.providerActivationId };
    };

    const first = await withCode('1111');
    expect(await call('setStatus', { id: first.id, status: 6 })).toBe('ACCESS_ACTIVATION');
    expect(await upstreamStatus(first.upstreamId)).toBe('finished');

    const second = await withCode('2222');
    const paid = await balanceOf(t.ctx.database.db, user.id);
    expect(paid).toBe(1000 - 2 * offer.priceCents);
    await simulatorControl(t, 'fault', { action: 'setStatus', token: 'ERROR_SQL' });
    expect(await call('setStatus', { id: second.id, status: 6 })).toBe('ACCESS_ACTIVATION');
    expect((await t.ctx.activations.find(user.id, second.id))?.status).toBe('completed');
    expect(await upstreamStatus(second.upstreamId)).toBe('received');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid);

    // The sweep sees the completed order still listed upstream and finishes it (a waiting order keeps it running).
    await call('getNumber', params);
    await activationSync(t).run();
    expect(await upstreamStatus(second.upstreamId)).toBe('finished');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(paid - offer.priceCents);
  });
});

describe('the protocol refuses with its own tokens', () => {
  it('answers every error token for what causes it', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const other = await createUser(t);
    const offer = anOffer(t, 'GB');
    await fundUser(t.ctx.database, other.id, 1000);
    const { secret } = await createApiKey(t, user);
    const { secret: otherSecret } = await createApiKey(t, other);
    const service = protocolIds.serviceOf(offer.service);
    const gb = protocolIds.countryOf('GB');
    const call = async (action: string, params: Record<string, string | number> = {}, key = secret) =>
      (await protocolCall(t, key, action, params)).body;

    expect(await call('getBalance', {}, 'sc_not-a-key')).toBe('BAD_KEY');
    expect((await protocolCall(t, '', 'getBalance')).body).toBe('BAD_KEY');
    expect(await call('doSomething')).toBe('BAD_ACTION');
    expect(await call('getNumber', { service: 'zz9', country: gb })).toBe('BAD_SERVICE');
    expect(await call('getNumber', { service, country: 9999 })).toBe('BAD_COUNTRY');
    expect(await call('getNumber', { service, country: gb })).toBe('NO_BALANCE');
    expect(await call('getNumber', { service, country: gb, maxPrice: 0.001 }, otherSecret)).toBe(
      `WRONG_MAX_PRICE:${(offer.priceCents / 100).toFixed(2)}`,
    );
    expect(await call('getNumber', { service, country: gb, phoneException: '44x' }, otherSecret)).toBe(
      'WRONG_EXCEPTION_PHONE',
    );
    expect(await call('getStatus', { id: 999999 })).toBe('NO_ACTIVATION');
    expect(await call('getRentStatus', { id: 999999 })).toBe('{"status":"error","message":"INVALID_PHONE"}');

    const bought = await call('getNumber', { service, country: gb }, otherSecret);
    const id = Number(bought.split(':')[1]);
    // Another user's order id is unknown to this key.
    expect(await call('getStatus', { id })).toBe('NO_ACTIVATION');
    expect(await call('setStatus', { id, status: 8 })).toBe('NO_ACTIVATION');
    expect(await call('setStatus', { id, status: 8 }, otherSecret)).toBe('EARLY_CANCEL_DENIED');
    expect(await call('setStatus', { id, status: 42 }, otherSecret)).toBe('BAD_STATUS');
    expect(await call('setStatus', { id, status: 6 }, otherSecret)).toBe('BAD_STATUS');

    expect(await call('getNumber', { service, country: gb, operator: 'no_such_operator' }, otherSecret)).toBe(
      'NO_NUMBERS',
    );
    // A key's own price ceiling leaves it no number it may buy: NO_NUMBERS, as for an empty shelf.
    const { secret: thrifty } = await createApiKey(t, other, {
      max_price: Math.max(0.01, (offer.priceCents - 1) / 100),
    });
    expect(await call('getNumber', { service, country: gb }, thrifty)).toBe('NO_NUMBERS');
  });

  it('stops a revoked key at once', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const { id, secret } = await createApiKey(t, user);
    expect((await protocolCall(t, secret, 'getBalance')).body).toBe('ACCESS_BALANCE:0.00');
    const revoked = await t.app.inject({
      method: 'POST',
      url: `/api/dashboard/api-keys/${id}/revoke`,
      headers: user.headers,
    });
    expect(revoked.statusCode).toBe(200);
    expect((await protocolCall(t, secret, 'getBalance')).body).toBe('BAD_KEY');
  });

  it('refuses calls outside the allow-list and writes it in the key log', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const { id, secret } = await createApiKey(t, user, { allowed_ips: ['203.0.113.0/24'] });
    expect((await protocolCall(t, secret, 'getBalance')).body).toBe('BAD_KEY');
    const log = (
      await t.app.inject({ url: `/api/dashboard/api-keys/${id}/log`, headers: user.headers })
    ).json();
    expect(log.events[0]).toMatchObject({ kind: 'ip_refused' });
  });

  it('writes one allow-list refusal note per window, however often the key is refused in it', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const { id, secret } = await createApiKey(t, user, { allowed_ips: ['203.0.113.0/24'] });
    const notes = async () =>
      (await t.ctx.database.db.select().from(apiKeyEvents).where(eq(apiKeyEvents.apiKeyId, id))).filter(
        (note) => note.kind === 'ip_refused',
      );
    for (let call = 0; call < 5; call += 1)
      expect((await protocolCall(t, secret, 'getBalance')).body).toBe('BAD_KEY');
    t.clock.advance(NOTE_COALESCE_MS - 1000);
    expect((await protocolCall(t, secret, 'getBalance')).body).toBe('BAD_KEY');
    expect(await notes()).toHaveLength(1);

    t.clock.advance(1000);
    expect((await protocolCall(t, secret, 'getBalance')).body).toBe('BAD_KEY');
    expect(await notes()).toHaveLength(2);
  });

  it('limits calls per key with the protocol refusal: HTTP 200, BANNED until a time, and Retry-After', async () => {
    t = await createListeningTestApp({ RATE_LIMIT_API_KEY_PER_MINUTE: '3' });
    const user = await createUser(t);
    const { secret } = await createApiKey(t, user);
    for (let i = 0; i < 3; i += 1)
      expect((await protocolCall(t, secret, 'getBalance')).body).toMatch(/^ACCESS_BALANCE/);
    const refused = await protocolCall(t, secret, 'getBalance');
    expect(refused.status).toBe(200);
    expect(refused.body).toMatch(/^BANNED:'\d{4}-\d{1,2}-\d{1,2} \d\d-\d\d-\d\d'$/);
    const retryAfterS = Number(refused.headers.get('retry-after'));
    expect(retryAfterS).toBeGreaterThan(0);
    expect(retryAfterS).toBeLessThanOrEqual(60);
    // The unmodified client raises the ban exception it has for it.
    await expect(client(secret).getBalance()).rejects.toMatchObject({
      name: 'BannedUser',
      message: expect.stringMatching(/^Banned until '\d{4}-\d{1,2}-\d{1,2} \d\d-\d\d-\d\d'$/),
    });
  });

  it('refuses a purchase over the daily cap with NO_BALANCE and names the cap in the key log', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t, 'GB');
    await fundUser(t.ctx.database, user.id, 10_000);
    const cap = (offer.priceCents * 2 - 1) / 100;
    const { id, secret } = await createApiKey(t, user, { daily_cap: cap });
    const params = { service: protocolIds.serviceOf(offer.service), country: protocolIds.countryOf('GB') };
    expect((await protocolCall(t, secret, 'getNumber', params)).body).toMatch(/^ACCESS_NUMBER:/);
    expect((await protocolCall(t, secret, 'getNumber', params)).body).toBe('NO_BALANCE');
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(10_000 - offer.priceCents);
    const log = (
      await t.app.inject({ url: `/api/dashboard/api-keys/${id}/log`, headers: user.headers })
    ).json();
    expect(log.events[0]).toMatchObject({
      kind: 'cap_refused',
      detail: expect.stringContaining('Daily cap'),
    });
  });

  it('never lets parallel purchases exceed a spending cap', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    const offer = anOffer(t, 'GB');
    const params = { service: protocolIds.serviceOf(offer.service), country: protocolIds.countryOf('GB') };
    await assertParallelBuysKeepToCap(t, user, {
      priceCents: offer.priceCents,
      fits: 5,
      attempts: 24,
      buy: async (secret) => {
        const { body } = await protocolCall(t, secret, 'getNumber', params);
        if (body.startsWith('ACCESS_NUMBER:')) return true;
        expect(body).toBe('NO_BALANCE');
        return false;
      },
    });
  });
});
