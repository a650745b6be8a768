import {
  type ActiveActivationItem,
  activationWebhook,
  activeActivationsAnswer,
  allSmsAnswer,
  countriesAnswer,
  createIdTranslator,
  type HistoryItem,
  historyAnswer,
  inProviderZone,
  numberV2Answer,
  operatorsAnswer,
  type PriceReading,
  type ProviderAnswer,
  type ProviderIdMap,
  parseAnswer,
  pricesAnswer,
  readPriceEntry,
  rentCatalogAnswer,
  rentListAnswer,
  rentPhoneAnswer,
  rentPriceAnswer,
  rentStatusAnswer,
  rentWebhook,
  statusV2Answer,
  topCountriesAnswer,
  topCountryEntry,
} from '@simcode/sms-activate-protocol';
import type { z } from 'zod';
import type { SmsLogger } from '../logger';
import {
  type ActivationMessage,
  type ActivationState,
  type ActiveActivation,
  type RecentActivation,
  type RentState,
  type SmsProvider,
  UpstreamError,
  type UpstreamOffer,
  type UpstreamSmsEvent,
} from '../types';
import {
  CANCEL_OVERRIDES,
  type CallMode,
  errorForToken,
  isProviderFailure,
  isRetryable,
  type TokenOverrides,
  unavailableError,
  unexpectedAnswerError,
} from './errors';

export interface SmsActivateProviderOptions {
  /** The provider's `handler_api.php` URL; a function when it is only known later (the built-in simulator). */
  baseUrl: string | (() => string);
  apiKey: string;
  /** Limit for one HTTP exchange, body included. */
  timeoutMs: number;
  idMap?: ProviderIdMap;
  logger?: SmsLogger;
  /** Pause before the first retry of a failed read, doubled before the second. */
  retryBackoffMs?: number;
  /** How logs and `SmsProvider.name` call this provider. */
  name?: string;
  /** The IANA zone its zone-less dates are written in (`Europe/Moscow`); UTC unless told. */
  timeZone?: string;
}

type Params = Record<string, string | number | undefined>;

/** A read is tried this many more times after an outage or provider error; writes never are. */
const READ_RETRIES = 2;
const DEFAULT_RETRY_BACKOFF_MS = 200;
const ACTIVE_ACTIVATIONS_PAGE_SIZE = 100;
const HISTORY_PAGE_SIZE = 100;
const ALL_SMS_PAGE_SIZE = 100;
/** A server that ignores `page` would answer the first page for ever. */
const ALL_SMS_MAX_PAGES = 10;
const RENT_MESSAGES_PAGE_SIZE = 50;
/** Answers to setStatus that mean "done"; Hero may answer 204 with no body instead. */
const SET_STATUS_SUCCESS = new Set([
  'ACCESS_CANCEL',
  'ACCESS_ACTIVATION',
  'ACCESS_RETRY_GET',
  'ACCESS_READY',
]);
/** Hero's numeric activation states (docs/protocols.md A.5); 1 and 7 are undocumented and read as active. */
const CANCELLED_STATUSES = new Set(['8', '10']);
const FINISHED_STATUS = '6';
const RETRY_STATUS = '3';

/**
 * The state of an activation in a list (getActiveActivations, getHistory): its numeric status (Hero's
 * mapping, protocols.md A.5) and the codes or texts listed with it, oldest first.
 */
function listedState(
  status: string | undefined,
  codes: string[],
  lastText: string | undefined,
): ActivationState {
  const lastCode = codes.at(-1);
  if (status !== undefined && CANCELLED_STATUSES.has(status)) return { kind: 'cancelled' };
  if (status === FINISHED_STATUS) return { kind: 'finished' };
  if (lastCode === undefined) return { kind: 'waiting' };
  if (status === RETRY_STATUS) return { kind: 'waiting_retry', lastCode };
  return { kind: 'code', code: lastCode, text: lastText };
}

/** Prices go upstream with a dot and no exponent, at most 4 decimals: `0.0250`, never `2.5e-2`. */
function formatPrice(price: number): string {
  return price.toFixed(4).replace(/\.?0+$/, '');
}

/** getStatus's text tokens (also getStatusV2's plain-text answers); undefined for anything else. */
function statusOf(answer: ProviderAnswer): ActivationState | undefined {
  if (answer.type !== 'token') return undefined;
  switch (answer.token) {
    case 'STATUS_WAIT_CODE':
    case 'STATUS_WAIT_RESEND':
      return { kind: 'waiting' };
    case 'STATUS_WAIT_RETRY':
      return { kind: 'waiting_retry', lastCode: answer.payload ?? '' };
    case 'STATUS_OK':
      return { kind: 'code', code: answer.payload ?? '' };
    case 'STATUS_CANCEL':
      return { kind: 'cancelled' };
    case 'STATUS_FINISH':
      return { kind: 'finished' };
    default:
      return undefined;
  }
}

function digitsOnly(phone: string): string {
  return phone.replace(/\D/g, '');
}

function describeFetchFailure(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return 'TIMEOUT';
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? `NETWORK_${cause.code}` : 'NETWORK_ERROR';
}

/**
 * An SmsProvider for any SMS-Activate-compatible `handler_api.php` (HeroSMS, SMS-Bower, Grizzly, the
 * built-in simulator ...). Every call is a GET with the key in the query string, as the providers' own
 * clients do; URLs are therefore never logged.
 */
export function createSmsActivateProvider(options: SmsActivateProviderOptions): SmsProvider {
  const ids = createIdTranslator(options.idMap);
  const backoffMs = options.retryBackoffMs ?? DEFAULT_RETRY_BACKOFF_MS;
  const name = options.name ?? 'sms-activate';
  const log = options.logger;
  const timeZone = options.timeZone ?? 'UTC';
  const zoned = <T extends Date | undefined>(date: T): T => inProviderZone(date, timeZone);

  async function exchange(action: string, params: Params, mode: CallMode): Promise<ProviderAnswer> {
    const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl;
    const url = new URL(baseUrl);
    url.searchParams.set('api_key', options.apiKey);
    url.searchParams.set('action', action);
    for (const [key, value] of Object.entries(params)) {
      if (value !== undefined) url.searchParams.set(key, String(value));
    }
    let status: number;
    let body: string;
    try {
      const response = await fetch(url, {
        headers: { accept: 'application/json, text/plain, */*' },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      status = response.status;
      body = await response.text();
    } catch (error) {
      throw unavailableError(describeFetchFailure(error), mode);
    }
    const answer = parseAnswer(status, body);
    if (!answer) throw unavailableError(`UNREADABLE_ANSWER_HTTP_${status}`, mode);
    // ERROR_SQL and its kin are failures whatever the action, so reads can retry them here.
    if (answer.type === 'token' || answer.type === 'error') {
      const httpStatus = answer.type === 'error' ? answer.httpStatus : undefined;
      if (isProviderFailure(answer.token, httpStatus))
        throw errorForToken(answer.token, mode, { httpStatus });
    }
    return answer;
  }

  async function call(action: string, params: Params, mode: CallMode): Promise<ProviderAnswer> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await exchange(action, params, mode);
      } catch (error) {
        if (!(error instanceof UpstreamError)) throw error;
        const retry = mode === 'read' && attempt < READ_RETRIES && isRetryable(error);
        log?.[retry ? 'debug' : 'warn'](
          { provider: name, action, token: error.token, kind: error.kind, attempt },
          retry ? 'sms upstream read failed, retrying' : 'sms upstream call failed',
        );
        if (!retry) throw error;
        await new Promise((resolve) => setTimeout(resolve, backoffMs * 2 ** attempt));
      }
    }
  }

  /** The error an answer stands for when it is not the success the action expects. */
  function failure(
    action: string,
    answer: ProviderAnswer,
    mode: CallMode,
    override?: TokenOverrides,
  ): UpstreamError {
    const error =
      answer.type === 'token' || answer.type === 'error'
        ? errorForToken(answer.token, mode, {
            httpStatus: answer.type === 'error' ? answer.httpStatus : undefined,
            override,
            payload: answer.payload,
          })
        : unexpectedAnswerError(`UNEXPECTED_${answer.type.toUpperCase()}`, mode);
    if (error.kind === 'configuration' || error.kind === 'account_blocked' || error.kind === 'no_balance') {
      // Users are told "temporarily unavailable"; the operator must learn the real reason.
      log?.error(
        { provider: name, action, token: error.token, kind: error.kind },
        'sms upstream account problem',
      );
    }
    return error;
  }

  function readJson<S extends z.ZodType>(
    action: string,
    answer: ProviderAnswer,
    schema: S,
    mode: CallMode,
  ): z.output<S> {
    if (answer.type !== 'json') throw failure(action, answer, mode);
    const parsed = schema.safeParse(answer.value);
    if (!parsed.success) throw unexpectedAnswerError(`MALFORMED_${action}`, mode);
    return parsed.data;
  }

  async function jsonCall<S extends z.ZodType>(action: string, params: Params, schema: S, mode: CallMode) {
    return readJson(action, await call(action, params, mode), schema, mode);
  }

  function providerCountry(countryId: string, mode: CallMode): string {
    const providerId = ids.countryFromIso(countryId);
    if (providerId === undefined) throw errorForToken('BAD_COUNTRY', mode);
    return providerId;
  }

  function providerService(service: string, mode: CallMode): string {
    const code = ids.serviceFromCanonical(service);
    if (code === undefined) throw errorForToken('BAD_SERVICE', mode);
    return code;
  }

  function operatorParam(operator: string | undefined): string | undefined {
    return operator && operator !== 'any' ? operator : undefined;
  }

  async function setStatus(id: string, status: number, override?: TokenOverrides) {
    const answer = await call('setStatus', { id, status }, 'write');
    if (answer.type === 'empty') return;
    if (answer.type === 'token' && SET_STATUS_SUCCESS.has(answer.token)) return;
    throw failure('setStatus', answer, 'write', override);
  }

  async function readStatus(activationId: string): Promise<ActivationState> {
    const answer = await call('getStatus', { id: activationId }, 'read');
    const state = statusOf(answer);
    if (state) return state;
    throw failure('getStatus', answer, 'read');
  }

  function activeActivation(item: ActiveActivationItem): ActiveActivation {
    const codes = item.smsCode ?? [];
    const serviceCode = item.serviceCode ?? '';
    return {
      activationId: item.activationId,
      phoneNumber: digitsOnly(item.phoneNumber),
      service: ids.serviceToCanonical(serviceCode) ?? serviceCode,
      countryId: item.countryCode == null ? null : (ids.countryToIso(item.countryCode) ?? null),
      state: listedState(item.activationStatus, codes, item.smsText?.at(-1)),
      codes,
      smsText: item.smsText?.at(-1),
      activatedAt: zoned(item.activationTime ?? undefined),
    };
  }

  function recentActivation(item: HistoryItem): RecentActivation {
    const messages = item.sms ?? [];
    return {
      activationId: item.id,
      phoneNumber: digitsOnly(item.phone),
      state: listedState(item.status, messages, messages.at(-1)),
      activatedAt: zoned(item.date ?? undefined),
      messages,
    };
  }

  /** The last SMS as getStatusV2 (or getStatus) tells it: for providers without getAllSms. */
  async function lastMessage(activationId: string): Promise<ActivationMessage[]> {
    const state = await provider.getActivationStateWithText!(activationId);
    if (state.kind === 'code') return [{ code: state.code, text: state.text ?? state.code }];
    if (state.kind === 'waiting_retry') return [{ code: state.lastCode, text: state.lastCode }];
    return [];
  }

  /** Optional actions this provider answered BAD_ACTION to: not asked again, so a fallback costs one call once. */
  const unsupported = new Set<string>();

  /**
   * An action not every provider of the family has; undefined where the provider says it has no such action
   * (BAD_ACTION, or one of `absentTokens`), so that the caller falls back.
   */
  async function optionalCall(
    action: string,
    params: Params,
    absentTokens: readonly string[] = [],
  ): Promise<ProviderAnswer | undefined> {
    if (unsupported.has(action)) return undefined;
    const answer = await call(action, params, 'read');
    if (
      (answer.type === 'token' || answer.type === 'error') &&
      (answer.token === 'BAD_ACTION' || absentTokens.includes(answer.token))
    ) {
      unsupported.add(action);
      return undefined;
    }
    return answer;
  }

  /** One price-list entry, named by the provider's ids, read (undefined: of no shape we know). */
  interface PriceEntry {
    country: string;
    service: string;
    reading: PriceReading | undefined;
  }

  /** Reads a list keyed outer → inner → entry; `countryFirst` for getPrices, service first otherwise. */
  function priceEntries(action: string, answer: ProviderAnswer, countryFirst: boolean): PriceEntry[] {
    return Object.entries(readJson(action, answer, pricesAnswer, 'read')).flatMap(([outer, row]) =>
      Object.entries(row).map(([inner, entry]) => ({
        country: countryFirst ? outer : inner,
        service: countryFirst ? inner : outer,
        reading: readPriceEntry(entry),
      })),
    );
  }

  /**
   * An action that only refines the prices: undefined where the provider lacks it (`absentTokens` as for
   * optionalCall) or answers it badly, for without it the catalog is still right, if less exact.
   */
  async function refinement<T>(
    action: string,
    absentTokens: readonly string[],
    read: (answer: ProviderAnswer) => T,
  ): Promise<T | undefined> {
    try {
      const answer = await optionalCall(action, { freePrice: 'true' }, absentTokens);
      return answer && read(answer);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      log?.warn({ provider: name, action, token: error.token }, 'price tiers unreadable, reading getPrices');
      return undefined;
    }
  }

  /**
   * The catalog's prices, in one call per refresh where the provider allows. getPrices' `count` is the stock
   * at any price; the stock at the listed price comes from tiers: getPricesVerification's (service → country
   * → entry), or, where there is none, getTopCountriesByService's for every service (Hero; SMS-Activate
   * wants a service there and says BAD_SERVICE). getPrices is asked unless the tiers cover every entry.
   */
  async function readPrices(): Promise<PriceEntry[]> {
    const verification = await refinement('getPricesVerification', [], (answer) =>
      priceEntries('getPricesVerification', answer, false),
    );
    // An empty list says nothing about getPrices' entries.
    if (verification?.length && verification.every((entry) => entry.reading?.atCost !== false))
      return verification;
    const [prices, top] = await Promise.all([
      call('getPrices', {}, 'read').then((answer) => priceEntries('getPrices', answer, true)),
      verification ? [] : refinement('getTopCountriesByService', ['BAD_SERVICE'], topCountryEntries),
    ]);
    // Later entries refine earlier ones (getCatalog ranks them): the prices first.
    return [...prices, ...(verification ?? top ?? [])];
  }

  function topCountryEntries(answer: ProviderAnswer): PriceEntry[] {
    return readJson('getTopCountriesByService', answer, topCountriesAnswer, 'read').flatMap((lists) =>
      Object.entries(lists).flatMap(([service, entries]) =>
        entries.flatMap((entry) => {
          const country = topCountryEntry.safeParse(entry);
          return country.success
            ? [{ country: country.data.country, service, reading: readPriceEntry(entry) }]
            : [];
        }),
      ),
    );
  }

  const provider: SmsProvider = {
    name,

    async getCatalog() {
      const [countryAnswer, operatorAnswer, prices] = await Promise.all([
        call('getCountries', {}, 'read'),
        call('getOperators', {}, 'read'),
        readPrices(),
      ]);
      const providerCountries = readJson('getCountries', countryAnswer, countriesAnswer, 'read');
      // A provider without operator lists answers OPERATORS_NOT_FOUND: every country then has only "any".
      const operators =
        operatorAnswer.type === 'error' && operatorAnswer.token === 'OPERATORS_NOT_FOUND'
          ? {}
          : readJson('getOperators', operatorAnswer, operatorsAnswer, 'read').countryOperators;

      const countries = providerCountries.flatMap((country) => {
        const countryId = ids.countryToIso(country.id);
        if (countryId === undefined || country.visible === false) return [];
        const operatorKeys = (operators[country.id] ?? []).map((key) => key.trim().toLowerCase());
        return [
          {
            countryId,
            operators: [...new Set(operatorKeys)].filter((key) => key !== '' && key !== 'any'),
            rentSupported: country.rent === true,
          },
        ];
      });
      const offers = new Map<string, UpstreamOffer & { rank: number }>();
      let skipped = 0;
      for (const { country, service: providerCode, reading } of prices) {
        const countryId = ids.countryToIso(country);
        const service = ids.serviceToCanonical(providerCode);
        if (countryId === undefined || service === undefined) continue;
        if (!reading) {
          skipped += 1;
          continue;
        }
        // Stock known to sell at the price beats a bare count; then stock beats none; getPrices breaks ties.
        const rank = (reading.atCost ? 2 : 0) + (reading.stock > 0 ? 1 : 0);
        const key = `${countryId}:${service}`;
        if ((offers.get(key)?.rank ?? -1) < rank)
          offers.set(key, { countryId, service, cost: reading.cost, stock: reading.stock, rank });
      }
      // One provider's odd entry (`cost: null`, a shape of its own) must not cost the whole catalog.
      if (skipped > 0) log?.warn({ provider: name, skipped }, 'skipped price entries of no known shape');
      return {
        countries,
        offers: [...offers.values()].map(({ rank: _rank, ...offer }) => offer),
      };
    },

    async buyActivation(request) {
      const params: Params = {
        service: providerService(request.service, 'write'),
        country: providerCountry(request.countryId, 'write'),
        operator: operatorParam(request.operator),
        maxPrice: formatPrice(request.maxPrice),
      };
      const answer = await call('getNumberV2', params, 'write');
      if (answer.type === 'json') {
        const bought = readJson('getNumberV2', answer, numberV2Answer, 'write');
        return {
          activationId: bought.activationId,
          phoneNumber: digitsOnly(bought.phoneNumber),
          cost: bought.activationCost ?? undefined,
          expiresAt: zoned(bought.activationEndTime ?? undefined),
        };
      }
      // Providers without V2 answer BAD_ACTION, which is safe to follow with the classic call.
      const classic =
        (answer.type === 'token' || answer.type === 'error') && answer.token === 'BAD_ACTION'
          ? await call('getNumber', params, 'write')
          : answer;
      if (classic.type === 'token' && classic.token === 'ACCESS_NUMBER' && classic.payload) {
        const colon = classic.payload.indexOf(':');
        const activationId = classic.payload.slice(0, colon);
        const phoneNumber = digitsOnly(classic.payload.slice(colon + 1));
        if (colon > 0 && phoneNumber !== '') return { activationId, phoneNumber };
      }
      throw failure('getNumber', classic, 'write');
    },

    getActivationState: readStatus,

    async getActivationStateWithText(activationId) {
      const answer = await optionalCall('getStatusV2', { id: activationId });
      // A provider without V2 is read with the classic call.
      if (!answer) return readStatus(activationId);
      if (answer.type === 'json') {
        const sms = readJson('getStatusV2', answer, statusV2Answer, 'read');
        return sms ? { kind: 'code', code: sms.code, text: sms.text } : { kind: 'waiting' };
      }
      // V2's plain-text answers (STATUS_CANCEL) are getStatus's own.
      const state = statusOf(answer);
      if (state) return state;
      throw failure('getStatusV2', answer, 'read');
    },

    async getBalance() {
      const answer = await call('getBalance', {}, 'read');
      const amount =
        answer.type === 'token' && answer.token === 'ACCESS_BALANCE' ? Number(answer.payload) : Number.NaN;
      if (Number.isFinite(amount)) return amount;
      throw failure('getBalance', answer, 'read');
    },

    cancelActivation: (activationId) => setStatus(activationId, 8, CANCEL_OVERRIDES),
    finishActivation: (activationId) => setStatus(activationId, 6),
    requestAnotherSms: (activationId) => setStatus(activationId, 3),

    async listActiveActivations(page) {
      const answer = await call(
        'getActiveActivations',
        {
          start: Math.max(0, Math.floor(page)) * ACTIVE_ACTIVATIONS_PAGE_SIZE,
          limit: ACTIVE_ACTIVATIONS_PAGE_SIZE,
        },
        'read',
      );
      // "Nothing active" comes as a JSON error, a Hero error, or a plain-text token on HTTP 200.
      if ((answer.type === 'error' || answer.type === 'token') && answer.token === 'NO_ACTIVATIONS')
        return { items: [], hasMore: false };
      const items = readJson('getActiveActivations', answer, activeActivationsAnswer, 'read');
      return { items: items.map(activeActivation), hasMore: items.length >= ACTIVE_ACTIVATIONS_PAGE_SIZE };
    },

    async listActivationMessages(activationId) {
      const messages: ActivationMessage[] = [];
      let listed = 0;
      for (let page = 1; page <= ALL_SMS_MAX_PAGES; page++) {
        const answer = await optionalCall('getAllSms', { id: activationId, page, size: ALL_SMS_PAGE_SIZE });
        if (!answer) return lastMessage(activationId);
        // Hero keeps no SMS of a cancelled or refunded activation.
        if ((answer.type === 'error' || answer.type === 'token') && answer.token === 'ACTIVATION_NOT_ACTIVE')
          return [];
        const { data, meta } = readJson('getAllSms', answer, allSmsAnswer, 'read');
        listed += data.length;
        for (const sms of data) {
          const code = sms.code?.trim() || undefined;
          const text = sms.text ?? code;
          if (text === undefined) continue;
          messages.push({
            code,
            text,
            from: sms.phoneFrom ?? undefined,
            receivedAt: zoned(sms.date ?? undefined),
          });
        }
        // A short page is the last, as is one that reaches the total.
        if (data.length < ALL_SMS_PAGE_SIZE || listed >= (meta?.total ?? 0)) break;
      }
      return messages.sort(
        (left, right) => (left.receivedAt?.getTime() ?? 0) - (right.receivedAt?.getTime() ?? 0),
      );
    },

    async listRecentActivations(sinceMs, page = 0) {
      const pageSize = HISTORY_PAGE_SIZE;
      const answer = await call(
        'getHistory',
        {
          start: Math.max(0, Math.floor(sinceMs / 1000)),
          offset: Math.max(0, Math.floor(page)) * pageSize,
          // SMS-Activate calls the page size `limit`, Hero `size`.
          limit: pageSize,
          size: pageSize,
        },
        'read',
      );
      // Older servers of the family say "nothing" as an error, as they do for active activations.
      if ((answer.type === 'error' || answer.type === 'token') && answer.token === 'NO_ACTIVATIONS')
        return { items: [], hasMore: false };
      const items = readJson('getHistory', answer, historyAnswer, 'read');
      return { items: items.map(recentActivation), hasMore: items.length >= pageSize };
    },

    async getRentCatalog(request) {
      const catalog = await jsonCall(
        'getRentServicesAndCountries',
        {
          rent_time: request.hours,
          operator: operatorParam(request.operator) ?? 'any',
          country: request.countryId === undefined ? undefined : providerCountry(request.countryId, 'read'),
        },
        rentCatalogAnswer,
        'read',
      );
      const services: Record<string, { cost: number; stock: number }> = {};
      for (const [providerCode, offer] of Object.entries(catalog.services)) {
        const service = ids.serviceToCanonical(providerCode);
        if (service !== undefined) services[service] = { cost: offer.cost, stock: offer.quant ?? 0 };
      }
      return {
        countries: [
          ...new Set(catalog.countries.flatMap((providerId) => ids.countryToIso(providerId) ?? [])),
        ],
        operators: (catalog.operators ?? []).filter((operator) => operator !== 'any'),
        services,
      };
    },

    async rentNumber(request) {
      const rented = await jsonCall(
        'getRentNumber',
        {
          service: providerService(request.service, 'write'),
          country: providerCountry(request.countryId, 'write'),
          operator: operatorParam(request.operator),
          rent_time: request.hours,
          url: request.webhookUrl,
        },
        rentPhoneAnswer,
        'write',
      );
      return {
        rentId: rented.phone.id,
        phoneNumber: digitsOnly(rented.phone.number),
        endsAt: zoned(rented.phone.endDate),
      };
    },

    async getRentState(rentId, page = 0) {
      // Our pages count from 0, the provider's from 1.
      const providerPage = Math.max(0, Math.floor(page)) + 1;
      const answer = await call(
        'getRentStatus',
        { id: rentId, page: providerPage, size: RENT_MESSAGES_PAGE_SIZE },
        'read',
      );
      if (answer.type === 'error' || answer.type === 'token') {
        const states: Record<string, RentState> = {
          STATUS_WAIT_CODE: { kind: 'waiting' },
          STATUS_CANCEL: { kind: 'cancelled' },
          STATUS_FINISH: { kind: 'finished' },
          STATUS_REVOKE: { kind: 'revoked' },
        };
        const state = states[answer.token];
        if (state) return state;
      }
      const status = readJson('getRentStatus', answer, rentStatusAnswer, 'read');
      const messages = (status.values ?? []).map((sms) => ({
        from: sms.phoneFrom,
        text: sms.text,
        code: sms.code ?? undefined,
        receivedAt: zoned(sms.date),
      }));
      if (messages.length === 0 && !status.quantity) return { kind: 'waiting' };
      return { kind: 'messages', messages, total: status.quantity ?? messages.length };
    },

    async finishRent(rentId) {
      const answer = await call('setRentStatus', { id: rentId, status: 1 }, 'write');
      if (answer.type !== 'json' && answer.type !== 'empty') throw failure('setRentStatus', answer, 'write');
    },

    async cancelRent(rentId) {
      const answer = await call('setRentStatus', { id: rentId, status: 2 }, 'write');
      if (answer.type !== 'json' && answer.type !== 'empty') throw failure('setRentStatus', answer, 'write');
    },

    async getRentExtensionPrice(rentId, hours) {
      const answer = await jsonCall(
        'getContinueRentPriceNumber',
        { id: rentId, rent_time: hours },
        rentPriceAnswer,
        'read',
      );
      return answer.price;
    },

    async extendRent(rentId, hours) {
      const extended = await jsonCall(
        'continueRentNumber',
        { id: rentId, rent_time: hours },
        rentPhoneAnswer,
        'write',
      );
      return { endsAt: zoned(extended.phone.endDate) };
    },

    async listActiveRents() {
      const answer = await call('getRentList', {}, 'read');
      // Older servers say "nothing rented" as an error.
      if (answer.type === 'error' && (answer.token === 'NO_NUMBERS' || answer.token === 'NO_ACTIVATIONS'))
        return [];
      const list = readJson('getRentList', answer, rentListAnswer, 'read');
      return (list.values ?? []).map((rent) => ({ rentId: rent.id, phoneNumber: digitsOnly(rent.phone) }));
    },

    parseWebhook(body) {
      return parseSmsActivateWebhook(body, timeZone);
    },
  };
  return provider;
}

/** Activation webhooks (account-wide URL) and rent webhooks (per-rent `url`), docs/protocols.md A.7. */
export function parseSmsActivateWebhook(body: unknown, timeZone = 'UTC'): UpstreamSmsEvent | null {
  let value = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(body.toString());
    } catch {
      return null;
    }
  }
  const rent = rentWebhook.safeParse(value);
  if (rent.success) {
    const { rentId, sms } = rent.data;
    return {
      type: 'rent',
      rentId,
      from: sms.phoneFrom,
      text: sms.text,
      receivedAt: inProviderZone(sms.date, timeZone),
    };
  }
  const activation = activationWebhook.safeParse(value);
  if (activation.success) {
    const { activationId, code, text, phoneFrom, receivedAt } = activation.data;
    const trimmedCode = code?.trim() || null;
    // A call verification has no text: the code stands for it.
    return {
      type: 'activation',
      activationId,
      code: trimmedCode,
      text: text ?? trimmedCode ?? '',
      from: phoneFrom?.trim() || undefined,
      receivedAt: inProviderZone(receivedAt, timeZone),
    };
  }
  return null;
}
