import { PROTOCOL_ACTIONS } from '@simcode/sms-activate-protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_PRICE_USD, MIN_PRICE_USD } from '../../src/simulator/catalog';
import { SIMULATOR_KEY, type SimulatorHarness, startSimulator } from '../support/simulator';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const harnesses: SimulatorHarness[] = [];

async function simulator(...args: Parameters<typeof startSimulator>) {
  const harness = await startSimulator(...args);
  harnesses.push(harness);
  return harness;
}

afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
});

const call = (sim: SimulatorHarness, action: string, params: Record<string, string> = {}) =>
  sim.raw({ api_key: SIMULATOR_KEY, action, ...params });

type Prices = Record<string, Record<string, { cost: number; count: number }>>;
const prices = async (sim: SimulatorHarness): Promise<Prices> =>
  JSON.parse((await call(sim, 'getPrices')).text);

describe('the handler_api.php wire format', () => {
  it('refuses a missing or wrong key in each style', async () => {
    const sim = await simulator();
    expect(await sim.raw({ action: 'getBalance' })).toMatchObject({ status: 200, text: 'BAD_KEY' });
    expect(await sim.raw({ action: 'getBalance', api_key: 'wrong' })).toMatchObject({
      status: 200,
      text: 'BAD_KEY',
    });
    await sim.control('style', { style: 'hero' });
    const missing = await sim.raw({ action: 'getBalance' });
    expect(missing.status).toBe(422);
    expect(JSON.parse(missing.text)).toMatchObject({ title: 'NO_KEY' });
    const wrong = await sim.raw({ action: 'getBalance', api_key: 'wrong' });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toEqual({ title: 'BAD_KEY', details: 'Unauthorized' });
  });

  it('accepts GET and form-encoded POST, and refuses unknown actions', async () => {
    const sim = await simulator();
    expect((await call(sim, 'getBalance')).text).toBe('ACCESS_BALANCE:1000.00');
    const posted = await fetch(sim.handlerUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ api_key: SIMULATOR_KEY, action: 'getBalanceAndCashBack' }),
    });
    expect(await posted.text()).toBe('ACCESS_BALANCE:1000.00');
    expect((await call(sim, 'fly')).text).toBe('BAD_ACTION');
    expect((await call(sim, 'constructor')).text).toBe('BAD_ACTION');
    await sim.control('style', { style: 'hero' });
    expect((await call(sim, 'fly')).status).toBe(404);
  });

  it('answers buys, status changes and refusals as each style does', async () => {
    const sim = await simulator();
    const bought = await call(sim, 'getNumber', { service: 'tg', country: '187' });
    const [token, id, phone] = bought.text.split(':');
    expect(token).toBe('ACCESS_NUMBER');
    expect(phone).toMatch(/^1\d{10}$/);
    const tooCheap = await call(sim, 'getNumber', { service: 'tg', country: '187', maxPrice: '0.01' });
    expect(tooCheap.text).toMatch(/^WRONG_MAX_PRICE:\d+\.\d{2}$/);
    expect((await call(sim, 'setStatus', { id: id!, status: '8' })).text).toBe('EARLY_CANCEL_DENIED');
    expect((await call(sim, 'setStatus', { id: id!, status: '1' })).text).toBe('ACCESS_READY');
    sim.advance(10_000);
    expect((await call(sim, 'getStatus', { id: id! })).text).toMatch(/^STATUS_OK:\d{5}$/);
    expect((await call(sim, 'setStatus', { id: id!, status: '8' })).text).toBe('BAD_STATUS');
    expect((await call(sim, 'finishActivation', { id: id! })).text).toBe('ACCESS_ACTIVATION');
    expect((await call(sim, 'setStatus', { id: id!, status: '3' })).text).toBe('NO_ACTIVATION');
    expect((await call(sim, 'getStatus', { id: 'nope' })).text).toBe('NO_ACTIVATION');

    await sim.control('style', { style: 'hero' });
    const heroBuy = JSON.parse((await call(sim, 'getNumberV2', { service: 'wa', country: '16' })).text);
    expect(heroBuy).toMatchObject({ currency: 840, countryCode: 16, countryPhoneCode: 44, status: 4 });
    const early = await call(sim, 'cancelActivation', { id: String(heroBuy.activationId) });
    expect(early.status).toBe(409);
    expect(JSON.parse(early.text)).toMatchObject({
      title: 'EARLY_CANCEL_DENIED',
      info: { minActivationTime: 120 },
    });
    sim.advance(10_000);
    const afterCode = await call(sim, 'setStatus', { id: String(heroBuy.activationId), status: '8' });
    expect([afterCode.status, JSON.parse(afterCode.text).title]).toEqual([409, 'OTP_RECEIVED']);
    const finished = await call(sim, 'finishActivation', { id: String(heroBuy.activationId) });
    expect([finished.status, finished.text]).toEqual([204, '']);
    const missing = await call(sim, 'getStatus', { id: 'nope' });
    expect([missing.status, JSON.parse(missing.text).title]).toEqual([404, 'NOT_FOUND']);
  });

  it('answers the legacy cancel (-1) and a finish without a code as SMS-Activate does', async () => {
    const sim = await simulator();
    await sim.control('settings', { noSmsRate: 1, earlyCancelMs: 0 });
    const buy = async () =>
      (await call(sim, 'getNumber', { service: 'tg', country: '187' })).text.split(':')[1]!;
    const balance = async () => (await call(sim, 'getBalance')).text;
    const unspent = await balance();
    const cancelled = await buy();
    expect((await call(sim, 'setStatus', { id: cancelled, status: '-1' })).text).toBe('ACCESS_CANCEL');
    expect((await call(sim, 'getStatus', { id: cancelled })).text).toBe('STATUS_CANCEL');
    expect(await balance()).toBe(unspent);
    const finished = await buy();
    const paid = await balance();
    expect((await call(sim, 'setStatus', { id: finished, status: '6' })).text).toBe('ACCESS_ACTIVATION');
    expect(await sim.control('state', { activationId: finished })).toMatchObject({
      body: { activation: { status: 'finished' } },
    });
    // Finished, not cancelled: the number stays paid for.
    expect(await balance()).toBe(paid);
    expect(paid).not.toBe(unspent);
  });

  it('answers an empty shelf with text NO_NUMBERS on a buy in both styles, and 404 JSON on a rent in Hero style', async () => {
    const sim = await simulator();
    const table = await prices(sim);
    const [country, service] = Object.entries(table)
      .flatMap(([countryId, row]) =>
        Object.entries(row).map(([code, offer]) => [countryId, code, offer.count] as const),
      )
      .find(([, , count]) => count === 0)!;
    expect((await call(sim, 'getNumber', { service, country })).text).toBe('NO_NUMBERS');
    await sim.control('style', { style: 'hero' });
    expect(await call(sim, 'getNumberV2', { service, country })).toMatchObject({
      status: 200,
      text: 'NO_NUMBERS',
    });
    await sim.control('fault', { action: 'getRentNumber', token: 'NO_NUMBERS' });
    const rent = await call(sim, 'getRentNumber', { service: 'tg', country: '187' });
    expect([rent.status, JSON.parse(rent.text).title]).toEqual([404, 'NO_NUMBERS']);
  });

  it('renders forced tokens with their payloads', async () => {
    const sim = await simulator();
    await sim.control('fault', { token: 'BANNED' });
    expect((await call(sim, 'getNumber', { service: 'tg' })).text).toMatch(
      /^BANNED:'\d{4}-\d{1,2}-\d{1,2} \d{2}-\d{2}-\d{2}'$/,
    );
    await sim.control('fault', { action: 'getRentList', token: 'ERROR_SQL' });
    expect(JSON.parse((await call(sim, 'getRentList')).text)).toEqual({
      status: 'error',
      message: 'ERROR_SQL',
    });
    await sim.control('style', { style: 'hero' });
    await sim.control('fault', { token: 'BANNED' });
    const banned = await call(sim, 'getNumberV2', { service: 'tg' });
    expect(banned.status).toBe(403);
    expect(JSON.parse(banned.text).info).toMatchObject({ scope: 'global', retry_after_seconds: 1800 });
  });

  it('lists the catalog actions', async () => {
    const sim = await simulator();
    const countries = JSON.parse((await call(sim, 'getCountries')).text);
    expect(Object.keys(countries).length).toBeGreaterThanOrEqual(184);
    expect(countries['187']).toEqual({
      id: 187,
      rus: 'Соединенные Штаты',
      eng: 'United States',
      chn: '美国',
      visible: 1,
      retry: 1,
      rent: 1,
    });
    expect(countries['0']).toMatchObject({ eng: 'Russia', rus: 'Россия' });
    const operators = JSON.parse((await call(sim, 'getOperators', { country: '22' })).text);
    expect(operators).toEqual({
      status: 'success',
      countryOperators: { '22': ['airtel', 'jio', 'vi', 'bsnl'] },
    });
    expect(JSON.parse((await call(sim, 'getOperators', { country: '199' })).text)).toEqual({
      status: 'error',
      error: 'OPERATORS_NOT_FOUND',
    });
    const stock = JSON.parse((await call(sim, 'getNumbersStatus', { country: '187' })).text);
    expect(stock.tg_0).toBeGreaterThan(0);
    expect(stock.tg_1).toBe(0);
    const top = JSON.parse((await call(sim, 'getTopCountriesByService', { service: 'wa' })).text);
    expect(Object.keys(top)).toHaveLength(10);
    expect(top['0'].count).toBeGreaterThanOrEqual(top['9'].count);
    const list = JSON.parse((await call(sim, 'getServicesList')).text);
    expect(list.services).toContainEqual({ code: 'tg', name: 'Telegram' });
  });
});

type TierMap = Record<string, number>;
type Tier = { price: number; stock: number };
type Verification = Record<string, Record<string, { count: number; price: number; freePriceMap: TierMap }>>;

/** An offer that also sells above its listed price, with few numbers left at the listed one. */
async function tieredOffer(sim: SimulatorHarness) {
  const table: Verification = JSON.parse(
    (await call(sim, 'getPricesVerification', { freePrice: 'true' })).text,
  );
  const offers = Object.entries(table).flatMap(([service, row]) =>
    Object.entries(row).map(([country, entry]) => ({ service, country, ...entry })),
  );
  const tiered = offers
    .map((offer) => ({
      ...offer,
      tiers: Object.entries(offer.freePriceMap).map(([price, stock]) => ({ price: Number(price), stock })),
    }))
    .filter((offer) => offer.tiers.length >= 2 && offer.tiers[0]!.stock > 0)
    .sort((a, b) => a.tiers[0]!.stock - b.tiers[0]!.stock);
  return tiered[0]!;
}

/**
 * A refusal of each action (forced where the action has no natural one) with how Hero tells it: HTTP
 * status and `title`.
 */
const REFUSALS: Readonly<
  Record<string, { params?: Record<string, string>; fault?: string; hero: [number, string] }>
> = {
  getBalance: { fault: 'ERROR_SQL', hero: [500, 'ERROR_SQL'] },
  getBalanceAndCashBack: { fault: 'ACCOUNT_INACTIVE', hero: [403, 'ACCOUNT_INACTIVE'] },
  getNumber: { params: { service: 'tg', country: '187', maxPrice: '0.01' }, hero: [400, 'WRONG_MAX_PRICE'] },
  getNumberV2: { params: { service: 'nope', country: '187' }, hero: [400, 'BAD_SERVICE'] },
  getStatus: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
  getStatusV2: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
  // SMS-Activate's answers have no getAllSms.
  getAllSms: { params: { id: '1' }, hero: [404, 'BAD_ACTION'] },
  getHistory: { params: { start: 'yesterday' }, hero: [400, 'WRONG_DATE'] },
  setStatus: { params: { id: '1', status: 'cancel' }, hero: [400, 'BAD_STATUS'] },
  finishActivation: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
  cancelActivation: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
  getActiveActivations: { hero: [404, 'NO_ACTIVATIONS'] },
  getNumbersStatus: { params: { country: '999' }, hero: [400, 'BAD_COUNTRY'] },
  getTopCountriesByService: { params: { service: 'nope' }, hero: [400, 'BAD_SERVICE'] },
  getPrices: { params: { country: '999' }, hero: [400, 'BAD_COUNTRY'] },
  getPricesVerification: { params: { service: 'nope' }, hero: [400, 'BAD_SERVICE'] },
  getCountries: { fault: 'BANNED', hero: [403, 'BANNED'] },
  getOperators: { params: { country: '199' }, hero: [404, 'OPERATORS_NOT_FOUND'] },
  getServicesList: { fault: 'SERVER_ERROR', hero: [500, 'SERVER_ERROR'] },
  getRentServicesAndCountries: { params: { country: '187', rent_time: '1' }, hero: [400, 'INVALID_TIME'] },
  getRentNumber: {
    params: { service: 'tg', country: '187' },
    fault: 'NO_NUMBERS',
    hero: [404, 'NO_NUMBERS'],
  },
  getRentStatus: { params: {}, hero: [400, 'NO_ID_RENT'] },
  setRentStatus: { params: { id: '1', status: '1' }, hero: [404, 'NOT_FOUND'] },
  getRentList: { fault: 'CHANNELS_LIMIT', hero: [403, 'CHANNELS_LIMIT'] },
  continueRentNumber: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
  getContinueRentPriceNumber: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
  continueRentInfo: { params: { id: '1' }, hero: [404, 'NOT_FOUND'] },
};

describe("Hero's error style", () => {
  it('is tried on every action', () => {
    expect(Object.keys(REFUSALS).sort()).toEqual(Object.keys(PROTOCOL_ACTIONS).sort());
  });

  it.each(Object.entries(REFUSALS))(
    'tells %s refusals with HTTP statuses and JSON under errorStyle hero, and with HTTP 200 otherwise',
    async (action, { params = {}, fault, hero: [status, title] }) => {
      const sim = await simulator({ errorStyle: 'hero' });
      if (fault) await sim.control('fault', { action, token: fault });
      const answer = await call(sim, action, params);
      expect(answer.status).toBe(status);
      expect(answer.contentType).toMatch(/^application\/json/);
      expect(JSON.parse(answer.text)).toMatchObject({ title, details: expect.any(String) });

      await sim.control('settings', { errorStyle: 'classic' });
      if (fault) await sim.control('fault', { action, token: fault });
      expect((await call(sim, action, params)).status).toBe(200);
    },
  );

  it("keeps SMS-Activate's answers under Hero's errors, and is set and reset through the control API", async () => {
    const sim = await simulator();
    expect((await sim.control('settings', { errorStyle: 'hero' })).body.settings.errorStyle).toBe('hero');
    expect((await call(sim, 'getNumber', { service: 'tg', country: '187' })).text).toMatch(
      /^ACCESS_NUMBER:\d+:\d+$/,
    );
    const missingKey = await sim.raw({ action: 'getBalance' });
    expect([missingKey.status, JSON.parse(missingKey.text).title]).toEqual([422, 'NO_KEY']);
    expect((await sim.control('settings', { errorStyle: 'pastel' })).status).toBe(400);
    await sim.control('reset');
    expect(await call(sim, 'getStatus', { id: '1' })).toMatchObject({ status: 200, text: 'NO_ACTIVATION' });
  });
});

describe('every SMS and the history', () => {
  it("answers getAllSms in Hero's style a page at a time, and BAD_ACTION in SMS-Activate's", async () => {
    const sim = await simulator({ noSmsRate: 1 });
    const [, id] = (await call(sim, 'getNumber', { service: 'tg', country: '187' })).text.split(':');
    for (const code of ['11111', '22222', '33333']) {
      await sim.control('sms', { activationId: id, code, text: `Telegram code ${code}` });
      sim.clock.advance(1000);
    }
    expect((await call(sim, 'getAllSms', { id: id! })).text).toBe('BAD_ACTION');

    await sim.control('style', { style: 'hero' });
    const first = JSON.parse((await call(sim, 'getAllSms', { id: id!, size: '2' })).text);
    expect(first.meta).toEqual({ total: 3, service: 'tg' });
    expect(first.data.map((sms: { code: string }) => sms.code)).toEqual(['11111', '22222']);
    expect(first.data[0]).toMatchObject({
      id: Number(id),
      text: 'Telegram code 11111',
      service: 'tg',
      type: 'sms',
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/),
    });
    const second = JSON.parse((await call(sim, 'getAllSms', { id: id!, size: '2', page: '2' })).text);
    expect(second.data.map((sms: { code: string }) => sms.code)).toEqual(['33333']);
    const missing = await call(sim, 'getAllSms', { id: '1' });
    expect([missing.status, JSON.parse(missing.text).title]).toEqual([404, 'NOT_FOUND']);
    const badPage = await call(sim, 'getAllSms', { id: id!, page: 'two' });
    expect([badPage.status, JSON.parse(badPage.text).title]).toEqual([422, 'UNPROCESSABLE_ENTITY']);

    await sim.control('settings', { earlyCancelMs: 0 });
    const [, cancelled] = (await call(sim, 'getNumber', { service: 'tg', country: '187' })).text.split(':');
    await call(sim, 'setStatus', { id: cancelled!, status: '8' });
    const gone = await call(sim, 'getAllSms', { id: cancelled! });
    expect([gone.status, JSON.parse(gone.text).title]).toEqual([409, 'ACTIVATION_NOT_ACTIVE']);
  });

  it('answers getHistory between two dates, closed activations included, in each style', async () => {
    const sim = await simulator({ earlyCancelMs: 0 });
    const startS = Math.floor(sim.clock.now().getTime() / 1000);
    const buy = async () =>
      (await call(sim, 'getNumber', { service: 'wa', country: '16' })).text.split(':')[1]!;
    const finished = await buy();
    await sim.advance(10_000);
    await call(sim, 'setStatus', { id: finished, status: '6' });
    sim.clock.advance(60_000);
    const cancelled = await buy();
    await call(sim, 'setStatus', { id: cancelled, status: '8' });
    sim.clock.advance(60_000);
    await sim.control('settings', { noSmsRate: 1 });
    const refunded = await buy();
    await sim.advance(21 * MINUTE_MS);
    const live = await buy();

    const history = JSON.parse((await call(sim, 'getHistory', { start: String(startS) })).text);
    expect(history.map((item: { id: number }) => String(item.id))).toEqual([
      live,
      refunded,
      cancelled,
      finished,
    ]);
    expect(history.map((item: { status: string }) => item.status)).toEqual(['4', '10', '8', '6']);
    expect(history[3]).toMatchObject({
      id: Number(finished),
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/),
      phone: expect.stringMatching(/^447\d{9}$/),
      sms: [expect.stringMatching(/^\d{3}-\d{3}$/)],
      cost: expect.any(Number),
      currency: 840,
    });
    expect(history[3].cost).toBeGreaterThan(0);
    expect(history.slice(0, 3).map((item: { cost: number }) => item.cost)).toEqual([0, 0, 0]);
    expect(history[0].sms).toBeNull();

    const window = JSON.parse(
      (await call(sim, 'getHistory', { start: String(startS + 30), end: String(startS + 90), limit: '5' }))
        .text,
    );
    expect(window.map((item: { id: number }) => String(item.id))).toEqual([cancelled]);
    const paged = JSON.parse((await call(sim, 'getHistory', { offset: '1', limit: '2' })).text);
    expect(paged.map((item: { id: number }) => String(item.id))).toEqual([refunded, cancelled]);
    expect((await call(sim, 'getHistory', { start: 'yesterday' })).text).toBe('WRONG_DATE');
    expect((await call(sim, 'getHistory', { start: String(startS - 31 * 24 * 3600) })).text).toBe(
      'WRONG_DATE',
    );

    await sim.control('style', { style: 'hero' });
    const hero = JSON.parse((await call(sim, 'getHistory', { start: String(startS), size: '10' })).text);
    expect(hero[3]).toMatchObject({ id: finished, sms: expect.stringContaining('WhatsApp') });
    const wrongDate = await call(sim, 'getHistory', { end: '-5' });
    expect([wrongDate.status, JSON.parse(wrongDate.text).title]).toEqual([400, 'WRONG_DATE']);
  });
});

describe('the account', () => {
  it('keeps charges and refunds to the cent: balance, history costs and the control account agree', async () => {
    const sim = await simulator({ earlyCancelMs: 0, noSmsRate: 1 });
    const balanceCents = async () =>
      Math.round(Number((await call(sim, 'getBalance')).text.split(':')[1]) * 100);
    const startCents = await balanceCents();
    const buy = async () =>
      (await call(sim, 'getNumber', { service: 'tg', country: '187' })).text.split(':')[1]!;
    const billed = await buy();
    await sim.control('sms', { activationId: billed, code: '12345' });
    await call(sim, 'setStatus', { id: billed, status: '6' });
    const cancelled = await buy();
    await call(sim, 'setStatus', { id: cancelled, status: '8' });
    const expired = await buy();
    await sim.advance(21 * MINUTE_MS);

    const { account } = (await sim.control('account', {})).body as {
      account: { balanceCents: number; chargedCents: number; returnedCents: number; orders: unknown[] };
    };
    expect(account.orders).toHaveLength(3);
    const history = JSON.parse((await call(sim, 'getHistory')).text) as Array<{ id: number; cost: number }>;
    const keptCents = history.reduce((sum, item) => sum + Math.round(item.cost * 100), 0);
    expect(account.chargedCents - account.returnedCents).toBe(keptCents);
    expect(keptCents).toBeGreaterThan(0);
    expect(await balanceCents()).toBe(startCents - keptCents);
    expect(account.balanceCents).toBe(startCents - keptCents);
    expect(history.find((item) => String(item.id) === expired)?.cost).toBe(0);

    await sim.control('balance', { balanceUsd: 0.01 });
    expect((await call(sim, 'getNumber', { service: 'tg', country: '187' })).text).toBe('NO_BALANCE');
  });
});

describe('price tiers', () => {
  it('lists stock at any price as count and the stock per price as tiers, in each action and style', async () => {
    const sim = await simulator();
    const offer = await tieredOffer(sim);
    const [listed, dearer] = offer.tiers as [Tier, Tier];
    expect(offer.price).toBe(listed.price);
    expect(dearer.price).toBeGreaterThan(listed.price);
    expect(offer.count).toBe(offer.tiers.reduce((sum, tier) => sum + tier.stock, 0));
    const classicPrices = await prices(sim);
    expect(classicPrices[offer.country]![offer.service]).toEqual({ cost: listed.price, count: offer.count });
    const top = JSON.parse((await call(sim, 'getTopCountriesByService', { freePrice: 'true' })).text);
    expect(Object.keys(top)).toContain('tg');
    expect(Object.keys(top.tg)).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(top.tg['0'].freePriceMap).toBeDefined();

    await sim.control('style', { style: 'hero' });
    const heroPrices = JSON.parse((await call(sim, 'getPrices')).text);
    expect(heroPrices[offer.country][offer.service]).toEqual({
      cost: listed.price,
      count: offer.count,
      physicalCount: listed.stock,
    });
    // Hero has no getPricesVerification; its top-country lists carry the tiers for every service at once.
    expect((await call(sim, 'getPricesVerification')).status).toBe(404);
    const [heroTop] = JSON.parse((await call(sim, 'getTopCountriesByService')).text);
    expect(heroTop.tg).toHaveLength(10);
    expect(heroTop.tg[0]).toMatchObject({
      physicalTotalCount: heroTop.tg[0].count,
      physicalCountForDefaultPrice: expect.any(Number),
      physicalPriceMap: expect.any(Object),
    });
    expect(heroTop.tg[0].retail_price).toBeGreaterThan(heroTop.tg[0].price);
  });

  it('sells above the listed price only within a ceiling, once the listed numbers are gone', async () => {
    const sim = await simulator();
    const offer = await tieredOffer(sim);
    const [listed, dearer] = offer.tiers as [Tier, Tier];
    const buy = (params: Record<string, string> = {}) =>
      call(sim, 'getNumberV2', { service: offer.service, country: offer.country, ...params });
    for (let index = 0; index < listed.stock; index++) {
      const bought = JSON.parse((await buy({ maxPrice: String(listed.price) })).text);
      expect(Number(bought.activationCost)).toBe(listed.price);
    }
    // No ceiling: the listed price only, as SMS-Activate sells without maxPrice.
    expect((await buy()).text).toBe('NO_NUMBERS');
    expect((await buy({ maxPrice: String(listed.price) })).text).toBe(
      `WRONG_MAX_PRICE:${dearer.price.toFixed(2)}`,
    );
    const dearerBuy = JSON.parse((await buy({ maxPrice: '3' })).text);
    expect(Number(dearerBuy.activationCost)).toBe(dearer.price);
    const after: Verification = JSON.parse(
      (await call(sim, 'getPricesVerification', { service: offer.service, freePrice: 'true' })).text,
    );
    expect(after[offer.service]![offer.country]!.freePriceMap).toMatchObject({
      [listed.price.toFixed(2)]: 0,
      [dearer.price.toFixed(2)]: dearer.stock - 1,
    });

    // A restock puts the sold numbers back; the ids go on from where they were.
    expect((await sim.control('restock')).status).toBe(200);
    const again = JSON.parse((await buy({ maxPrice: String(listed.price) })).text);
    expect(Number(again.activationCost)).toBe(listed.price);
    expect(Number(again.activationId)).toBeGreaterThan(Number(dearerBuy.activationId));
  });
});

describe('the catalog', () => {
  it('is the same for a seed and different for another', async () => {
    const first = await prices(await simulator({ seed: 42 }));
    const again = await prices(await simulator({ seed: 42 }));
    const other = await prices(await simulator({ seed: 43 }));
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
  });

  it('prices between the bounds, dearer in the US than in Indonesia, with empty and deep stock', async () => {
    const table = await prices(await simulator());
    const offers = Object.values(table).flatMap((row) => Object.values(row));
    expect(offers.every((offer) => offer.cost >= MIN_PRICE_USD && offer.cost <= MAX_PRICE_USD)).toBe(true);
    expect(offers.filter((offer) => offer.count === 0).length).toBeGreaterThan(offers.length * 0.05);
    expect(offers.some((offer) => offer.count > 10_000)).toBe(true);
    const average = (countryId: string) => {
      const row = Object.values(table[countryId]!);
      return row.reduce((sum, offer) => sum + offer.cost, 0) / row.length;
    };
    expect(average('187')).toBeGreaterThan(average('6') * 2);
    expect(table['187']!.wa!.cost).toBeGreaterThan(table['187']!.ot!.cost);
  });

  it('drifts a little over time', async () => {
    const sim = await simulator();
    const before = await prices(sim);
    sim.advance(5 * HOUR_MS);
    const after = await prices(sim);
    const pairs = Object.keys(before).flatMap((country) =>
      Object.keys(before[country]!).map(
        (service) => [before[country]![service]!, after[country]![service]!] as const,
      ),
    );
    expect(pairs.some(([earlier, later]) => earlier.cost !== later.cost)).toBe(true);
    expect(pairs.some(([earlier, later]) => earlier.count !== later.count)).toBe(true);
    for (const [earlier, later] of pairs)
      expect(Math.abs(later.cost - earlier.cost)).toBeLessThanOrEqual(earlier.cost * 0.12 + 0.01);
  });
});

describe('the control API', () => {
  it('requires the key header and valid bodies', async () => {
    const sim = await simulator();
    const anonymous = await fetch(`${sim.origin}/simulator/control/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    expect((await sim.control('style', { style: 'pastel' })).status).toBe(400);
    expect((await sim.control('fault', { action: 'getStatus' })).status).toBe(400);
    expect((await sim.control('settings', { smsDelayMinMs: 5000, smsDelayMaxMs: 10 })).status).toBe(400);
    expect((await sim.control('sms', { activationId: '1' })).status).toBe(404);
    expect((await sim.control('teleport')).status).toBe(404);
  });
});
