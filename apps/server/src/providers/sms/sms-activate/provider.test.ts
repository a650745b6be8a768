import { SIMULATOR_KEY, startWebhookReceiver } from '@simcode/stand-ins/testing';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type SimulatorHarness, startSimulator } from '../../../../test/support/stand-ins';
import { type UpstreamError, UpstreamError as UpstreamErrorClass, type UpstreamErrorKind } from '../types';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

async function upstreamError(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(UpstreamErrorClass);
  return error as UpstreamError;
}

describe.each(['classic', 'hero'] as const)(
  'SMS-Activate adapter against the simulator (%s style)',
  (style) => {
    let sim: SimulatorHarness;

    beforeEach(async () => {
      sim = await startSimulator({ responseStyle: style });
    });
    afterEach(async () => {
      await sim.close();
    });

    const buyTelegram = (countryId = 'US') =>
      sim.provider.buyActivation({ service: 'tg', countryId, operator: 'any', maxPrice: 3 });

    it('reads the catalog: every country by ISO code, operators, rent support, prices and stock', async () => {
      const catalog = await sim.provider.getCatalog();
      expect(catalog.countries.length).toBeGreaterThanOrEqual(184);
      expect(catalog.countries.find((country) => country.countryId === 'US')).toEqual({
        countryId: 'US',
        operators: ['tmobile', 'verizon', 'att'],
        rentSupported: true,
      });
      expect(catalog.countries.find((country) => country.countryId === 'GB')?.operators).toEqual([
        'ee',
        'vodafone',
        'three',
        'o2',
      ]);
      const telegramUs = catalog.offers.find((offer) => offer.countryId === 'US' && offer.service === 'tg');
      expect(telegramUs?.cost).toBeGreaterThanOrEqual(0.05);
      expect(telegramUs?.cost).toBeLessThanOrEqual(3);
      expect(catalog.offers.some((offer) => offer.stock === 0)).toBe(true);
      expect(catalog.offers.some((offer) => offer.stock > 1000)).toBe(true);
      expect(new Set(catalog.offers.map((offer) => offer.service)).has('ot')).toBe(true);
    });

    it('buys a number, reports waiting, then the code, and finishes', async () => {
      const bought = await buyTelegram();
      expect(bought.activationId).toMatch(/^\d+$/);
      expect(bought.phoneNumber).toMatch(/^1[2-9]\d{2}[2-9]\d{6}$/);
      expect(bought.cost).toBeGreaterThan(0);
      if (style === 'hero')
        expect(bought.expiresAt?.getTime()).toBe(sim.clock.now().getTime() + 20 * MINUTE_MS);

      expect(await sim.provider.getActivationState(bought.activationId)).toEqual({ kind: 'waiting' });
      sim.advance(10_000);
      const state = await sim.provider.getActivationState(bought.activationId);
      expect(state).toMatchObject({ kind: 'code', code: expect.stringMatching(/^\d{5}$/) });

      await sim.provider.finishActivation(bought.activationId);
      expect((await sim.control('state', { activationId: bought.activationId })).body.activation.status).toBe(
        'finished',
      );
      expect((await sim.provider.listActiveActivations(0)).items).toEqual([]);
    });

    it('reads the full SMS text through getStatusV2, and a cancelled activation as cancelled', async () => {
      await sim.control('settings', { noSmsRate: 1 });
      const bought = await buyTelegram();
      expect(await sim.provider.getActivationStateWithText!(bought.activationId)).toEqual({
        kind: 'waiting',
      });
      await sim.control('sms', {
        activationId: bought.activationId,
        code: '40917',
        text: 'Telegram code 40917',
      });
      expect(await sim.provider.getActivationStateWithText!(bought.activationId)).toEqual({
        kind: 'code',
        code: '40917',
        text: 'Telegram code 40917',
      });

      const cancelled = await buyTelegram();
      sim.advance(2 * MINUTE_MS);
      await sim.provider.cancelActivation(cancelled.activationId);
      expect(await sim.provider.getActivationStateWithText!(cancelled.activationId)).toEqual({
        kind: 'cancelled',
      });
    });

    it('lists every SMS of an activation: all of them with getAllSms (Hero), the last one without', async () => {
      await sim.control('settings', { noSmsRate: 1 });
      const bought = await buyTelegram();
      const id = bought.activationId;
      expect(await sim.provider.listActivationMessages(id)).toEqual([]);
      await sim.control('sms', { activationId: id, code: '11111', text: 'Telegram code 11111' });
      sim.clock.advance(1000);
      await sim.provider.requestAnotherSms(id);
      await sim.control('sms', { activationId: id, code: '22222', text: 'Telegram code 22222' });
      const messages = await sim.provider.listActivationMessages(id);
      const second = { code: '22222', text: 'Telegram code 22222' };
      if (style === 'hero') {
        const at = sim.clock.now().getTime();
        expect(messages).toEqual([
          {
            code: '11111',
            text: 'Telegram code 11111',
            from: expect.any(String),
            receivedAt: new Date(at - 1000),
          },
          { ...second, from: expect.any(String), receivedAt: new Date(at) },
        ]);
      } else {
        // SMS-Activate has no getAllSms: getStatusV2 tells the last SMS.
        expect(messages).toEqual([second]);
      }

      const cancelled = await buyTelegram();
      sim.advance(2 * MINUTE_MS);
      await sim.provider.cancelActivation(cancelled.activationId);
      expect(await sim.provider.listActivationMessages(cancelled.activationId)).toEqual([]);
    });

    it("lists the account's recent activations, those getActiveActivations no longer shows included", async () => {
      const since = sim.clock.now().getTime();
      const finished = await buyTelegram();
      await sim.advance(10_000);
      const code = await sim.provider.getActivationState(finished.activationId);
      await sim.provider.finishActivation(finished.activationId);
      await sim.control('settings', { noSmsRate: 1 });
      sim.clock.advance(MINUTE_MS);
      const cancelled = await buyTelegram('GB');
      sim.clock.advance(2 * MINUTE_MS);
      await sim.provider.cancelActivation(cancelled.activationId);
      const live = await buyTelegram();

      const { items, hasMore } = await sim.provider.listRecentActivations(since);
      expect(hasMore).toBe(false);
      expect(items.map((item) => [item.activationId, item.state.kind])).toEqual([
        [live.activationId, 'waiting'],
        [cancelled.activationId, 'cancelled'],
        [finished.activationId, 'finished'],
      ]);
      expect(items[2]).toMatchObject({ phoneNumber: finished.phoneNumber, activatedAt: new Date(since) });
      const received = code.kind === 'code' ? code.code : 'no code';
      // SMS-Activate lists the codes, Hero the last SMS's text.
      expect(items[2]!.messages).toEqual([style === 'hero' ? expect.stringContaining(received) : received]);
      expect((await sim.provider.listActiveActivations(0)).items.map((item) => item.activationId)).toEqual([
        live.activationId,
      ]);
      const later = await sim.provider.listRecentActivations(since + MINUTE_MS);
      expect(later.items.map((item) => item.activationId)).toEqual([
        live.activationId,
        cancelled.activationId,
      ]);
    });

    it('reads every SMS and the history through broken answers, and reports what stays broken', async () => {
      const since = sim.clock.now().getTime();
      const bought = await buyTelegram();
      await sim.advance(10_000);
      await sim.control('fault', { action: 'getHistory', broken: 'html502', times: 2 });
      await sim.control('fault', { action: 'getAllSms', broken: 'garbage', times: 2 });
      await sim.control('fault', { action: 'getStatusV2', token: 'ERROR_SQL', times: 2 });
      const { items } = await sim.provider.listRecentActivations(since);
      expect(items.map((item) => item.activationId)).toEqual([bought.activationId]);
      expect(await sim.provider.listActivationMessages(bought.activationId)).toHaveLength(1);

      await sim.control('fault', { action: 'getHistory', broken: 'reset', times: 3 });
      expect(await upstreamError(sim.provider.listRecentActivations(since))).toMatchObject({
        kind: 'unavailable',
        outcomeUnknown: false,
      });
      await sim.control('fault', { action: 'getHistory', token: 'WRONG_DATE' });
      expect(await upstreamError(sim.provider.listRecentActivations(since))).toMatchObject({
        kind: 'bad_request',
        token: 'WRONG_DATE',
      });
    });

    it('lists active activations with their codes and states', async () => {
      const waiting = await buyTelegram();
      sim.advance(10_000);
      const withCode = await buyTelegram('GB');
      sim.advance(10_000);
      await sim.provider.requestAnotherSms(waiting.activationId);

      const { items, hasMore } = await sim.provider.listActiveActivations(0);
      expect(hasMore).toBe(false);
      expect(items.map((item) => item.activationId)).toEqual([waiting.activationId, withCode.activationId]);
      const [retrying, received] = items;
      expect(retrying).toMatchObject({
        phoneNumber: waiting.phoneNumber,
        service: 'tg',
        countryId: 'US',
        state: { kind: 'waiting_retry', lastCode: retrying?.codes[0] },
      });
      expect(received).toMatchObject({ countryId: 'GB', state: { kind: 'code' } });
      expect(received?.phoneNumber).toMatch(/^447\d{9}$/);
      expect(received?.smsText).toContain('Telegram code');
      expect(received?.activatedAt?.getTime()).toBe(sim.clock.now().getTime() - 10_000);
    });

    it('refuses to cancel in the first 2 minutes, then cancels', async () => {
      await sim.control('settings', { noSmsRate: 1 });
      const bought = await buyTelegram();
      const early = await upstreamError(sim.provider.cancelActivation(bought.activationId));
      expect(early).toMatchObject({
        kind: 'early_cancel_denied',
        userMessage: 'Cancel is possible 2 minutes after purchase.',
      });
      expect(early.outcomeUnknown).toBe(false);

      sim.advance(2 * MINUTE_MS);
      await sim.provider.cancelActivation(bought.activationId);
      expect(await sim.provider.getActivationState(bought.activationId)).toEqual({ kind: 'cancelled' });
      const again = await upstreamError(sim.provider.cancelActivation(bought.activationId));
      expect(again.kind).toBe('not_found');
    });

    it('refuses to cancel once a code arrived', async () => {
      const bought = await buyTelegram();
      sim.advance(3 * MINUTE_MS);
      const error = await upstreamError(sim.provider.cancelActivation(bought.activationId));
      expect(error.kind).toBe('cannot_cancel');
      expect(error.userMessage).toMatch(/code has already arrived/);
    });

    it('asks for another SMS and receives a second code', async () => {
      const bought = await buyTelegram();
      sim.advance(10_000);
      const first = await sim.provider.getActivationState(bought.activationId);
      if (first.kind !== 'code') throw new Error('expected a code');

      await sim.provider.requestAnotherSms(bought.activationId);
      expect(await sim.provider.getActivationState(bought.activationId)).toEqual({
        kind: 'waiting_retry',
        lastCode: first.code,
      });
      sim.advance(10_000);
      const second = await sim.provider.getActivationState(bought.activationId);
      expect(second.kind).toBe('code');
      const listed = (await sim.provider.listActiveActivations(0)).items[0];
      if (style === 'hero') expect(listed?.codes).toHaveLength(2);
      else expect(listed?.codes).toHaveLength(1);
    });

    it('cancels an activation without an SMS after 20 minutes, and finishes one with a code', async () => {
      await sim.control('settings', { noSmsRate: 1 });
      const silent = await buyTelegram();
      await sim.control('settings', { noSmsRate: 0 });
      const answered = await buyTelegram();

      sim.advance(19 * MINUTE_MS);
      expect(await sim.provider.getActivationState(silent.activationId)).toEqual({ kind: 'waiting' });
      sim.advance(MINUTE_MS);
      expect(await sim.provider.getActivationState(silent.activationId)).toEqual({ kind: 'cancelled' });
      expect(await sim.provider.getActivationState(answered.activationId)).toMatchObject({ kind: 'code' });
      expect(
        (await sim.control('state', { activationId: answered.activationId })).body.activation.status,
      ).toBe('finished');
    });

    it('refuses a buy whose ceiling is below the current price', async () => {
      const error = await upstreamError(
        sim.provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 0.01 }),
      );
      expect(error).toMatchObject({ kind: 'no_numbers', token: 'WRONG_MAX_PRICE', outcomeUnknown: false });
    });

    it('buys from a chosen operator and refuses an operator the country does not have', async () => {
      const bought = await sim.provider.buyActivation({
        service: 'wa',
        countryId: 'GB',
        operator: 'ee',
        maxPrice: 3,
      });
      expect(
        (await sim.control('state', { activationId: bought.activationId })).body.activation.operator,
      ).toBe('ee');
      const error = await upstreamError(
        sim.provider.buyActivation({ service: 'wa', countryId: 'GB', operator: 'verizon', maxPrice: 3 }),
      );
      expect(error.kind).toBe('bad_request');
    });

    it('reads the stock at the listed price, not the stock at any price', async () => {
      const catalog = await sim.provider.getCatalog();
      const anyPrice: Record<
        string,
        Record<string, { cost: number; count: number; physicalCount?: number }>
      > = JSON.parse((await sim.raw({ api_key: SIMULATOR_KEY, action: 'getPrices', country: '187' })).text);
      // Where the tiers come from differs (getPricesVerification; Hero: physicalCount and its top lists).
      const listed =
        style === 'hero'
          ? (service: string) => anyPrice['187']![service]!.physicalCount!
          : async (service: string) => {
              const tiers = JSON.parse(
                (
                  await sim.raw({
                    api_key: SIMULATOR_KEY,
                    action: 'getPricesVerification',
                    service,
                    freePrice: 'true',
                  })
                ).text,
              )[service]['187'].freePriceMap;
              return Object.values(tiers)[0];
            };
      const us = catalog.offers.filter((offer) => offer.countryId === 'US');
      const overstated = us.filter((offer) => offer.stock < anyPrice['187']![offer.service]!.count);
      const inStock = overstated.filter((entry) => entry.stock > 0);
      expect(inStock.length).toBeGreaterThan(0);
      for (const offer of inStock) {
        expect(offer.cost, offer.service).toBe(anyPrice['187']![offer.service]!.cost);
        expect(offer.stock, offer.service).toBe(await listed(offer.service));
      }
    });

    it('takes sold numbers off the stock', async () => {
      const stockOf = async () =>
        (await sim.provider.getCatalog()).offers.find(
          (offer) => offer.countryId === 'US' && offer.service === 'tg',
        )?.stock ?? 0;
      const before = await stockOf();
      await buyTelegram();
      await buyTelegram();
      expect(await stockOf()).toBe(before - 2);
    });

    it.each([
      ['NO_NUMBERS', 'no_numbers', false],
      ['NO_BALANCE', 'no_balance', false],
      ['BANNED', 'account_blocked', false],
      ['ERROR_SQL', 'provider_error', true],
    ] as const)('maps a forced %s on a buy to %s', async (token, kind, outcomeUnknown) => {
      await sim.control('fault', { action: 'getNumberV2', token });
      const error = await upstreamError(buyTelegram());
      expect(error).toMatchObject({ kind, token, outcomeUnknown });
      if (kind === 'no_balance' || kind === 'account_blocked') {
        expect(error.userMessage).toBe(
          'The number provider is temporarily unavailable. Please try again later.',
        );
      }
      // The fault was used once; the next buy succeeds.
      await expect(buyTelegram()).resolves.toMatchObject({ activationId: expect.any(String) });
    });

    it('retries a read through two broken answers but never repeats a buy', async () => {
      const bought = await buyTelegram();
      await sim.control('fault', { action: 'getStatus', broken: 'html502', times: 2 });
      expect(await sim.provider.getActivationState(bought.activationId)).toEqual({ kind: 'waiting' });

      await sim.control('fault', { action: 'getNumberV2', broken: 'html502' });
      const error = await upstreamError(buyTelegram());
      expect(error).toMatchObject({ kind: 'unavailable', outcomeUnknown: true });
      expect(error.userMessage).toBe('The number provider did not answer. Please try again.');
      const { items } = await sim.provider.listActiveActivations(0);
      expect(items).toHaveLength(1);
    });

    it('reports a wrong key as a configuration problem', async () => {
      const other = await startSimulator({ responseStyle: style, apiKey: 'another-key' });
      try {
        const error = await upstreamError(other.provider.getCatalog());
        expect(error).toMatchObject({ kind: 'configuration', token: 'BAD_KEY' });
      } finally {
        await other.close();
      }
    });

    it('rents a number that receives several SMS, can be extended and finished', async () => {
      const catalog = await sim.provider.getRentCatalog({ hours: 24, countryId: 'US' });
      expect(catalog.countries).toContain('US');
      expect(catalog.operators).toEqual(['tmobile', 'verizon', 'att']);
      expect(catalog.services.tg?.cost).toBeGreaterThan(0);
      expect(catalog.services.tg?.stock).toBeGreaterThan(0);

      const rented = await sim.provider.rentNumber({ service: 'tg', countryId: 'US', hours: 24 });
      expect(rented.phoneNumber).toMatch(/^1\d{10}$/);
      expect(rented.endsAt.getTime()).toBe(sim.clock.now().getTime() + 24 * HOUR_MS);
      expect(await sim.provider.getRentState(rented.rentId)).toEqual({ kind: 'waiting' });

      sim.advance(6 * HOUR_MS);
      const state = await sim.provider.getRentState(rented.rentId);
      if (state.kind !== 'messages') throw new Error(`expected messages, got ${state.kind}`);
      expect(state.total).toBeGreaterThan(1);
      expect(state.messages[0]?.receivedAt.getTime()).toBeLessThanOrEqual(sim.clock.now().getTime());
      expect(state.messages.every((message) => message.from !== '' && message.text !== '')).toBe(true);

      expect((await upstreamError(sim.provider.cancelRent(rented.rentId))).kind).toBe('cannot_cancel');

      const price = await sim.provider.getRentExtensionPrice(rented.rentId, 24);
      expect(price).toBeGreaterThan(0);
      const extended = await sim.provider.extendRent(rented.rentId, 24);
      expect(extended.endsAt.getTime()).toBe(rented.endsAt.getTime() + 24 * HOUR_MS);
      expect(await sim.provider.listActiveRents()).toEqual([
        { rentId: rented.rentId, phoneNumber: rented.phoneNumber },
      ]);

      await sim.provider.finishRent(rented.rentId);
      expect(await sim.provider.getRentState(rented.rentId)).toEqual({ kind: 'finished' });
      expect(await sim.provider.listActiveRents()).toEqual([]);
      expect((await upstreamError(sim.provider.extendRent(rented.rentId, 4))).kind).toBe('not_found');
    });

    it('cancels a rent within 20 minutes before any SMS, and not later', async () => {
      await sim.control('settings', { smsDelayMinMs: HOUR_MS, smsDelayMaxMs: HOUR_MS });
      const early = await sim.provider.rentNumber({ service: 'wa', countryId: 'GB', hours: 4 });
      sim.advance(10 * MINUTE_MS);
      await sim.provider.cancelRent(early.rentId);
      expect(await sim.provider.getRentState(early.rentId)).toEqual({ kind: 'cancelled' });

      const late = await sim.provider.rentNumber({ service: 'wa', countryId: 'GB', hours: 4 });
      sim.advance(21 * MINUTE_MS);
      const error = await upstreamError(sim.provider.cancelRent(late.rentId));
      expect(error).toMatchObject({ kind: 'cannot_cancel', token: 'CANT_CANCEL' });
    });

    it('ends a rent at its end date and refuses unsupported periods', async () => {
      const rented = await sim.provider.rentNumber({ service: 'ot', countryId: 'DE', hours: 4 });
      sim.advance(4 * HOUR_MS);
      expect(await sim.provider.getRentState(rented.rentId)).toEqual({ kind: 'finished' });
      const error = await upstreamError(
        sim.provider.rentNumber({ service: 'tg', countryId: 'DE', hours: 2 }),
      );
      expect(error).toMatchObject({ kind: 'bad_request', token: 'INVALID_TIME' });
    });

    it('pages rent messages', async () => {
      const rented = await sim.provider.rentNumber({ service: 'tg', countryId: 'US', hours: 24 * 30 });
      for (let index = 0; index < 60; index++) {
        await sim.control('sms', { rentId: rented.rentId, from: 'Bank', text: `Message ${index}` });
      }
      const first = await sim.provider.getRentState(rented.rentId);
      const second = await sim.provider.getRentState(rented.rentId, 1);
      if (first.kind !== 'messages' || second.kind !== 'messages') throw new Error('expected messages');
      expect(first.total).toBe(60);
      expect(first.messages).toHaveLength(50);
      expect(second.messages).toHaveLength(10);
      expect(first.messages[0]).toMatchObject({ from: 'Bank', text: 'Message 59' });
    });

    it('delivers an injected SMS at once and pushes activation and rent webhooks the adapter can parse', async () => {
      const receiver = await startWebhookReceiver();
      const rentReceiver = await startWebhookReceiver();
      const pushing = await startSimulator({
        responseStyle: style,
        activationWebhookUrl: () => receiver.url,
      });
      try {
        const bought = await pushing.provider.buyActivation({ service: 'wa', countryId: 'IN', maxPrice: 3 });
        const injected = await pushing.control('sms', {
          activationId: bought.activationId,
          text: 'Your WhatsApp code: 123-456',
        });
        expect(injected.body.sms.code).toBe('123-456');
        expect(await pushing.provider.getActivationState(bought.activationId)).toEqual({
          kind: 'code',
          code: '123-456',
        });
        await vi.waitFor(() => expect(receiver.received).toHaveLength(1));
        expect(pushing.provider.parseWebhook(receiver.received[0])).toEqual({
          type: 'activation',
          activationId: bought.activationId,
          code: '123-456',
          text: 'Your WhatsApp code: 123-456',
          // Who sent it, as the webhook's `phoneFrom` says (Hero's field).
          from: injected.body.sms.from,
          receivedAt: pushing.clock.now(),
        });

        const rented = await pushing.provider.rentNumber({
          service: 'tg',
          countryId: 'US',
          hours: 4,
          webhookUrl: rentReceiver.url,
        });
        pushing.advance(10_000);
        await vi.waitFor(() => expect(rentReceiver.received).toHaveLength(1));
        const event = pushing.provider.parseWebhook(rentReceiver.received[0]);
        expect(event).toMatchObject({ type: 'rent', rentId: rented.rentId, receivedAt: pushing.clock.now() });
      } finally {
        await pushing.close();
        await receiver.close();
        await rentReceiver.close();
      }
    });
  },
);

/** What each documented refusal must mean to us: none of them leaves a call's outcome unknown. */
const HERO_REFUSAL_KINDS: Readonly<Record<string, UpstreamErrorKind>> = {
  BAD_KEY: 'configuration',
  NO_BALANCE: 'no_balance',
  BANNED: 'account_blocked',
  CHANNELS_LIMIT: 'account_blocked',
  ACCOUNT_INACTIVE: 'account_blocked',
  SERVICE_NOT_AVAILABLE: 'no_numbers',
  UNPROCESSABLE_ENTITY: 'bad_request',
  BAD_ACTION: 'bad_request',
  BAD_SERVICE: 'bad_request',
  BAD_STATUS: 'bad_request',
  WRONG_COUNTRY: 'bad_request',
  INVALID_TIME: 'bad_request',
  WRONG_DATE: 'bad_request',
  NO_NUMBERS: 'no_numbers',
  WRONG_MAX_PRICE: 'no_numbers',
  NO_ACTIVATION: 'not_found',
  ACTIVATION_NOT_ACTIVE: 'not_found',
  EARLY_CANCEL_DENIED: 'early_cancel_denied',
  OTP_RECEIVED: 'cannot_cancel',
  NEW_OTP_RECEIVED: 'cannot_cancel',
  FREE_CANCELLATION_EXPIRED: 'cannot_cancel',
  INVALID_PHONE: 'not_found',
  ALREADY_FINISH: 'not_found',
  ALREADY_CANCEL: 'not_found',
  CANT_CANCEL: 'cannot_cancel',
  RENT_DIE: 'not_found',
};

const ACCOUNT = [
  'BAD_KEY',
  'NO_BALANCE',
  'BANNED',
  'CHANNELS_LIMIT',
  'ACCOUNT_INACTIVE',
  'UNPROCESSABLE_ENTITY',
];

/** Each call of the adapter with the refusals Hero documents for its action (protocols.md A.3, A.4.7; HERO-R §2). */
const HERO_REFUSALS: Array<{
  call: string;
  action: string;
  run: (provider: SimulatorHarness['provider']) => Promise<unknown>;
  tokens: string[];
  /** Where a refusal means something else for this call. */
  kinds?: Readonly<Record<string, UpstreamErrorKind>>;
}> = [
  {
    call: 'buyActivation',
    action: 'getNumberV2',
    run: (provider) => provider.buyActivation({ service: 'tg', countryId: 'US', maxPrice: 3 }),
    tokens: [...ACCOUNT, 'SERVICE_NOT_AVAILABLE', 'WRONG_MAX_PRICE', 'NO_NUMBERS', 'BAD_SERVICE'],
  },
  {
    call: 'getActivationState',
    action: 'getStatus',
    run: (provider) => provider.getActivationState('1'),
    tokens: [...ACCOUNT, 'BAD_STATUS', 'NO_ACTIVATION', 'BAD_ACTION'],
  },
  {
    call: 'cancelActivation',
    action: 'setStatus',
    run: (provider) => provider.cancelActivation('1'),
    tokens: [
      ...ACCOUNT,
      'BAD_STATUS',
      'NO_ACTIVATION',
      'EARLY_CANCEL_DENIED',
      'OTP_RECEIVED',
      'NEW_OTP_RECEIVED',
      'FREE_CANCELLATION_EXPIRED',
      'ACTIVATION_NOT_ACTIVE',
    ],
    // Cancelling sends only status 8: BAD_STATUS there means a code already arrived.
    kinds: { BAD_STATUS: 'cannot_cancel' },
  },
  {
    call: 'finishActivation',
    action: 'setStatus',
    run: (provider) => provider.finishActivation('1'),
    tokens: [...ACCOUNT, 'BAD_STATUS', 'NO_ACTIVATION', 'NEW_OTP_RECEIVED', 'ACTIVATION_NOT_ACTIVE'],
  },
  {
    call: 'requestAnotherSms',
    action: 'setStatus',
    run: (provider) => provider.requestAnotherSms('1'),
    tokens: [...ACCOUNT, 'BAD_STATUS', 'NO_ACTIVATION', 'ACTIVATION_NOT_ACTIVE'],
  },
  {
    call: 'listActiveActivations',
    action: 'getActiveActivations',
    run: (provider) => provider.listActiveActivations(0),
    tokens: [...ACCOUNT, 'BAD_ACTION'],
  },
  {
    call: 'listActivationMessages',
    action: 'getAllSms',
    run: (provider) => provider.listActivationMessages('1'),
    tokens: [...ACCOUNT, 'NO_ACTIVATION'],
  },
  {
    call: 'listRecentActivations',
    action: 'getHistory',
    run: (provider) => provider.listRecentActivations(0),
    tokens: [...ACCOUNT, 'WRONG_DATE', 'BAD_ACTION'],
  },
  {
    call: 'rentNumber',
    action: 'getRentNumber',
    run: (provider) => provider.rentNumber({ service: 'tg', countryId: 'US', hours: 4 }),
    tokens: [...ACCOUNT, 'NO_NUMBERS', 'BAD_SERVICE', 'WRONG_COUNTRY', 'INVALID_TIME'],
  },
  {
    call: 'cancelRent',
    action: 'setRentStatus',
    run: (provider) => provider.cancelRent('1'),
    tokens: [...ACCOUNT, 'INVALID_PHONE', 'ALREADY_FINISH', 'ALREADY_CANCEL', 'CANT_CANCEL'],
  },
  {
    call: 'extendRent',
    action: 'continueRentNumber',
    run: (provider) => provider.extendRent('1', 4),
    tokens: [...ACCOUNT, 'INVALID_PHONE', 'RENT_DIE', 'INVALID_TIME'],
  },
];

describe.each(['classic', 'hero'] as const)(
  "Hero's error style under %s answers: every documented refusal is a clean refusal",
  (style) => {
    let sim: SimulatorHarness;
    beforeAll(async () => {
      sim = await startSimulator({ responseStyle: style, errorStyle: 'hero' });
    });
    afterAll(async () => {
      await sim.close();
    });

    it.each(
      HERO_REFUSALS.flatMap(({ tokens, ...call }) =>
        tokens.map((token) => [call.call, token, call] as const),
      ),
    )('%s refused with %s', async (_call, token, { action, run, kinds }) => {
      await sim.control('fault', { action, token });
      const error = await upstreamError(run(sim.provider));
      expect(error.kind).toBe(kinds?.[token] ?? HERO_REFUSAL_KINDS[token]);
      expect(error.outcomeUnknown).toBe(false);
      // The fault was the only one: nothing is left over for the next case.
      expect((await sim.control('faults')).body.faults).toEqual([]);
    });
  },
);
