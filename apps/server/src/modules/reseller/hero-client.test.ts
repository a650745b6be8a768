import type { ResponseStyle } from '@simcode/sms-activate-protocol';
import { protocolIds } from '@simcode/sms-activate-protocol';
import { BannedError, HeroSMSClient, NoNumbersError } from 'hero-sms';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { assertLedgerInvariant, fundUser } from '../../../test/support/money';
import { createApiKey, protocolCall, protocolUrl } from '../../../test/support/reseller';
import { anOffer, createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { createUser } from '../../../test/support/users';
import { balanceOf } from '../accounts/ledger';

let t: TestApp;
afterEach(async () => {
  if (t) {
    await assertLedgerInvariant(t.ctx.database);
    await closeTestApp(t);
  }
});

/** The real npm client `hero-sms` (2.0.0), unmodified, with its documented `baseUrl` option pointed at us. */
function hero(secret: string, style: ResponseStyle = 'classic'): HeroSMSClient {
  return new HeroSMSClient({ apiKey: secret, baseUrl: protocolUrl(t, style) });
}

/** What a call threw: the client's own error class, or its HTTP library's error for a non-2xx answer. */
async function thrown(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const failure = error as Error & {
      isAxiosError?: boolean;
      response?: { status: number; data: unknown; headers: Record<string, string> };
    };
    return failure;
  }
  throw new Error('the call did not fail');
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;

describe('the SMS-Activate protocol through the npm client hero-sms', () => {
  it('buys with getNumberV2, reads the code, asks for another SMS, finishes and cancels; lists both keys', async () => {
    t = await createListeningTestApp({ SIMULATOR_EARLY_CANCEL_MS: '0' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const service = protocolIds.serviceOf(offer.service);
    const { secret } = await createApiKey(t, user);
    const client = hero(secret);

    expect(await client.getBalance()).toBe(10);
    const bought = await client.getNumberV2({ service, country: 16 });
    // SMS-Activate's fields, and the ones Hero added, with the times' zone.
    expect(bought).toMatchObject({
      activationId: expect.stringMatching(/^\d+$/),
      phoneNumber: expect.stringMatching(/^44\d{10}$/),
      activationCost: (offer.priceCents / 100).toFixed(2),
      currency: 840,
      countryCode: '16',
      countryPhoneCode: '44',
      canGetAnotherSms: '1',
      activationTime: expect.stringMatching(RFC3339),
      activationEndTime: expect.stringMatching(RFC3339),
      activationOperator: 'any',
      verificationType: 'sms',
      serviceCode: service,
      subtype: '1',
    });
    const id = Number(bought.activationId);
    const order = await t.ctx.activations.find(user.id, id);
    expect(await client.getStatus(id)).toEqual({ status: 'STATUS_WAIT_CODE' });

    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '48213',
      text: 'Code 48213',
    });
    await expect
      .poll(() => client.getStatus(id), { timeout: 5000 })
      .toEqual({ status: 'STATUS_OK', code: '48213' });
    expect(await client.requestResend(id)).toBe('ACCESS_RETRY_GET');
    expect(await client.getStatus(id)).toEqual({ status: 'STATUS_WAIT_RETRY', code: '48213' });
    const active = (await client.getActiveActivations()) as unknown as {
      data: Array<Record<string, unknown>>;
      activeActivations: Array<Record<string, unknown>>;
    };
    expect(active.data).toEqual(active.activeActivations);
    expect(active.data).toEqual([
      expect.objectContaining({ activationId: String(id), smsCode: '48213', canGetAnotherSms: '1' }),
    ]);
    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '55120',
      text: 'Code 55120',
    });
    await expect
      .poll(() => client.getStatus(id), { timeout: 5000 })
      .toEqual({ status: 'STATUS_OK', code: '55120' });
    expect(await client.complete(id)).toBe('ACCESS_ACTIVATION');
    expect((await t.ctx.activations.find(user.id, id))?.status).toBe('completed');

    const second = await client.getNumber({ service, country: 16 });
    expect(await client.cancel(second.activationId)).toBe('ACCESS_CANCEL');
    expect(await client.getStatus(second.activationId)).toEqual({ status: 'STATUS_CANCEL' });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);
  });

  it('speaks Hero-SMS at /hero: numbers as numbers, 204 for finish and cancel, errors with HTTP statuses', async () => {
    t = await createListeningTestApp({ SIMULATOR_EARLY_CANCEL_MS: '0' });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 1000);
    const offer = anOffer(t, 'GB');
    const service = protocolIds.serviceOf(offer.service);
    const { secret } = await createApiKey(t, user);
    const client = hero(secret, 'hero');

    const bought = await client.getNumberV2({ service, country: 16 });
    expect(bought).toMatchObject({
      activationId: expect.any(Number),
      activationCost: offer.priceCents / 100,
      countryCode: 16,
      countryPhoneCode: 44,
      canGetAnotherSms: true,
      activationTime: expect.stringMatching(RFC3339),
      subtype: 1,
      status: 4,
    });
    const id = Number(bought.activationId);
    const order = await t.ctx.activations.find(user.id, id);
    await simulatorControl(t, 'sms', {
      activationId: order!.providerActivationId,
      code: '7731',
      text: 'Code 7731',
    });
    await expect
      .poll(() => client.getStatus(id), { timeout: 5000 })
      .toEqual({ status: 'STATUS_OK', code: '7731' });
    expect(await client.getStatusV2(id)).toMatchObject({
      verificationType: 'sms',
      data: {
        id,
        code: '7731',
        text: 'Code 7731',
        service,
        type: 'sms',
        date: expect.stringMatching(RFC3339),
      },
    });
    // Hero's finishActivation and cancelActivation answer 204 with no body; the client returns nothing.
    await expect(client.finishActivation(String(id))).resolves.toBeUndefined();
    expect((await t.ctx.activations.find(user.id, id))?.status).toBe('completed');
    const second = await client.getNumber({ service, country: 16 });
    await expect(client.cancelActivation(String(second.activationId))).resolves.toBeUndefined();
    expect((await t.ctx.activations.find(user.id, second.activationId))?.status).toBe('canceled');

    // An empty shelf on a buy is Hero's HTTP 200 text, which the client raises as its own error.
    expect(
      await thrown(client.getNumber({ service, country: 16, operator: 'no_such_operator' })),
    ).toBeInstanceOf(NoNumbersError);
    // Every other refusal is an HTTP status with {title, details, info}: the client's HTTP library throws.
    const missing = await thrown(client.getStatus(999_999));
    expect(missing.isAxiosError).toBe(true);
    expect(missing.response).toMatchObject({ status: 404, data: { title: 'NOT_FOUND' } });
    const poor = await thrown(
      hero((await createApiKey(t, await createUser(t))).secret, 'hero').getNumber({ service, country: 16 }),
    );
    expect(poor.response).toMatchObject({
      status: 402,
      data: { title: 'NO_BALANCE', details: 'Payment Required' },
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(1000 - offer.priceCents);
  });

  it('backs off when banned: the client’s BannedError on the classic path, Hero’s 403 on its own, Retry-After on both', async () => {
    t = await createListeningTestApp({ RATE_LIMIT_API_KEY_PER_MINUTE: '2' });
    const user = await createUser(t);
    const classic = hero((await createApiKey(t, user)).secret);
    const heroStyle = hero((await createApiKey(t, user)).secret, 'hero');
    for (const client of [classic, heroStyle])
      for (let i = 0; i < 2; i += 1) expect(await client.getBalance()).toBe(0);

    const banned = await thrown(classic.getBalance());
    expect(banned).toBeInstanceOf(BannedError);
    expect((banned as BannedError).bannedUntil).toMatch(/^'\d{4}-\d{1,2}-\d{1,2} \d\d-\d\d-\d\d'$/);

    // Hero answers a ban with 403 and its JSON: this client's HTTP library throws before the client reads it.
    const heroBanned = await thrown(heroStyle.getBalance());
    expect(heroBanned.isAxiosError).toBe(true);
    const answer = heroBanned.response!;
    expect(answer.status).toBe(403);
    expect(answer.data).toMatchObject({
      title: 'BANNED',
      info: {
        scope: 'global',
        banned_until: expect.any(Number),
        readable_date: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    });
    const retryAfterS = Number(answer.headers['retry-after']);
    expect(retryAfterS).toBeGreaterThan(0);
    expect(retryAfterS).toBeLessThanOrEqual(60);
    expect(answer.data).toMatchObject({ info: { retry_after_seconds: retryAfterS } });
  });

  it('pages through the history by time window, offset and size', async () => {
    t = await createListeningTestApp();
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 10_000);
    const offer = anOffer(t, 'GB');
    const service = protocolIds.serviceOf(offer.service);
    const { secret } = await createApiKey(t, user);
    const client = hero(secret);
    const ids: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      ids.push((await client.getNumber({ service, country: 16 })).activationId);
      t.clock.advance(10_000);
    }
    const newestFirst = [...ids].reverse();
    const idsOf = (items: Array<{ id: string | number }>) => items.map((item) => Number(item.id));

    expect(idsOf(await client.getHistory({ offset: 0, size: 2 }))).toEqual(newestFirst.slice(0, 2));
    expect(idsOf(await client.getHistory({ offset: 2, size: 2 }))).toEqual(newestFirst.slice(2, 4));
    expect(idsOf(await client.getHistory({ offset: 4, size: 2 }))).toEqual(newestFirst.slice(4));
    expect(await client.getHistory({ offset: 6, size: 2 })).toEqual([]);
    // Bought between the second and the fourth purchase (Unix seconds, both ends included).
    const boughtAtS = async (id: number) =>
      Math.floor((await t.ctx.activations.find(user.id, id))!.createdAt.getTime() / 1000);
    const window = { start: await boughtAtS(ids[1]!), end: await boughtAtS(ids[3]!) };
    expect(idsOf(await client.getHistory(window))).toEqual([ids[3], ids[2], ids[1]]);
    expect(idsOf(await client.getHistory({ ...window, offset: 1, size: 1 }))).toEqual([ids[2]]);
    // The same pages in SMS-Activate's form, which calls the size `limit`.
    const classicPage = JSON.parse(
      (await protocolCall(t, secret, 'getHistory', { offset: 1, limit: 2 })).body,
    ) as Array<{ id: number; status: string; sms: null }>;
    expect(classicPage).toEqual(
      newestFirst.slice(1, 3).map((id) => expect.objectContaining({ id, status: '4', sms: null })),
    );
  });

  it('rents with Hero’s duration and reads getNumberV2’s object back; reads the rent’s SMS a page at a time', async () => {
    t = await createListeningTestApp({
      SIMULATOR_SMS_DELAY_MIN_MS: '3600000',
      SIMULATOR_SMS_DELAY_MAX_MS: '3600000',
    });
    const user = await createUser(t);
    await fundUser(t.ctx.database, user.id, 100_000);
    const { secret } = await createApiKey(t, user);
    const client = hero(secret, 'hero');

    const catalog = (await client.getRentServicesAndCountries({ country: 187, duration: 4 })) as unknown as {
      services: Record<string, { quantity: number; price: number; retail_price: number }>;
    };
    const [service, offer] = Object.entries(catalog.services)[0]!;
    expect(offer).toMatchObject({
      quantity: expect.any(Number),
      price: expect.any(Number),
      retail_price: offer.price,
    });
    const rented = (await client.getRentNumber({ service, country: 187, duration: 4 })) as unknown as Record<
      string,
      unknown
    >;
    expect(rented).toMatchObject({
      activationId: expect.any(Number),
      phoneNumber: expect.stringMatching(/^1\d{10}$/),
      activationCost: offer.price,
      countryCode: 187,
      countryPhoneCode: 1,
      serviceCode: service,
      subtype: 2,
      activationEndTime: expect.stringMatching(RFC3339),
    });
    const id = rented.activationId as number;
    const row = await t.ctx.rentals.findOwnById(user.id, id);
    expect(row?.hours).toBe(4);
    for (const text of ['first 1111', 'second 2222', 'third 3333']) {
      await simulatorControl(t, 'sms', { rentId: row!.providerRentId, text });
      t.clock.advance(1000);
    }
    const page = async (params: Record<string, number>) =>
      JSON.parse((await protocolCall(t, secret, 'getRentStatus', { id, ...params }, 'GET', 'hero')).body);
    await expect.poll(async () => (await page({ page: 1, size: 2 })).quantity, { timeout: 5000 }).toBe(3);
    expect(await page({ page: 1, size: 2 })).toMatchObject({
      status: 'success',
      quantity: 3,
      service,
      currency: 840,
      values: [{ text: 'third 3333' }, { text: 'second 2222' }],
    });
    expect((await page({ page: 2, size: 2 })).values).toEqual([
      expect.objectContaining({ text: 'first 1111' }),
    ]);
    // Without a page, the classic answer lists every SMS, keyed by position.
    const classic = JSON.parse((await protocolCall(t, secret, 'getRentStatus', { id })).body);
    expect(classic).toMatchObject({
      status: 'success',
      quantity: '3',
      values: { '2': { text: 'first 1111' } },
    });
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(100_000 - row!.priceCents);
  });
});
