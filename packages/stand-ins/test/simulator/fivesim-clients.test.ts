import { FiveSim } from '5sim-api';
import { FiveSimAPI } from 'fivesim-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEY, type SimulatorHarness, startSimulator } from '../support/simulator';

const MINUTE_MS = 60_000;

/**
 * The npm clients `fivesim-api` (1.0.0) and `5sim-api` (1.0.2), unmodified, against the simulator speaking
 * 5sim. Both hard-code https://5sim.net/v1; the narrowest way to point them elsewhere is their axios
 * instances' base URL and fivesim-api's static `baseURL`, which its guest calls read.
 */
let sim: SimulatorHarness;
let apiRoot: string;

beforeEach(async () => {
  sim = await startSimulator({ protocol: 'fivesim', noSmsRate: 1 });
  apiRoot = `${sim.origin}/simulator/v1`;
  (FiveSimAPI as unknown as { baseURL: string }).baseURL = apiRoot;
});
afterEach(async () => {
  await sim.close();
});

function fivesimApi(): FiveSimAPI {
  const client = new FiveSimAPI(SIMULATOR_KEY);
  (client as unknown as { client: { defaults: { baseURL: string } } }).client.defaults.baseURL = apiRoot;
  return client;
}

/** 5sim-api keeps one axios instance per part of the API, in protected fields. */
type FiveSimParts = Record<
  'balance' | 'orderHistory' | 'number' | 'sms',
  { api: { defaults: { baseURL: string } } }
>;

function fiveSimApi(): FiveSim {
  const client = new FiveSim(SIMULATOR_KEY);
  const parts = client as unknown as FiveSimParts;
  for (const part of [parts.balance, parts.orderHistory, parts.number, parts.sms])
    part.api.defaults.baseURL = `${apiRoot}/`;
  return client;
}

describe('the 5sim clients against the simulator speaking 5sim', () => {
  it('narrows guest/prices to the country and the product asked for, as 5sim does', async () => {
    const everything = await FiveSimAPI.getPrices();
    expect(Object.keys(everything).length).toBeGreaterThan(10);
    expect(everything.england?.telegram).toBeDefined();

    const england = await FiveSimAPI.getPricesByCountry('england');
    expect(Object.keys(england)).toEqual(['england']);
    expect(Object.keys(england.england!).length).toBeGreaterThan(1);

    const both = await FiveSimAPI.getPricesByCountryAndProduct('england', 'telegram');
    expect(Object.keys(both)).toEqual(['england']);
    expect(Object.keys(both.england!)).toEqual(['telegram']);
    expect(both.england!.telegram).toEqual(everything.england!.telegram);

    // By product alone the product comes first: product → country → operator.
    const telegram = (await FiveSimAPI.getPricesByProduct('telegram')) as unknown as Record<
      string,
      Record<string, unknown>
    >;
    expect(Object.keys(telegram)).toEqual(['telegram']);
    expect(telegram.telegram!.england).toEqual(everything.england!.telegram);

    await expect(FiveSimAPI.getPricesByCountry('atlantis')).rejects.toMatchObject({ status: 400 });
  });

  it('keeps a banned order BANNED: in the ban answer, the order check and the order history', async () => {
    const buyer = fiveSimApi();
    const reader = fivesimApi();
    const bought = await buyer.buyActivationNumber({
      country: 'england',
      operator: 'any',
      product: 'telegram',
    });
    expect(bought).toMatchObject({ status: 'RECEIVED', phone: expect.stringMatching(/^\+44\d+$/) });
    const { balance } = await buyer.getUserBalance();

    sim.clock.advance(3 * MINUTE_MS);
    expect((await buyer.banNumber(bought.id)).status).toBe('BANNED');
    expect((await reader.checkOrder(bought.id)).status).toBe('BANNED');
    const history = await buyer.getOrderHistory('activation');
    expect(history.Data.find((order) => order.id === bought.id)?.status).toBe('BANNED');
    // Banned like a cancel: the money comes back.
    expect((await buyer.getUserBalance()).balance).toBeCloseTo(balance + bought.price, 6);
  });
});
