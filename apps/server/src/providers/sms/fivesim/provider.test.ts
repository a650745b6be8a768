import { SIMULATOR_KEY, type SimulatorHarness, startSimulator } from '@simcode/stand-ins/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnswer,
  type RecordedRequest,
  startFakeUpstream,
} from '../../../../test/support/fake-upstream';
import { createFiveSimProvider } from './provider';

type Fake = Awaited<ReturnType<typeof startFakeUpstream>>;
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const json = (value: unknown, status = 200): FakeAnswer => ({
  status,
  body: JSON.stringify(value),
  contentType: 'application/json',
});
const sentence = (text: string, status = 400): FakeAnswer => ({ status, body: text });

const COUNTRIES = {
  usa: {
    iso: { us: 1 },
    prefix: { '+1': 1 },
    text_en: 'USA',
    virtual21: { activation: 1 },
    virtual4: { activation: 1 },
  },
  england: { iso: { gb: 1 }, prefix: { '+44': 1 }, text_en: 'England', virtual21: { activation: 1 } },
};
const PRICES = {
  usa: {
    telegram: { virtual21: { cost: 0.3, count: 120, rate: 99 }, virtual4: { cost: 0.2, count: 5, rate: 80 } },
    // One entry of the wrong shape: it is skipped, not fatal.
    whatsapp: { virtual21: { cost: null, count: 3 }, virtual4: { cost: 0.5, count: 0 } },
    somethingnew: { virtual21: { cost: 1, count: 1 } },
  },
  england: { google: { virtual21: { cost: 0.4, count: 7, rate: 90 } } },
};
const ORDER = {
  id: 53533933,
  phone: '+12025550143',
  operator: 'virtual21',
  product: 'telegram',
  price: 0.3,
  status: 'RECEIVED',
  expires: '2026-11-25T12:15:00Z',
  sms: null,
  created_at: '2026-11-25T12:00:00Z',
  forwarding: false,
  forwarding_number: '',
  country: 'usa',
};

/** A 5sim that answers like the real one; `override` takes a request first when it returns an answer. */
async function startFiveSim(
  override?: (request: RecordedRequest) => FakeAnswer | 'hang' | 'reset' | undefined,
) {
  fake = await startFakeUpstream((request) => {
    const forced = override?.(request);
    if (forced) return forced;
    if (request.path === '/v1/guest/countries') return json(COUNTRIES);
    if (request.path === '/v1/guest/prices') return json(PRICES);
    if (request.authorization !== 'Bearer token-1') return { status: 401, body: '' };
    if (request.path.startsWith('/v1/user/buy/activation/')) return json(ORDER);
    if (request.path === '/v1/user/check/53533933')
      return json({
        ...ORDER,
        sms: [{ created_at: ORDER.created_at, sender: 'Telegram', text: 'Code 12345', code: '12345' }],
      });
    if (/^\/v1\/user\/(cancel|finish|ban)\//.test(request.path))
      return json({ ...ORDER, status: 'CANCELED' });
    if (request.path === '/v1/user/orders')
      return json({ Data: [ORDER, { ...ORDER, id: 1, status: 'FINISHED' }], Total: 2 });
    return sentence('record not found', 404);
  });
  return createFiveSimProvider({
    name: 'five',
    baseUrl: `${fake.origin}/v1`,
    token: 'token-1',
    timeoutMs: 500,
  });
}

describe('5sim adapter over HTTP', () => {
  it('reads the catalog per entry: countries by ISO code, each operator’s price, the cheapest with stock for any, stock summed', async () => {
    const provider = await startFiveSim();
    const catalog = await provider.getCatalog();
    expect(catalog.countries).toEqual([
      { countryId: 'US', operators: ['virtual21', 'virtual4'], rentSupported: false },
      { countryId: 'GB', operators: ['virtual21'], rentSupported: false },
    ]);
    expect(catalog.offers).toEqual([
      {
        countryId: 'US',
        service: 'tg',
        cost: 0.2,
        stock: 125,
        byOperator: { virtual21: { cost: 0.3, stock: 120 }, virtual4: { cost: 0.2, stock: 5 } },
      },
      {
        countryId: 'GB',
        service: 'go',
        cost: 0.4,
        stock: 7,
        byOperator: { virtual21: { cost: 0.4, stock: 7 } },
      },
    ]);
  });

  it('buys with the bearer token, by 5sim names, with maxPrice only for any operator; reads, ends and bans orders', async () => {
    const provider = await startFiveSim();
    const bought = await provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 0.3 });
    expect(bought).toMatchObject({ activationId: '53533933', phoneNumber: '12025550143', cost: 0.3 });
    const buy = fake!.requests.find((request) => request.path.startsWith('/v1/user/buy/'))!;
    expect(buy.path).toBe('/v1/user/buy/activation/usa/any/telegram');
    expect(buy.params.get('maxPrice')).toBe('0.3');
    expect(buy.authorization).toBe('Bearer token-1');

    await provider.buyActivation({ service: 'tg', countryId: 'US', operator: 'virtual4', maxPrice: 0.3 });
    const second = fake!.requests.filter((request) => request.path.startsWith('/v1/user/buy/'))[1]!;
    expect(second.path).toBe('/v1/user/buy/activation/usa/virtual4/telegram');
    expect(second.params.has('maxPrice')).toBe(false);

    expect(await provider.getActivationState('53533933')).toEqual({
      kind: 'code',
      code: '12345',
      text: 'Code 12345',
    });
    await provider.cancelActivation('53533933');
    await provider.finishActivation('53533933');
    await provider.banActivation!('53533933');
    expect(fake!.requests.map((request) => request.path)).toEqual(
      expect.arrayContaining([
        '/v1/user/cancel/53533933',
        '/v1/user/finish/53533933',
        '/v1/user/ban/53533933',
      ]),
    );
    // 5sim has no "another SMS": the capability is absent rather than faked.
    expect(provider.requestAnotherSms).toBeUndefined();

    const page = await provider.listActiveActivations(0);
    expect(page).toMatchObject({
      hasMore: false,
      items: [{ activationId: '53533933', service: 'tg', countryId: 'US' }],
    });
  });

  it.each([
    ['no free phones', 400, 'no_numbers', false],
    ['no free phones', 200, 'no_numbers', false],
    ['not enough user balance', 400, 'no_balance', false],
    ['not enough rating', 400, 'account_blocked', false],
    ['bad country', 400, 'bad_request', false],
    ['select operator', 400, 'bad_request', false],
    ['no product', 400, 'bad_request', false],
    ['server offline', 400, 'provider_error', true],
    ['internal error', 400, 'provider_error', true],
    ['a sentence nobody documented', 400, 'bad_request', false],
  ] as const)(
    'reads "%s" (HTTP %i) on a buy as %s, outcome unknown: %s',
    async (text, status, kind, unknown) => {
      const provider = await startFiveSim((request) =>
        request.path.startsWith('/v1/user/buy/') ? sentence(text, status) : undefined,
      );
      await expect(
        provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 1 }),
      ).rejects.toMatchObject({
        kind,
        outcomeUnknown: unknown,
      });
    },
  );

  it.each([
    ['order not found', 'not_found'],
    ['order has sms', 'cannot_cancel'],
    ['you need to wait time', 'early_cancel_denied'],
  ] as const)('reads "%s" on a cancel as %s', async (text, kind) => {
    const provider = await startFiveSim((request) =>
      request.path.startsWith('/v1/user/cancel/') ? sentence(text) : undefined,
    );
    await expect(provider.cancelActivation('1')).rejects.toMatchObject({ kind, outcomeUnknown: false });
  });

  it.each([
    ['a timeout', 'hang' as const, 'unavailable'],
    ['a dropped connection', 'reset' as const, 'unavailable'],
    [
      'an HTML 502',
      { status: 502, body: '<html><body>502 Bad Gateway</body></html>', contentType: 'text/html' },
      'unavailable',
    ],
    ['garbage', { status: 200, body: '{"id":5353', contentType: 'application/json' }, 'unavailable'],
    ['a 500 with JSON', json({ error: 'boom' }, 500), 'provider_error'],
    ['an order of the wrong shape', json({ id: 1 }), 'provider_error'],
  ])('takes %s on a buy as an unknown outcome', async (_label, answer, kind) => {
    const provider = await startFiveSim((request) =>
      request.path.startsWith('/v1/user/buy/') ? answer : undefined,
    );
    await expect(
      provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 1 }),
    ).rejects.toMatchObject({
      kind,
      outcomeUnknown: true,
    });
  });

  it('tells a bad token and a rate limit from an outage: refusals, not unknown outcomes', async () => {
    const limited = await startFiveSim((request) =>
      request.path.startsWith('/v1/user/buy/')
        ? { status: 429, body: 'api limit is 100 requests per second' }
        : undefined,
    );
    await expect(
      limited.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 1 }),
    ).rejects.toMatchObject({
      kind: 'provider_error',
      outcomeUnknown: false,
    });
    await fake!.close();
    fake = undefined;
    await startFiveSim();
    const wrongToken = createFiveSimProvider({
      baseUrl: `${fake!.origin}/v1`,
      token: 'wrong',
      timeoutMs: 500,
    });
    await expect(
      wrongToken.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 1 }),
    ).rejects.toMatchObject({
      kind: 'configuration',
      outcomeUnknown: false,
    });
  });

  it('refuses a country or a service 5sim does not sell before asking it to buy', async () => {
    const provider = await startFiveSim();
    await expect(
      provider.buyActivation({ service: 'tg', countryId: 'ZZ', maxPrice: 1 }),
    ).rejects.toMatchObject({
      kind: 'bad_request',
    });
    await expect(
      provider.buyActivation({ service: 'xx', countryId: 'US', maxPrice: 1 }),
    ).rejects.toMatchObject({
      kind: 'bad_request',
    });
    expect(fake!.requests.some((request) => request.path.startsWith('/v1/user/buy/'))).toBe(false);
  });
});

describe('5sim adapter against the simulator speaking 5sim', () => {
  let harness: SimulatorHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  async function start() {
    harness = await startSimulator({ protocol: 'fivesim', earlyCancelMs: 60_000 });
    return createFiveSimProvider({
      name: 'sim-b',
      baseUrl: `${harness.origin}/simulator/v1`,
      token: SIMULATOR_KEY,
      timeoutMs: 1000,
    });
  }

  it('sells, delivers, cancels and finishes through the whole protocol', async () => {
    const provider = await start();
    const catalog = await provider.getCatalog();
    const offer = catalog.offers.find((entry) => entry.countryId === 'US' && entry.service === 'tg')!;
    expect(offer.stock).toBeGreaterThan(0);
    expect(catalog.countries.find((country) => country.countryId === 'US')?.operators).toContain('tmobile');

    const bought = await provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: offer.cost });
    expect(bought.phoneNumber).toMatch(/^1\d{10}$/);
    expect(await provider.getActivationState(bought.activationId)).toEqual({ kind: 'waiting' });
    // Too early to cancel, as 5sim says it.
    await expect(provider.cancelActivation(bought.activationId)).rejects.toMatchObject({
      kind: 'early_cancel_denied',
    });
    // 5sim finishes only an order that has its SMS.
    await expect(provider.finishActivation(bought.activationId)).rejects.toMatchObject({
      kind: 'bad_request',
      token: 'order no sms',
    });
    await harness!.control('sms', { activationId: bought.activationId, code: '246810', text: 'Code 246810' });
    expect(await provider.getActivationState(bought.activationId)).toMatchObject({
      kind: 'code',
      code: '246810',
    });
    const listed = await provider.listActiveActivations(0);
    expect(listed.items).toEqual([
      expect.objectContaining({
        activationId: bought.activationId,
        service: 'tg',
        countryId: 'US',
        codes: ['246810'],
      }),
    ]);
    await provider.finishActivation(bought.activationId);
    expect(await provider.getActivationState(bought.activationId)).toEqual({ kind: 'finished' });
    expect((await provider.listActiveActivations(0)).items).toEqual([]);

    // Below the price there is nothing to sell; an unknown order is not found.
    await expect(
      provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: offer.cost / 10 }),
    ).rejects.toMatchObject({ kind: 'no_numbers' });
    await expect(provider.getActivationState('1')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('injects its faults per route: a refusal sentence, an HTML page, no answer', async () => {
    const provider = await start();
    await harness!.control('fault', { action: 'buy', token: 'NO_NUMBERS' });
    await expect(
      provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 100 }),
    ).rejects.toMatchObject({
      kind: 'no_numbers',
      outcomeUnknown: false,
    });
    await harness!.control('fault', { action: 'buy', broken: 'html502' });
    await expect(
      provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 100 }),
    ).rejects.toMatchObject({
      kind: 'unavailable',
      outcomeUnknown: true,
    });
    await harness!.control('fault', { action: 'check', broken: 'garbage' });
    await expect(provider.getActivationState('1')).rejects.toMatchObject({ kind: 'unavailable' });
    const bought = await provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 100 });
    expect(bought.activationId).toMatch(/^\d+$/);
  });
});
