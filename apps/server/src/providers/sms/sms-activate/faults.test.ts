import { afterEach, describe, expect, it } from 'vitest';
import {
  type FakeAnswer,
  type RecordedRequest,
  startFakeUpstream,
} from '../../../../test/support/fake-upstream';
import type { SmsLogger } from '../logger';
import { UpstreamError, type UpstreamErrorKind } from '../types';
import { createSmsActivateProvider, type SmsActivateProviderOptions } from '.';

const API_KEY = 'secret-upstream-key';
type Fake = Awaited<ReturnType<typeof startFakeUpstream>>;
let fake: Fake | undefined;

afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function upstreamWith(
  answer: (request: RecordedRequest) => FakeAnswer | 'hang' | 'reset',
  options: Partial<SmsActivateProviderOptions> = {},
) {
  fake = await startFakeUpstream(answer);
  const provider = createSmsActivateProvider({
    baseUrl: fake.url,
    apiKey: API_KEY,
    timeoutMs: 300,
    retryBackoffMs: 1,
    ...options,
  });
  return { provider, fake };
}

const text = (body: string, status = 200): FakeAnswer => ({ body, status });
const json = (value: unknown, status = 200): FakeAnswer => ({
  body: JSON.stringify(value),
  status,
  contentType: 'application/json',
});
const heroError = (title: string, status: number, info?: unknown) =>
  json({ title, details: title, info }, status);

async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

const buy = (provider: ReturnType<typeof createSmsActivateProvider>) =>
  provider.buyActivation({ service: 'tg', countryId: 'US', operator: 'any', maxPrice: 0.025 });

describe('reading answers', () => {
  it.each([
    ['STATUS_WAIT_CODE', { kind: 'waiting' }],
    ['"STATUS_WAIT_CODE"', { kind: 'waiting' }],
    ["'STATUS_OK:1234'", { kind: 'code', code: '1234' }],
    ['\uFEFF  STATUS_OK:12:34 \r\n', { kind: 'code', code: '12:34' }],
    ['STATUS_WAIT_RETRY:5555', { kind: 'waiting_retry', lastCode: '5555' }],
    ['STATUS_WAIT_RESEND', { kind: 'waiting' }],
    ['STATUS_CANCEL', { kind: 'cancelled' }],
  ])('reads %j', async (body, state) => {
    const { provider } = await upstreamWith(() => text(body));
    expect(await provider.getActivationState('1')).toEqual(state);
  });

  it('sends the buy as SMS-Activate clients do and reads getNumberV2', async () => {
    const { provider } = await upstreamWith(() =>
      json({
        activationId: 635468024,
        phoneNumber: '+1 (917) 555-0123',
        activationCost: '0.0480',
        activationEndTime: '2026-02-18T16:31:33+00:00',
      }),
    );
    expect(await buy(provider)).toEqual({
      activationId: '635468024',
      phoneNumber: '19175550123',
      cost: 0.048,
      expiresAt: new Date('2026-02-18T16:31:33Z'),
    });
    const sent = fake!.requests[0]!.params;
    expect(Object.fromEntries(sent)).toEqual({
      api_key: API_KEY,
      action: 'getNumberV2',
      service: 'tg',
      country: '187',
      maxPrice: '0.025',
    });
  });

  it('falls back to getNumber when getNumberV2 is unknown', async () => {
    const { provider, fake } = await upstreamWith(({ action }) =>
      action === 'getNumberV2' ? text('BAD_ACTION') : text('ACCESS_NUMBER:123:79991234567'),
    );
    expect(
      await provider.buyActivation({ service: 'wa', countryId: 'RU', operator: 'mts', maxPrice: 1 }),
    ).toEqual({
      activationId: '123',
      phoneNumber: '79991234567',
    });
    expect(fake.requests.map((request) => request.action)).toEqual(['getNumberV2', 'getNumber']);
    expect(fake.requests[1]!.params.get('operator')).toBe('mts');
    expect(fake.requests[1]!.params.get('country')).toBe('0');
  });

  it('reads getStatusV2 in the SMS-Activate shape, and falls back to getStatus where it is unknown', async () => {
    const withV2 = await upstreamWith(() =>
      json({
        verificationType: 0,
        sms: { dateTime: '2024-11-24 15:30:00', code: '123456', text: 'Your code: 123456' },
        call: null,
      }),
    );
    expect(await withV2.provider.getActivationStateWithText!('77')).toEqual({
      kind: 'code',
      code: '123456',
      text: 'Your code: 123456',
    });
    await withV2.fake.close();

    const { provider, fake } = await upstreamWith(({ action }) =>
      action === 'getStatusV2' ? text('BAD_ACTION') : text('STATUS_OK:5512'),
    );
    expect(await provider.getActivationStateWithText!('77')).toEqual({ kind: 'code', code: '5512' });
    expect(fake.requests.map((request) => request.action)).toEqual(['getStatusV2', 'getStatus']);
  });

  it("accepts every 'done' answer of setStatus, Hero's empty 204 included", async () => {
    const answers = [
      text('ACCESS_CANCEL'),
      text('ACCESS_ACTIVATION'),
      text('ACCESS_RETRY_GET'),
      { status: 204 },
    ];
    const { provider, fake } = await upstreamWith(() => answers.shift() ?? text('ACCESS_READY'));
    await provider.cancelActivation('1');
    await provider.finishActivation('1');
    await provider.requestAnotherSms('1');
    await provider.finishActivation('1');
    expect(fake.requests.map((request) => request.params.get('status'))).toEqual(['8', '6', '3', '6']);
  });

  it.each([
    ['NO_ACTIVATIONS', json({ status: 'error', error: 'NO_ACTIVATIONS' })],
    [
      "Hero's empty answer",
      json({
        status: 'success',
        data: [],
        activeActivations: { affected_rows: 0, num_rows: 0, row: [], rows: [] },
      }),
    ],
  ])('reads %s as no active activations', async (_name, answer) => {
    const { provider } = await upstreamWith(() => answer);
    expect(await provider.listActiveActivations(0)).toEqual({ items: [], hasMore: false });
  });

  it('reads active activations under activeActivations.rows and data, with zone-less dates as UTC', async () => {
    const item = {
      activationId: '9',
      serviceCode: 'go',
      phoneNumber: '447700900123',
      activationStatus: '2',
      smsCode: ['111111', '222222'],
      smsText: 'G-222222 is your Google verification code.',
      activationTime: '2022-06-01 16:59:16',
      countryCode: '16',
    };
    const answers = [
      json({ status: 'success', activeActivations: { rows: [item] } }),
      json({ status: 'success', data: [{ ...item, countryCode: 999 }] }),
    ];
    const { provider, fake } = await upstreamWith(() => answers.shift()!);
    const expected = {
      activationId: '9',
      phoneNumber: '447700900123',
      service: 'go',
      countryId: 'GB',
      state: { kind: 'code', code: '222222', text: item.smsText },
      codes: ['111111', '222222'],
      smsText: item.smsText,
      activatedAt: new Date('2022-06-01T16:59:16Z'),
    };
    expect((await provider.listActiveActivations(0)).items).toEqual([expected]);
    expect((await provider.listActiveActivations(2)).items).toEqual([{ ...expected, countryId: null }]);
    expect(fake.requests.map((request) => request.params.get('start'))).toEqual(['0', '200']);
    expect(fake.requests[0]!.params.get('limit')).toBe('100');
  });

  it("reads zone-less dates in the provider's time zone when it has one, and dates with a zone as they are", async () => {
    const item = { activationId: '9', serviceCode: 'go', phoneNumber: '447700900123', countryCode: '16' };
    const answers = [
      json({ status: 'success', activeActivations: [{ ...item, activationTime: '2022-06-01 16:59:16' }] }),
      json({
        status: 'success',
        activeActivations: [{ ...item, activationTime: '2022-06-01T16:59:16+00:00' }],
      }),
    ];
    const { provider } = await upstreamWith(() => answers.shift()!, { timeZone: 'Europe/Moscow' });
    // Moscow is UTC+3: the reconciler's three-minute match would miss by three hours otherwise.
    expect((await provider.listActiveActivations(0)).items[0]!.activatedAt).toEqual(
      new Date('2022-06-01T13:59:16Z'),
    );
    expect((await provider.listActiveActivations(0)).items[0]!.activatedAt).toEqual(
      new Date('2022-06-01T16:59:16Z'),
    );
    expect(
      provider.parseWebhook({
        activationId: 1,
        text: 'code 1',
        code: '1',
        receivedAt: '2023-01-01 12:00:00',
      }),
    ).toMatchObject({ receivedAt: new Date('2023-01-01T09:00:00Z') });
  });

  it('reads a plain-text NO_ACTIVATIONS as an empty list, not as a failure', async () => {
    const { provider } = await upstreamWith(() => text('NO_ACTIVATIONS'));
    expect(await provider.listActiveActivations(0)).toEqual({ items: [], hasMore: false });
  });

  it('reads the catalog, skipping countries it does not know and tolerating no operator lists', async () => {
    const { provider } = await upstreamWith(({ action }) => {
      if (action === 'getCountries') {
        return json({
          '187': { id: 187, eng: 'USA', visible: 1, rent: 1 },
          '16': { eng: 'United Kingdom', visible: '1', rent: '0' },
          '999': { id: 999, eng: 'Atlantis', visible: 1 },
        });
      }
      if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      return json({
        '187': { tg: { cost: '0.90', count: 12 }, zzz: { cost: 1, count: 1 } },
        '16': { wa: { cost: 0.5, quant: { current: 7, total: 10 } } },
        '999': { tg: { cost: 1, count: 1 } },
      });
    });
    expect(await provider.getCatalog()).toEqual({
      countries: [
        { countryId: 'GB', operators: [], rentSupported: false },
        { countryId: 'US', operators: [], rentSupported: true },
      ],
      offers: [
        { countryId: 'GB', service: 'wa', cost: 0.5, stock: 7 },
        { countryId: 'US', service: 'tg', cost: 0.9, stock: 12 },
      ],
    });
  });

  it('reads prices per entry: physicalCount over count, price tiers, and skips what it cannot read', async () => {
    const { provider } = await upstreamWith(({ action }) => {
      if (action === 'getCountries') return json({ '187': { id: 187, eng: 'USA', visible: 1 } });
      if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      return json({
        '187': {
          // HeroSMS: 163,186 numbers in all, 63 at the listed price.
          tg: { cost: 0.2, count: 163_186, physicalCount: 63 },
          wa: { cost: null, count: 5 },
          go: { '0.25': 0, '0.30': 12, '0.45': 300 },
          fb: 'soon',
          ig: { cost: 0.4, count: 9 },
        },
        // The flat, service-first shape of some providers: not a country, so not read as one.
        tg: { '187': 0.22 },
      });
    });
    expect((await provider.getCatalog()).offers).toEqual([
      { countryId: 'US', service: 'tg', cost: 0.2, stock: 63 },
      { countryId: 'US', service: 'go', cost: 0.3, stock: 12 },
      { countryId: 'US', service: 'ig', cost: 0.4, stock: 9 },
    ]);
  });

  it('reads the stock at the listed price from price tiers over getPrices, which counts any price', async () => {
    const { provider, fake } = await upstreamWith(({ action }) => {
      if (action === 'getCountries') return json({ '187': { id: 187, eng: 'USA', visible: 1 } });
      if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      if (action === 'getPricesVerification') {
        return json({
          tg: { '187': { count: 1000, price: 0.5, freePriceMap: { '0.50': 40, '0.65': 960 } } },
          // Nothing left at the listed price: the offer is the next tier's.
          wa: { '187': { count: 50, price: 0.6, freePriceMap: { '0.60': 0, '0.80': 20, '0.90': 30 } } },
          // No tiers: no better than getPrices.
          go: { '187': { count: 70, price: 0.3 } },
        });
      }
      return json({
        '187': { tg: { cost: 0.5, count: 1000 }, wa: { cost: 0.6, count: 50 }, go: { cost: 0.3, count: 70 } },
      });
    });
    expect((await provider.getCatalog()).offers).toEqual([
      { countryId: 'US', service: 'tg', cost: 0.5, stock: 40 },
      { countryId: 'US', service: 'wa', cost: 0.8, stock: 20 },
      { countryId: 'US', service: 'go', cost: 0.3, stock: 70 },
    ]);
    expect(
      fake.requests.find((request) => request.action === 'getPricesVerification')?.params.get('freePrice'),
    ).toBe('true');
    expect(fake.count('getTopCountriesByService')).toBe(0);
  });

  it('asks for nothing more when the tiers tell the stock at the listed price of every entry', async () => {
    const { provider, fake } = await upstreamWith(({ action }) => {
      if (action === 'getCountries') return json({ '187': { id: 187, eng: 'USA', visible: 1 } });
      if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      if (action === 'getPricesVerification')
        return json({ tg: { '187': { count: 100, price: 0.5, freePriceMap: { '0.50': 40, '0.65': 60 } } } });
      return text('ERROR_SQL');
    });
    expect((await provider.getCatalog()).offers).toEqual([
      { countryId: 'US', service: 'tg', cost: 0.5, stock: 40 },
    ]);
    expect(fake.requests.map((request) => request.action).sort()).toEqual([
      'getCountries',
      'getOperators',
      'getPricesVerification',
    ]);
  });

  it("falls back to Hero's top-country tiers, then to getPrices alone, asking an absent action only once", async () => {
    const topLists = [
      {
        tg: [
          {
            country: 187,
            count: 5477,
            price: 0.045,
            retail_price: 0.2,
            physicalTotalCount: 7933,
            physicalCountForDefaultPrice: 5198,
            physicalPriceMap: { '0.04': 24, '0.0415': 439 },
          },
          { country: 999, retail_price: 0.3, physicalCountForDefaultPrice: 4 },
          { note: 'no country' },
        ],
      },
    ];
    let topAnswer: FakeAnswer = json(topLists);
    const { provider, fake } = await upstreamWith(({ action }) => {
      if (action === 'getCountries') return json({ '187': { id: 187, eng: 'USA', visible: 1 } });
      if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      if (action === 'getPricesVerification') return heroError('BAD_ACTION', 404);
      if (action === 'getTopCountriesByService') return topAnswer;
      return json({ '187': { tg: { cost: 0.2, count: 163_186 }, wa: { cost: 0.6, count: 9 } } });
    });
    const expected = [
      { countryId: 'US', service: 'tg', cost: 0.2, stock: 5198 },
      { countryId: 'US', service: 'wa', cost: 0.6, stock: 9 },
    ];
    expect((await provider.getCatalog()).offers).toEqual(expected);
    expect((await provider.getCatalog()).offers).toEqual(expected);
    expect(fake.count('getPricesVerification')).toBe(1);
    expect(fake.count('getTopCountriesByService')).toBe(2);

    // SMS-Activate wants a service for its top lists: then getPrices is all there is.
    topAnswer = text('BAD_SERVICE');
    const fromPrices = [
      { countryId: 'US', service: 'tg', cost: 0.2, stock: 163_186 },
      { countryId: 'US', service: 'wa', cost: 0.6, stock: 9 },
    ];
    expect((await provider.getCatalog()).offers).toEqual(fromPrices);
    expect((await provider.getCatalog()).offers).toEqual(fromPrices);
    expect(fake.count('getTopCountriesByService')).toBe(3);
    expect(fake.count('getPrices')).toBe(4);
  });

  it.each([
    ['a 502 HTML page', { status: 502, body: '<html>502</html>', contentType: 'text/html' }],
    ['garbage', text('{"tg":')],
    ['a list of another shape', json({ tg: 'soon' })],
    ['BAD_KEY', text('BAD_KEY')],
  ])('builds the catalog from getPrices alone when the tiers answer %s', async (_name, answer) => {
    const { provider } = await upstreamWith(({ action }) => {
      if (action === 'getCountries') return json({ '187': { id: 187, eng: 'USA', visible: 1 } });
      if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
      if (action === 'getPricesVerification') return answer;
      return json({ '187': { tg: { cost: 0.5, count: 12 } } });
    });
    expect((await provider.getCatalog()).offers).toEqual([
      { countryId: 'US', service: 'tg', cost: 0.5, stock: 12 },
    ]);
  });

  it('reads rent answers of both generations', async () => {
    const { provider } = await upstreamWith(({ action, params }) => {
      if (action === 'getRentServicesAndCountries') {
        return json({
          countries: { '0': 187, '1': 999 },
          operators: { '0': 'any', '1': 'tmobile' },
          services: { tg: { cost: 4.2, quant: { current: 5, total: 9 } }, full: { cost: 40, quant: 3 } },
        });
      }
      if (action === 'getRentNumber') {
        return json({
          status: 'success',
          phone: { id: 1049, endDate: '2020-01-31T12:01:52', number: '79959707564' },
        });
      }
      if (params.get('id') === 'revoked') return json({ status: 'error', message: 'STATUS_REVOKE' });
      return json({
        status: 'success',
        quantity: '2',
        values: [
          { phoneFrom: 'SPORTMASTER', text: 'Code 5511', service: 'ot', date: '2025-06-17T16:01:10+03:00' },
          { phoneFrom: 79180230628, text: '5', service: 'ot', date: '2020-01-30 14:31:58', code: '5' },
        ],
      });
    });
    expect(await provider.getRentCatalog({ hours: 24, countryId: 'US' })).toEqual({
      countries: ['US'],
      operators: ['tmobile'],
      services: { tg: { cost: 4.2, stock: 5 } },
    });
    expect(await provider.rentNumber({ service: 'tg', countryId: 'US', hours: 24 })).toEqual({
      rentId: '1049',
      phoneNumber: '79959707564',
      endsAt: new Date('2020-01-31T12:01:52Z'),
    });
    expect(await provider.getRentState('1049')).toEqual({
      kind: 'messages',
      total: 2,
      messages: [
        { from: 'SPORTMASTER', text: 'Code 5511', receivedAt: new Date('2025-06-17T13:01:10Z') },
        { from: '79180230628', text: '5', code: '5', receivedAt: new Date('2020-01-30T14:31:58Z') },
      ],
    });
    expect(await provider.getRentState('revoked')).toEqual({ kind: 'revoked' });
  });

  it('translates ids through an id map', async () => {
    const { provider, fake } = await upstreamWith(() => text('ACCESS_NUMBER:5:15550001111'), {
      idMap: { countries: { '12': 'US' }, services: { telegram: 'tg' } },
    });
    await buy(provider);
    expect(fake.requests[0]!.params.get('country')).toBe('12');
    expect(fake.requests[0]!.params.get('service')).toBe('telegram');
    const unknownService = await failureOf(
      provider.buyActivation({ service: 'nope', countryId: 'US', maxPrice: 1 }),
    );
    expect(unknownService.kind).toBe('bad_request');
  });

  it("gives an overridden country or service the provider's id alone, both ways", async () => {
    const { provider, fake } = await upstreamWith(
      ({ action }) => {
        if (action === 'getNumberV2') return text('ACCESS_NUMBER:5:15550001111');
        if (action === 'getCountries')
          return json({ '16': { id: 16, visible: 1 }, '187': { id: 187, visible: 1 } });
        if (action === 'getOperators') return json({ status: 'error', error: 'OPERATORS_NOT_FOUND' });
        if (action === 'getPrices')
          return json({
            '16': { wa: { cost: 1, count: 2 }, tg: { cost: 9, count: 9 } },
            '187': { wa: { cost: 1, count: 3 } },
          });
        return text('BAD_ACTION');
      },
      // At this provider 16 is the United States (SMS-Activate's id of the United Kingdom).
      { idMap: { countries: { '16': 'US' }, services: { wa: 'tg' } } },
    );
    await buy(provider);
    expect(fake.requests[0]!.params.get('country')).toBe('16');
    expect(fake.requests[0]!.params.get('service')).toBe('wa');
    // 187 is no longer the United States there, nor has the United Kingdom an id; wa no longer names WhatsApp.
    expect(await provider.getCatalog()).toEqual({
      countries: [{ countryId: 'US', operators: [], rentSupported: false }],
      offers: [{ countryId: 'US', service: 'tg', cost: 1, stock: 2 }],
    });
    for (const request of [
      { service: 'tg', countryId: 'GB' },
      { service: 'wa', countryId: 'US' },
    ]) {
      expect(await failureOf(provider.buyActivation({ ...request, maxPrice: 1 }))).toMatchObject({
        kind: 'bad_request',
        outcomeUnknown: false,
      });
    }
  });
});

describe('every SMS of an activation and the history', () => {
  it("reads Hero's getAllSms page by page, oldest first, and skips entries with neither code nor text", async () => {
    const sms = (index: number) => ({
      id: 9,
      phoneFrom: 'Telegram',
      code: String(10_000 + index),
      text: `Telegram code ${10_000 + index}`,
      service: 'tg',
      // Zone-less, newest first on the wire: read in the provider's zone and put in order.
      date: new Date(Date.UTC(2026, 1, 16, 12, 0, 200 - index)).toISOString().slice(0, 19).replace('T', ' '),
      type: 'sms',
    });
    const { provider, fake } = await upstreamWith(
      ({ params }) => {
        const page = Number(params.get('page'));
        if (page === 1)
          return json({ data: Array.from({ length: 100 }, (_, index) => sms(index)), meta: { total: 101 } });
        return json({
          data: [
            { id: 9, code: null, text: null },
            { ...sms(100), code: null, type: 'call' },
          ],
          meta: { total: 101 },
        });
      },
      { timeZone: 'Europe/Moscow' },
    );
    const messages = await provider.listActivationMessages('9');
    expect(messages).toHaveLength(101);
    expect(messages[0]).toEqual({
      code: undefined,
      text: 'Telegram code 10100',
      from: 'Telegram',
      receivedAt: new Date('2026-02-16T09:01:40Z'),
    });
    expect(messages.at(-1)).toMatchObject({ code: '10000', receivedAt: new Date('2026-02-16T09:03:20Z') });
    expect(fake.requests.map((request) => Object.fromEntries(request.params))).toEqual([
      { api_key: API_KEY, action: 'getAllSms', id: '9', page: '1', size: '100' },
      { api_key: API_KEY, action: 'getAllSms', id: '9', page: '2', size: '100' },
    ]);
  });

  it('falls back to the last SMS where getAllSms is unknown, asking for it only once', async () => {
    const { provider, fake } = await upstreamWith(({ action }) => {
      if (action === 'getAllSms') return text('BAD_ACTION');
      return json({ verificationType: 0, sms: { code: '5512', text: 'Code 5512' }, call: null });
    });
    expect(await provider.listActivationMessages('1')).toEqual([{ code: '5512', text: 'Code 5512' }]);
    expect(await provider.listActivationMessages('2')).toEqual([{ code: '5512', text: 'Code 5512' }]);
    expect(fake.requests.map((request) => request.action)).toEqual([
      'getAllSms',
      'getStatusV2',
      'getStatusV2',
    ]);
  });

  it('reads a cancelled activation as having no SMS, and an unknown one as gone', async () => {
    const answers = [heroError('ACTIVATION_NOT_ACTIVE', 409), heroError('NOT_FOUND', 404)];
    const { provider } = await upstreamWith(() => answers.shift()!);
    expect(await provider.listActivationMessages('1')).toEqual([]);
    expect(await failureOf(provider.listActivationMessages('2'))).toMatchObject({
      kind: 'not_found',
      outcomeUnknown: false,
    });
  });

  it("reads SMS-Activate's and Hero's getHistory, closed activations with their states", async () => {
    const answers = [
      json([
        {
          id: 635468027,
          date: '2022-11-12 15:58:39',
          phone: '79918529716',
          sms: null,
          cost: 0,
          status: '4',
          currency: 840,
        },
        {
          id: 635468026,
          date: '2022-11-12 15:50:00',
          phone: '79918529715',
          sms: ['111', '222'],
          cost: 0,
          status: '3',
        },
        {
          id: 635468025,
          date: '2022-11-12 15:40:00',
          phone: '79918529714',
          sms: '["333"]',
          cost: 0,
          status: '2',
        },
        {
          id: 635468024,
          date: '2022-11-12 15:30:00',
          phone: '79918529713',
          sms: '["444"]',
          cost: 100,
          status: '6',
        },
        {
          id: 635468023,
          date: '2022-11-12 15:20:00',
          phone: '79918529712',
          sms: null,
          cost: 0,
          status: '10',
        },
      ]),
      json([
        {
          id: '635468024',
          date: '2026-08-29 12:00:36',
          phone: '+7 991 852-97-13',
          sms: 'Your code is 4444',
          cost: 0.1275,
          status: '6',
          currency: 840,
        },
        {
          id: '635468025',
          date: '2026-08-29 12:17:19',
          phone: '79918529714',
          sms: null,
          cost: 0,
          status: '8',
          currency: 840,
        },
      ]),
    ];
    const { provider, fake } = await upstreamWith(() => answers.shift()!);
    const classic = await provider.listRecentActivations(Date.UTC(2022, 10, 12, 15, 0, 0), 2);
    expect(classic.hasMore).toBe(false);
    expect(classic.items.map((item) => item.state)).toEqual([
      { kind: 'waiting' },
      { kind: 'waiting_retry', lastCode: '222' },
      { kind: 'code', code: '333', text: '333' },
      { kind: 'finished' },
      { kind: 'cancelled' },
    ]);
    expect(classic.items[3]).toEqual({
      activationId: '635468024',
      phoneNumber: '79918529713',
      state: { kind: 'finished' },
      activatedAt: new Date('2022-11-12T15:30:00Z'),
      messages: ['444'],
      cost: 100,
    });
    // What each closed one kept: the billed one its price, the refunded one nothing.
    expect(classic.items.map((item) => item.cost)).toEqual([0, 0, 0, 100, 0]);
    expect(Object.fromEntries(fake.requests[0]!.params)).toEqual({
      api_key: API_KEY,
      action: 'getHistory',
      start: String(Date.UTC(2022, 10, 12, 15, 0, 0) / 1000),
      offset: '200',
      limit: '100',
      size: '100',
    });
    const hero = await provider.listRecentActivations(0);
    expect(hero.items).toEqual([
      {
        activationId: '635468024',
        phoneNumber: '79918529713',
        state: { kind: 'finished' },
        activatedAt: new Date('2026-08-29T12:00:36Z'),
        messages: ['Your code is 4444'],
        cost: 0.1275,
      },
      {
        activationId: '635468025',
        phoneNumber: '79918529714',
        state: { kind: 'cancelled' },
        activatedAt: new Date('2026-08-29T12:17:19Z'),
        messages: [],
        cost: 0,
      },
    ]);
  });

  it.each([
    ['an empty list', json([])],
    ['NO_ACTIVATIONS', json({ status: 'error', error: 'NO_ACTIVATIONS' })],
    ['a plain-text NO_ACTIVATIONS', text('NO_ACTIVATIONS')],
  ])('reads %s as no history', async (_name, answer) => {
    const { provider } = await upstreamWith(() => answer);
    expect(await provider.listRecentActivations(0)).toEqual({ items: [], hasMore: false });
  });

  it.each([
    ['WRONG_DATE', text('WRONG_DATE')],
    ["Hero's 400 WRONG_DATE", heroError('WRONG_DATE', 400)],
    ["Hero's 422", heroError('UNPROCESSABLE_ENTITY', 422)],
  ])('reads %s on getHistory as a refusal', async (_name, answer) => {
    const { provider } = await upstreamWith(() => answer);
    expect(await failureOf(provider.listRecentActivations(0))).toMatchObject({
      kind: 'bad_request',
      outcomeUnknown: false,
    });
  });
});

/** Every token of docs/protocols.md with the kind it must become; Hero's HTTP status for its JSON form. */
const TOKEN_KINDS: Array<[string, UpstreamErrorKind, number]> = [
  ['BAD_KEY', 'configuration', 401],
  ['NO_KEY', 'configuration', 422],
  ['EMPTY_KEY', 'configuration', 401],
  ['BAD_ACTION', 'bad_request', 404],
  ['BAD_SERVICE', 'bad_request', 400],
  ['BAD_STATUS', 'bad_request', 400],
  ['ERROR_SQL', 'provider_error', 500],
  ['SQL_ERROR', 'provider_error', 500],
  ['ERROR_SQL25', 'provider_error', 500],
  ['SERVER_ERROR', 'provider_error', 500],
  ['BANNED', 'account_blocked', 403],
  ['ACCOUNT_INACTIVE', 'account_blocked', 403],
  ['CHANNELS_LIMIT', 'account_blocked', 403],
  ['NO_BALANCE', 'no_balance', 402],
  ['NO_ACTIVATION', 'not_found', 404],
  ['NOT_FOUND', 'not_found', 404],
  ['WRONG_ACTIVATION_ID', 'not_found', 400],
  ['NO_NUMBERS', 'no_numbers', 404],
  ['WRONG_MAX_PRICE', 'no_numbers', 400],
  ['SERVICE_NOT_AVAILABLE', 'no_numbers', 403],
  ['NOT_AVAILABLE', 'no_numbers', 400],
  ['WHATSAPP_NOT_AVAILABLE', 'no_numbers', 400],
  ['SERVICE_UNAVAILABLE_REGION', 'no_numbers', 400],
  ['BAD_COUNTRY', 'bad_request', 400],
  ['WRONG_EXCEPTION_PHONE', 'bad_request', 400],
  ['ORDER_ALREADY_EXISTS', 'bad_request', 400],
  ['NO_BALANCE_FORWARD', 'no_balance', 400],
  ['BAD_BALANCE', 'no_balance', 400],
  ['NO_YULA_MAIL', 'no_balance', 400],
  ['EARLY_CANCEL_DENIED', 'early_cancel_denied', 409],
  ['OTP_RECEIVED', 'cannot_cancel', 409],
  ['NEW_OTP_RECEIVED', 'cannot_cancel', 409],
  ['FREE_CANCELLATION_EXPIRED', 'cannot_cancel', 409],
  ['ACTIVATION_NOT_ACTIVE', 'not_found', 409],
  ['ACCESS_CANCEL_ALREADY', 'not_found', 400],
  ['ALREADY_CANCELED', 'not_found', 400],
  ['OPERATORS_NOT_FOUND', 'bad_request', 404],
  ['WRONG_ADDITIONAL_SERVICE', 'bad_request', 400],
  ['REPEAT_ADDITIONAL_SERVICE', 'bad_request', 400],
  ['WRONG_SECURITY', 'bad_request', 400],
  ['RENEW_ACTIVATION_NOT_AVAILABLE', 'bad_request', 400],
  ['NEW_ACTIVATION_IMPOSSIBLE', 'bad_request', 400],
  ['CALL_TASK_ALREADY_EXIST', 'bad_request', 400],
  ['NUMBER_NOT_EXIST', 'not_found', 400],
];

const RENT_TOKEN_KINDS: Array<[string, UpstreamErrorKind]> = [
  ['NO_ID_RENT', 'bad_request'],
  ['INVALID_PHONE', 'not_found'],
  ['INCORECT_STATUS', 'bad_request'],
  ['ALREADY_FINISH', 'not_found'],
  ['ALREADY_CANCEL', 'not_found'],
  ['CANT_CANCEL', 'cannot_cancel'],
  ['RENT_DIE', 'not_found'],
  ['INVALID_TIME', 'bad_request'],
  ['WRONG_COUNTRY', 'bad_request'],
  ['WRONG_OPERATOR', 'bad_request'],
  ['NO_NUMBERS', 'no_numbers'],
  ['NO_BALANCE', 'no_balance'],
  ['CHANNELS_LIMIT', 'account_blocked'],
  ['ACCOUNT_INACTIVE', 'account_blocked'],
  ['BAD_KEY', 'configuration'],
  ['ERROR_SQL', 'provider_error'],
  ['SERVER_ERROR', 'provider_error'],
];

describe('error tokens', () => {
  it.each(TOKEN_KINDS)('maps classic %s on a buy to %s', async (token, kind) => {
    const { provider } = await upstreamWith(() => text(token));
    const error = await failureOf(buy(provider));
    expect(error).toMatchObject({ kind, token, outcomeUnknown: kind === 'provider_error' });
    expect(error.userMessage).toMatch(/^[A-Z].*\.$/);
  });

  it.each(TOKEN_KINDS)('maps Hero %s on a buy to %s (HTTP %s)', async (token, kind, status) => {
    const { provider } = await upstreamWith(() => heroError(token, status));
    const error = await failureOf(buy(provider));
    expect(error).toMatchObject({ kind, token, outcomeUnknown: kind === 'provider_error' });
  });

  it.each(RENT_TOKEN_KINDS)('maps rent-style %s to %s', async (token, kind) => {
    const { provider } = await upstreamWith(() => json({ status: 'error', message: token }));
    const error = await failureOf(provider.rentNumber({ service: 'tg', countryId: 'US', hours: 4 }));
    expect(error).toMatchObject({ kind, token });
    expect(error.outcomeUnknown).toBe(kind === 'provider_error');
  });

  it("reads Grizzly's sentence refusing a service as a clean refusal, not an unknown outcome", async () => {
    const { provider } = await upstreamWith(() =>
      text('The service is prohibited for sale by administration'),
    );
    const error = await failureOf(buy(provider));
    expect(error).toMatchObject({ kind: 'no_numbers', token: 'SERVICE_PROHIBITED', outcomeUnknown: false });
  });

  it('reads payloads: a ban end date and a minimum price, in both styles', async () => {
    const answers = [
      text("BANNED:'2026-2-13 12-00-00'"),
      text('WRONG_MAX_PRICE:0.025'),
      heroError('WRONG_MAX_PRICE', 400, { min: 0.025 }),
      heroError('BANNED', 403, { scope: 'global', banned_until: 1_770_984_000 }),
    ];
    const { provider } = await upstreamWith(() => answers.shift()!);
    expect(await failureOf(buy(provider))).toMatchObject({ kind: 'account_blocked', token: 'BANNED' });
    const minimum = { kind: 'no_numbers', token: 'WRONG_MAX_PRICE', minPrice: 0.025 };
    expect(await failureOf(buy(provider))).toMatchObject(minimum);
    expect(await failureOf(buy(provider))).toMatchObject(minimum);
    expect(await failureOf(buy(provider))).toMatchObject({ kind: 'account_blocked', token: 'BANNED' });
  });

  it('reads BAD_STATUS on a cancel as "a code already arrived"', async () => {
    const { provider } = await upstreamWith(() => text('BAD_STATUS'));
    expect(await failureOf(provider.cancelActivation('1'))).toMatchObject({ kind: 'cannot_cancel' });
    expect(await failureOf(provider.finishActivation('1'))).toMatchObject({ kind: 'bad_request' });
  });

  it('treats an unknown answer to a buy as an unknown outcome', async () => {
    const { provider } = await upstreamWith(() => text('OK'));
    expect(await failureOf(buy(provider))).toMatchObject({ kind: 'provider_error', outcomeUnknown: true });
  });

  it('treats a rent state token where none is expected as an error', async () => {
    const { provider } = await upstreamWith(() => json({ status: 'error', message: 'STATUS_FINISH' }));
    expect(await failureOf(provider.extendRent('1', 4))).toMatchObject({ kind: 'not_found' });
  });
});

describe('outages', () => {
  const HTML_502 = {
    status: 502,
    body: '<html><body><h1>502 Bad Gateway</h1></body></html>',
    contentType: 'text/html',
  };

  it.each([
    ['a timeout', (): 'hang' => 'hang'],
    ['a 502 HTML page', () => HTML_502],
    ['a 500 with an empty body', () => ({ status: 500 })],
    ['garbage', () => text('{"status":"succ')],
    ['a reset connection', (): 'reset' => 'reset'],
    ['a 500 ERROR_SQL', () => text('ERROR_SQL', 500)],
  ])('retries a read twice after %s, then reports the provider unavailable', async (_name, answer) => {
    const { provider, fake } = await upstreamWith(answer);
    const reads: Array<[string, () => Promise<unknown>]> = [
      ['getStatus', () => provider.getActivationState('1')],
      ['getAllSms', () => provider.listActivationMessages('1')],
      ['getHistory', () => provider.listRecentActivations(0)],
    ];
    for (const [action, read] of reads) {
      const error = await failureOf(read());
      expect(['unavailable', 'provider_error']).toContain(error.kind);
      expect(error.outcomeUnknown).toBe(false);
      expect(fake.count(action), action).toBe(3);
    }
  });

  it.each([
    ['a timeout', (): 'hang' => 'hang'],
    ['a 502 HTML page', () => HTML_502],
    ['a reset connection', (): 'reset' => 'reset'],
  ])(
    'never repeats a state-changing call after %s, and says its outcome is unknown',
    async (_name, answer) => {
      const { provider, fake } = await upstreamWith(answer);
      const calls: Array<[string, () => Promise<unknown>]> = [
        ['getNumberV2', () => buy(provider)],
        ['setStatus', () => provider.cancelActivation('1')],
        ['setStatus', () => provider.finishActivation('1')],
        ['getRentNumber', () => provider.rentNumber({ service: 'tg', countryId: 'US', hours: 4 })],
        ['continueRentNumber', () => provider.extendRent('1', 4)],
        ['setRentStatus', () => provider.cancelRent('1')],
      ];
      for (const [action, run] of calls) {
        const before = fake.count(action);
        const error = await failureOf(run());
        expect(error).toMatchObject({ kind: 'unavailable', outcomeUnknown: true });
        expect(error.userMessage).toBe('The number provider did not answer. Please try again.');
        expect(fake.count(action) - before).toBe(1);
      }
    },
  );

  it('succeeds when a read recovers within its retries', async () => {
    const answers = [text('ERROR_SQL'), heroError('SERVER_ERROR', 500)];
    const { provider, fake } = await upstreamWith(() => answers.shift() ?? text('STATUS_OK:4321'));
    expect(await provider.getActivationState('1')).toEqual({ kind: 'code', code: '4321' });
    expect(fake.count('getStatus')).toBe(3);
  });

  it('never writes the key to the logs', async () => {
    const records: unknown[] = [];
    const record = (...args: unknown[]) => {
      records.push(args);
    };
    const logger = { debug: record, info: record, warn: record, error: record } as unknown as SmsLogger;
    const { provider } = await upstreamWith(() => text('BAD_KEY'), { logger });
    await failureOf(provider.getCatalog());
    await failureOf(buy(provider));
    expect(records.length).toBeGreaterThan(0);
    expect(JSON.stringify(records)).not.toContain(API_KEY);
  });
});

describe('webhooks', () => {
  it('parses activation and rent webhooks, from objects or JSON text, and nothing else', async () => {
    const { provider } = await upstreamWith(() => text('BAD_ACTION'));
    expect(
      provider.parseWebhook({
        activationId: 123456,
        service: 'go',
        text: 'G-12345 is your Google verification code.',
        code: '12345',
        country: 0,
        receivedAt: '2023-01-01 12:00:00',
      }),
    ).toEqual({
      type: 'activation',
      activationId: '123456',
      code: '12345',
      text: 'G-12345 is your Google verification code.',
      receivedAt: new Date('2023-01-01T12:00:00Z'),
    });
    expect(
      provider.parseWebhook(
        '{"rentId":"26251422","sms":{"phoneFrom":"SPORTMASTER","text":"Hello","date":"2025-06-17 16:01:10"}}',
      ),
    ).toEqual({
      type: 'rent',
      rentId: '26251422',
      from: 'SPORTMASTER',
      text: 'Hello',
      receivedAt: new Date('2025-06-17T16:01:10Z'),
    });
    expect(
      provider.parseWebhook({
        activationId: 1,
        text: 'Call me',
        code: null,
        receivedAt: '2023-01-01T12:00:00Z',
      }),
    ).toMatchObject({ type: 'activation', code: null });
    // A call verification: no text, the code is in `code`; it was dropped before.
    expect(
      provider.parseWebhook({ activationId: 2, text: null, code: '4711', receivedAt: '2023-01-01 12:00:00' }),
    ).toMatchObject({ type: 'activation', activationId: '2', code: '4711', text: '4711' });
    for (const body of [null, 'not json', {}, { activationId: 1 }, { rentId: 1, sms: {} }, [1, 2]]) {
      expect(provider.parseWebhook(body)).toBeNull();
    }
  });
});
