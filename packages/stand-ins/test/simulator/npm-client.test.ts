import SMSActivate from 'sms-activate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SIMULATOR_KEY, type SimulatorHarness, startSimulator } from '../support/simulator';

const MINUTE_MS = 60_000;

/**
 * The npm client `sms-activate` (1.0.1), unmodified, against the simulator on a real port. Its base URL is
 * hard-coded in its constructor (sms-activate.ru); the narrowest way to point it elsewhere is its public
 * axios instance's `session.defaults.baseURL`. It calls getBalance, getBalanceAndCashBack, getNumber,
 * setStatus and getStatus (getCode reads getStatus too), always as a POST with the parameters in the query.
 */
let sim: SimulatorHarness;
let client: SMSActivate;

beforeEach(async () => {
  sim = await startSimulator({ noSmsRate: 1 });
  client = new SMSActivate(SIMULATOR_KEY);
  client.session.defaults.baseURL = sim.handlerUrl;
});
afterEach(async () => {
  await sim.close();
});

const stateOf = async (id: number) =>
  (await sim.control('state', { activationId: String(id) })).body.activation;

describe('the npm client sms-activate against the simulator', () => {
  it('reads the balance, buys, reads the status and codes, asks for another SMS and finishes', async () => {
    expect(await client.getBalance()).toBe(1000);
    expect(await client.getBalance(true)).toBe(1000);

    const bought = await client.getNumber('tg', 187);
    expect(bought).toEqual({ id: expect.any(Number), number: expect.any(Number) });
    expect(String(bought!.number)).toMatch(/^1[2-9]\d{2}[2-9]\d{6}$/);
    const activation = await stateOf(bought!.id);
    expect(activation).toMatchObject({ service: 'tg', countryId: 187, status: 'waiting' });
    expect(String(bought!.number)).toBe(activation.phoneNumber);
    // The client reads the balance as a whole number.
    expect(await client.getBalance()).toBe(Math.floor(1000 - activation.costUsd));

    expect(await client.getStatus(bought!.id)).toBe('STATUS_WAIT_CODE');
    expect(await client.getCode(bought!.id)).toBeNull();
    expect(await client.setStatus(bought!.id, 1)).toBe('ACCESS_READY');

    await sim.control('sms', { activationId: bought!.id, code: '48213', text: 'Telegram code 48213' });
    expect(await client.getStatus(bought!.id)).toBe('STATUS_OK');
    expect(await client.getCode(bought!.id)).toBe('48213');

    expect(await client.setStatus(bought!.id, 3)).toBe('ACCESS_RETRY_GET');
    expect(await client.getStatus(bought!.id)).toBe('STATUS_WAIT_RETRY');
    await sim.control('sms', { activationId: bought!.id, code: '55120', text: 'Telegram code 55120' });
    expect(await client.getCode(bought!.id)).toBe('55120');

    expect(await client.setStatus(bought!.id, 6)).toBe('ACCESS_ACTIVATION');
    expect((await stateOf(bought!.id)).status).toBe('finished');
    expect(await client.getCode(bought!.id)).toBe('55120');
  });

  it('cancels after the first two minutes, and gets the money back', async () => {
    const before = await client.getBalance();
    const bought = await client.getNumber('wa', 16);
    expect(String(bought!.number)).toMatch(/^447\d{9}$/);
    // The client passes this refusal on as the answer it is.
    expect(await client.setStatus(bought!.id, 8)).toBe('EARLY_CANCEL_DENIED');
    sim.clock.advance(2 * MINUTE_MS);
    expect(await client.setStatus(bought!.id, 8)).toBe('ACCESS_CANCEL');
    expect(await client.getStatus(bought!.id)).toBe('STATUS_CANCEL');
    expect((await stateOf(bought!.id)).status).toBe('cancelled');
    expect(await client.getBalance()).toBe(before);
  });

  it('sees each refusal as the error class the client has for it', async () => {
    const refused = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: Error) => ({ name: error.name, message: error.message }),
      );
    const bought = await client.getNumber('tg', 187);

    expect(await refused(client.getNumber('nope', 187))).toMatchObject({ name: 'BadService' });
    // The simulator has no numbers that forward calls (getNumbersStatus counts none).
    expect(await refused(client.getNumber('tg', 187, true))).toMatchObject({ name: 'NoFreeNumbers' });
    expect(await refused(client.getStatus(1))).toMatchObject({ name: 'InvalidActivation' });
    expect(await refused(client.setStatus(bought!.id, 5))).toMatchObject({ name: 'BadStatus' });
    for (const [token, name] of [
      ['NO_NUMBERS', 'NoFreeNumbers'],
      ['NO_BALANCE', 'NoBalance'],
      ['ERROR_SQL', 'SQLError'],
    ]) {
      await sim.control('fault', { action: 'getNumber', token });
      expect(await refused(client.getNumber('tg', 187)), token).toMatchObject({ name });
    }
    await sim.control('fault', { action: 'getBalance', token: 'BANNED' });
    expect(await refused(client.getBalance())).toMatchObject({
      name: 'BannedUser',
      message: expect.stringMatching(/^Banned until '\d{4}-\d{1,2}-\d{1,2} \d{2}-\d{2}-\d{2}'$/),
    });

    const stranger = new SMSActivate('not-the-key');
    stranger.session.defaults.baseURL = sim.handlerUrl;
    expect(await refused(stranger.getBalance())).toMatchObject({ name: 'InvalidAPIKey' });
  });
});
