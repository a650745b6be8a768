import { SIMULATOR_KEY, startWebhookReceiver } from '@simcode/stand-ins/testing';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDatabase, testDatabaseUrl } from '../../../../test/support/database';
import { type SimulatorHarness, startSimulator } from '../../../../test/support/stand-ins';
import { createSharedTurnPort, createSimStateStore } from '../../stand-in-stores';
import { UpstreamError } from '../types';

/** The built-in simulator as this adapter meets it: its numbers, its faults, its timer and its pushes. */

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

describe('the catalog', () => {
  it('issues numbers in each country’s format, never twice among live ones', async () => {
    const sim = await simulator();
    const formats: Array<[string, RegExp]> = [
      ['US', /^1[2-9]\d{2}[2-9]\d{6}$/],
      ['GB', /^447\d{9}$/],
      ['DE', /^491[567]\d{9}$/],
      ['IN', /^91[6-9]\d{9}$/],
      ['RU', /^79\d{9}$/],
      ['FR', /^33[67]\d{8}$/],
      ['BR', /^55\d{2}9\d{8}$/],
    ];
    for (const [countryId, format] of formats) {
      const bought = await sim.provider.buyActivation({ service: 'ot', countryId, maxPrice: 3 });
      expect(bought.phoneNumber, countryId).toMatch(format);
    }
    const numbers = new Set<string>();
    for (let index = 0; index < 60; index++) {
      numbers.add(
        (await sim.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 })).phoneNumber,
      );
    }
    expect(numbers.size).toBe(60);
  });
});

describe('the control API', () => {
  it('keeps a fault until cleared when told, slows answers, and resets everything', async () => {
    const sim = await simulator({}, { timeoutMs: 150 });
    await sim.control('fault', { action: 'getPrices', token: 'ERROR_SQL', times: 0 });
    for (let index = 0; index < 4; index++) expect((await call(sim, 'getPrices')).text).toBe('ERROR_SQL');
    await sim.control('clear-faults');
    expect((await call(sim, 'getPrices')).status).toBe(200);

    await sim.control('fault', { action: 'getBalance', delayMs: 20 });
    expect((await call(sim, 'getBalance')).text).toMatch(/^ACCESS_BALANCE:/);
    await sim.control('fault', { action: 'getNumberV2', delayMs: 1000 });
    const slow = await sim.provider
      .buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 })
      .catch((error) => error);
    expect(slow).toBeInstanceOf(UpstreamError);
    expect(slow).toMatchObject({ kind: 'unavailable', outcomeUnknown: true });

    await sim.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
    await sim.control('style', { style: 'hero' });
    await sim.control('fault', { token: 'NO_BALANCE', times: 0 });
    expect((await sim.control('reset')).status).toBe(200);
    expect((await call(sim, 'getBalance')).text).toBe('ACCESS_BALANCE:1000.00');
    expect(await sim.provider.listActiveActivations(0)).toEqual({ items: [], hasMore: false });
  });

  it('hangs and resets connections on request, without keeping the server from closing', async () => {
    const sim = await startSimulator({}, { timeoutMs: 150 });
    await sim.control('fault', { action: 'getStatus', broken: 'hang', times: 3 });
    await expect(sim.provider.getActivationState('1')).rejects.toMatchObject({ kind: 'unavailable' });
    await sim.control('fault', { action: 'getStatus', broken: 'reset', times: 3 });
    await expect(sim.provider.getActivationState('1')).rejects.toMatchObject({ kind: 'unavailable' });

    await sim.control('fault', { action: 'getBalance', broken: 'hang' });
    const pending = call(sim, 'getBalance').catch((error: unknown) => error);
    await vi.waitFor(async () => expect((await sim.control('faults')).body.faults).toEqual([]));
    await sim.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it('tells the state of an activation and of a rent', async () => {
    const sim = await simulator();
    const bought = await sim.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
    const rented = await sim.provider.rentNumber({ service: 'tg', countryId: 'US', hours: 4 });
    sim.clock.advance(10_000);
    const activation = (await sim.control('state', { activationId: bought.activationId })).body.activation;
    expect(activation).toMatchObject({ phoneNumber: bought.phoneNumber, status: 'received', service: 'tg' });
    expect(activation.sms).toHaveLength(1);
    const rent = (await sim.control('state', { rentId: rented.rentId })).body.rent;
    expect(rent).toMatchObject({ phoneNumber: rented.phoneNumber, status: 'active' });
    expect(rent.sms).toHaveLength(1);
  });
});

describe('running', () => {
  it('delivers SMS from its timer', async () => {
    const sim = await simulator({ tickIntervalMs: 10 });
    sim.simulator.start();
    const bought = await sim.provider.buyActivation({ service: 'go', countryId: 'GB', maxPrice: 3 });
    sim.clock.advance(10_000);
    await vi.waitFor(async () =>
      expect((await sim.control('state', { activationId: bought.activationId })).body.activation.status).toBe(
        'received',
      ),
    );
  });

  it('retries a webhook that fails, and gives up after five retries', async () => {
    const flaky = await startWebhookReceiver([500, 502]);
    const dead = await startWebhookReceiver(Array(10).fill(500));
    let target = flaky.url;
    const sim = await simulator({ activationWebhookUrl: () => target });
    try {
      const first = await sim.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
      sim.advance(10_000);
      // Each poll moves the clock on, so every retry that is due gets its turn.
      await vi.waitFor(() => {
        sim.advance(1000);
        expect(flaky.received).toHaveLength(1);
      });
      expect(flaky.attempts()).toBe(3);
      expect(flaky.received[0]).toMatchObject({
        activationId: Number(first.activationId),
        service: 'tg',
        country: 187,
      });

      target = dead.url;
      await sim.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
      sim.advance(10_000);
      await vi.waitFor(() => {
        sim.advance(60_000);
        expect(dead.attempts()).toBe(6);
      });
      for (let poll = 0; poll < 5; poll++) {
        sim.advance(HOUR_MS);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(dead.attempts()).toBe(6);
    } finally {
      await flaky.close();
      await dead.close();
    }
  });
});

describe('the stored state', () => {
  // Opening the database takes seconds on a busy machine: a hook's time, not a test's.
  beforeAll(() => testDatabase(), 180_000);

  /** Two simulators on one database, the second never told the first stopped: as after a crash. */
  async function storedSimulator(instance = 'sim-a') {
    const database = await testDatabase();
    return simulator({ store: createSimStateStore(database.db, instance), earlyCancelMs: 0 });
  }

  it('holds every acknowledged change the moment the answer arrives, with no stop and no timer', async () => {
    const first = await storedSimulator();
    const bought = await first.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
    const canceled = await first.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
    await first.provider.cancelActivation(canceled.activationId);
    const rented = await first.provider.rentNumber({ service: 'wa', countryId: 'GB', hours: 24 });
    await first.advance(10_000);
    const code = await first.provider.getActivationState(bought.activationId);
    expect(code.kind).toBe('code');

    const second = await storedSimulator();
    await second.simulator.load();
    expect(await second.provider.getActivationState(bought.activationId)).toEqual(code);
    expect(await second.provider.getActivationState(canceled.activationId)).toEqual({ kind: 'cancelled' });
    expect(await second.provider.listActiveRents()).toEqual([
      { rentId: rented.rentId, phoneNumber: rented.phoneNumber },
    ]);
    // A canceled activation gets no SMS after the restart.
    await second.advance(60 * MINUTE_MS);
    expect(await second.provider.getActivationState(canceled.activationId)).toEqual({ kind: 'cancelled' });
    const next = await second.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
    expect(Number(next.activationId)).toBeGreaterThan(Number(canceled.activationId));
  });

  it('keeps each instance apart', async () => {
    const a = await storedSimulator('sim-a');
    const bought = await a.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 });
    const b = await storedSimulator('sim-b');
    await b.simulator.load();
    await expect(b.provider.getActivationState(bought.activationId)).rejects.toThrow(UpstreamError);
  });
});

// Two servers on one PostgreSQL database, each serving the built-in simulator (a public demo behind a load
// balancer). An embedded database has a single process: nothing to share.
describe.skipIf(!testDatabaseUrl)('one simulator served by two processes', () => {
  beforeAll(() => testDatabase(), 180_000);

  async function servedTwice() {
    const database = await testDatabase();
    const served = () =>
      simulator({
        store: createSimStateStore(database.db, 'shared'),
        sharedTurns: createSharedTurnPort(database, 'sim:shared'),
        earlyCancelMs: 0,
      });
    const [a, b] = [await served(), await served()];
    await Promise.all([a.simulator.load(), b.simulator.load()]);
    return [a, b] as const;
  }

  it('issues each id once, and either process answers for an order the other issued', async () => {
    const [a, b] = await servedTwice();
    const buys = Array.from({ length: 24 }, (_, index) =>
      (index % 2 === 0 ? a : b).provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 }),
    );
    const bought = await Promise.all(buys);
    expect(new Set(bought.map((order) => order.activationId)).size).toBe(24);
    expect(new Set(bought.map((order) => order.phoneNumber)).size).toBe(24);

    const [fromA, fromB] = [bought[0]!, bought[1]!];
    await b.provider.cancelActivation(fromA.activationId);
    expect(await a.provider.getActivationState(fromA.activationId)).toEqual({ kind: 'cancelled' });
    const sms = await a.control('sms', { activationId: fromB.activationId });
    expect(sms.status).toBe(200);
    expect(await b.provider.getActivationState(fromB.activationId)).toEqual({
      kind: 'code',
      code: sms.body.sms.code,
    });
    // One account: both see every charge and the refund.
    const [accountA, accountB] = [await a.control('account'), await b.control('account')];
    expect(accountA.body).toEqual(accountB.body);
    expect(accountA.body.account.balanceCents).toBeLessThan(100_000);
  });
});
