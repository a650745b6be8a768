import { serviceByCode } from '@simcode/contract';
import { MAX_RENT_HOURS, type PriceTier, SIM_COUNTRIES, SIM_SERVICES, type SimCountry } from './catalog';
import {
  EARLY_CANCEL_MS,
  formatUsd,
  type SimActivation,
  type SimRent,
  type SimSms,
  type SimulatorEngine,
  SimulatorRefusal,
} from './engine';

/**
 * How the simulator answers: 'classic' is SMS-Activate's (HTTP 200, text tokens, rent errors as JSON),
 * 'hero' is Hero-SMS's (HTTP status + `{title, details, info}`, 204 for finish/cancel actions). A simulator
 * has one style for its answers and one for its errors: clones of the family mix them.
 */
export type ResponseStyle = 'classic' | 'hero';

export interface SimReply {
  status: number;
  contentType?: string;
  body: string;
}

export type Params = Readonly<Record<string, string | undefined>>;

const TEXT = 'text/plain; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
/** Hero's ISO 4217 numeric currency code for USD. */
const USD_CURRENCY = 840;
const MAX_PAGE_SIZE = 100;

const text = (body: string, status = 200): SimReply => ({ status, contentType: TEXT, body });
const json = (value: unknown, status = 200): SimReply => ({
  status,
  contentType: JSON_TYPE,
  body: JSON.stringify(value),
});
const noContent: SimReply = { status: 204, body: '' };

// Dates ---------------------------------------------------------------------------------------------------

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** SMS-Activate's zone-less `2022-06-01 16:59:16` (the simulator's clock is UTC). */
export function saDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Hero's RFC 3339 `2026-02-18T16:11:33+00:00`. */
function rfc3339(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** BANNED's odd payload: `'2026-2-13 12-00-00'` (no zero padding in the date, dashes in the time). */
export function bannedDate(ms: number): string {
  const date = new Date(ms);
  return `'${date.getUTCFullYear()}-${date.getUTCMonth() + 1}-${date.getUTCDate()} ${pad(date.getUTCHours())}-${pad(date.getUTCMinutes())}-${pad(date.getUTCSeconds())}'`;
}

// Errors --------------------------------------------------------------------------------------------------

/** Where classic SMS-Activate puts an error token for an action: plain text, or JSON `message` / `error`. */
type ClassicErrorShape = 'text' | 'message' | 'error';

/**
 * Classic servers have no OTP_RECEIVED or ACTIVATION_NOT_ACTIVE, and no word for a malformed parameter
 * (INVALID_PARAMETER, the simulator's own); these are their nearest answers.
 */
const CLASSIC_TOKENS: Readonly<Record<string, string>> = {
  OTP_RECEIVED: 'BAD_STATUS',
  ACTIVATION_NOT_ACTIVE: 'NO_ACTIVATION',
  INVALID_PARAMETER: 'BAD_ACTION',
};
const HERO_TITLES: Readonly<Record<string, string>> = {
  NO_ACTIVATION: 'NOT_FOUND',
  INVALID_PHONE: 'NOT_FOUND',
  INVALID_PARAMETER: 'UNPROCESSABLE_ENTITY',
};
const HERO_STATUS: Readonly<Record<string, number>> = {
  BAD_KEY: 401,
  NO_BALANCE: 402,
  BANNED: 403,
  CHANNELS_LIMIT: 403,
  SERVICE_NOT_AVAILABLE: 403,
  ACCOUNT_INACTIVE: 403,
  NOT_FOUND: 404,
  BAD_ACTION: 404,
  NO_NUMBERS: 404,
  NO_ACTIVATIONS: 404,
  OPERATORS_NOT_FOUND: 404,
  EARLY_CANCEL_DENIED: 409,
  OTP_RECEIVED: 409,
  NEW_OTP_RECEIVED: 409,
  FREE_CANCELLATION_EXPIRED: 409,
  ACTIVATION_NOT_ACTIVE: 409,
  CANT_CANCEL: 409,
  ALREADY_FINISH: 409,
  ALREADY_CANCEL: 409,
  RENT_DIE: 409,
  NO_KEY: 422,
  UNPROCESSABLE_ENTITY: 422,
  SERVER_ERROR: 500,
  ERROR_SQL: 500,
};
const HERO_DETAILS: Readonly<Record<string, string>> = {
  BAD_KEY: 'Unauthorized',
  NO_KEY: 'The api key field is required.',
  NO_BALANCE: 'Payment Required',
  NOT_FOUND: 'Activation Not Found',
  BAD_ACTION: 'Method Not Found',
  SERVER_ERROR: 'Internal Server Error',
  EARLY_CANCEL_DENIED: 'Activation cannot be cancelled yet',
  OTP_RECEIVED: 'Activation already received a code',
  UNPROCESSABLE_ENTITY: 'The given data was invalid.',
};
/** Rent states travel as errors in both styles: they are answers, not failures. */
const RENT_STATE_TOKENS = new Set(['STATUS_WAIT_CODE', 'STATUS_CANCEL', 'STATUS_FINISH', 'STATUS_REVOKE']);
const BAN_MS = 30 * 60 * 1000;

function heroInfo(refusal: SimulatorRefusal, nowMs: number): Record<string, unknown> | undefined {
  switch (refusal.token) {
    case 'EARLY_CANCEL_DENIED':
      return { minActivationTime: EARLY_CANCEL_MS / 1000 };
    case 'WRONG_MAX_PRICE':
      return { min: Number(refusal.payload) };
    case 'BANNED': {
      const untilMs = nowMs + BAN_MS;
      return {
        scope: 'global',
        banned_until: Math.floor(untilMs / 1000),
        retry_after_seconds: BAN_MS / 1000,
        readable_date: saDateTime(untilMs),
      };
    }
    case 'CHANNELS_LIMIT':
      return { current_threads: 10, max_allowed: 10 };
    default:
      return undefined;
  }
}

export function renderRefusal(
  refusal: SimulatorRefusal,
  action: string,
  style: ResponseStyle,
  nowMs: number,
): SimReply {
  const shape = Object.hasOwn(ACTIONS, action) ? ACTIONS[action]!.errors : 'text';
  if (RENT_STATE_TOKENS.has(refusal.token)) return json({ status: 'error', message: refusal.token });
  if (style === 'hero') {
    // Hero answers an empty shelf on a buy with the classic text, and everything else as JSON.
    if (refusal.token === 'NO_NUMBERS' && (action === 'getNumber' || action === 'getNumberV2'))
      return text('NO_NUMBERS');
    const title = HERO_TITLES[refusal.token] ?? refusal.token;
    return json(
      {
        title,
        details: HERO_DETAILS[title] ?? title.toLowerCase().replaceAll('_', ' '),
        info: heroInfo(refusal, nowMs),
      },
      HERO_STATUS[title] ?? 400,
    );
  }
  const token = CLASSIC_TOKENS[refusal.token] ?? refusal.token;
  const payload = token === 'BANNED' ? bannedDate(nowMs + BAN_MS) : refusal.payload;
  if (shape === 'message') return json({ status: 'error', message: token });
  if (shape === 'error') return json({ status: 'error', error: token });
  return text(payload === undefined ? token : `${token}:${payload}`);
}

// Parameters ----------------------------------------------------------------------------------------------

function integer(value: string | undefined, fallback: number | undefined, refusalToken: string): number {
  if (value === undefined || value.trim() === '') {
    if (fallback === undefined) throw new SimulatorRefusal(refusalToken);
    return fallback;
  }
  const number = Number(value);
  if (!Number.isInteger(number)) throw new SimulatorRefusal(refusalToken);
  return number;
}

/** SMS-Activate's default country is 0 (Russia) when none is given. */
const countryParam = (params: Params) => integer(params.country, 0, 'BAD_COUNTRY');
const rentHoursParam = (params: Params, name = 'rent_time') => integer(params[name], 4, 'INVALID_TIME');

function serviceParam(params: Params): string {
  const service = params.service?.trim();
  if (!service || !SIM_SERVICES.includes(service)) throw new SimulatorRefusal('BAD_SERVICE');
  return service;
}

/** `true` or `1`, as clients write booleans in a query. */
function flagParam(value: string | undefined): boolean {
  return value === 'true' || value === '1';
}

function maxPriceParam(params: Params): number | undefined {
  if (params.maxPrice === undefined || params.maxPrice.trim() === '') return undefined;
  const price = Number(params.maxPrice);
  if (!Number.isFinite(price) || price < 0) throw new SimulatorRefusal('INVALID_PARAMETER');
  return price;
}

function page<T>(items: readonly T[], start: number, size: number): T[] {
  return items.slice(Math.max(0, start), Math.max(0, start) + Math.min(Math.max(size, 1), MAX_PAGE_SIZE));
}

function indexed<T>(items: readonly T[]): Record<string, T> {
  return Object.fromEntries(items.map((item, index) => [String(index), item]));
}

// Actions -------------------------------------------------------------------------------------------------

interface ActionContext {
  engine: SimulatorEngine;
  /** The shape of what the action answers, and which actions there are. */
  style: ResponseStyle;
  /** How refusals are told. */
  errorStyle: ResponseStyle;
  params: Params;
  nowMs: number;
}

interface Action {
  errors: ClassicErrorShape;
  /** The styles whose providers have the action; every style when absent. */
  styles?: readonly ResponseStyle[];
  handle(context: ActionContext): SimReply;
}

const totalStock = (tiers: readonly PriceTier[]) => tiers.reduce((sum, tier) => sum + tier.stock, 0);

/** `freePriceMap` / `physicalPriceMap`: price → numbers at that price. */
function tierMap(tiers: readonly PriceTier[]): Record<string, number> {
  return Object.fromEntries(tiers.map((tier) => [formatUsd(tier.priceUsd), tier.stock]));
}

/**
 * getTopCountriesByService's ten countries with the most numbers for a service. Hero's `price` is below what
 * a number sells at (its `retail_price`), and it always gives the tiers; SMS-Activate only with freePrice.
 */
function topCountries(engine: SimulatorEngine, service: string, style: ResponseStyle, freePrice: boolean) {
  return SIM_COUNTRIES.map((country) => {
    const tiers = engine.priceTiers(country, service);
    return { country, tiers, listed: tiers[0]!, total: totalStock(tiers) };
  })
    .filter((offer) => offer.total > 0)
    .sort((left, right) => right.total - left.total)
    .slice(0, 10)
    .map(({ country, tiers, listed, total }) => {
      const common = {
        country: country.providerId,
        count: total,
        price: Number((listed.priceUsd * 0.8).toFixed(4)),
        retail_price: listed.priceUsd,
      };
      if (style === 'hero') {
        return {
          ...common,
          physicalTotalCount: total,
          physicalCountForDefaultPrice: listed.stock,
          physicalPriceMap: tierMap(tiers),
        };
      }
      return freePrice ? { ...common, freePriceMap: tierMap(tiers) } : common;
    });
}

function numberV2(activation: SimActivation, country: SimCountry, style: ResponseStyle): SimReply {
  if (style === 'classic') {
    return json({
      activationId: activation.id,
      phoneNumber: activation.phoneNumber,
      activationCost: activation.costUsd.toFixed(4),
      countryCode: String(activation.countryId),
      canGetAnotherSms: '1',
      activationTime: saDateTime(activation.createdAtMs),
      activationOperator: activation.operator,
    });
  }
  return json({
    activationId: Number(activation.id),
    phoneNumber: activation.phoneNumber,
    activationCost: activation.costUsd,
    currency: USD_CURRENCY,
    countryCode: activation.countryId,
    countryPhoneCode: Number(country.dialCode),
    canGetAnotherSms: true,
    activationTime: rfc3339(activation.createdAtMs),
    activationEndTime: rfc3339(activation.expiresAtMs),
    activationOperator: activation.operator,
    verificationType: 'sms',
    serviceCode: activation.service,
    status: 4,
  });
}

const ACTIVATION_STATUS_CODES: Readonly<Record<SimActivation['status'], string>> = {
  waiting: '4',
  received: '2',
  retry: '3',
  finished: '6',
  cancelled: '8',
};

/** History tells a refund at the end of the lifetime (10) from a cancel (8). */
function historyStatus(activation: SimActivation): string {
  const expired =
    activation.status === 'cancelled' &&
    activation.closedAtMs !== null &&
    activation.closedAtMs >= activation.expiresAtMs;
  return expired ? '10' : ACTIVATION_STATUS_CODES[activation.status];
}

const DAY_S = 24 * 60 * 60;
/** getHistory's window: dates more than 30 days back are refused (WRONG_DATE). */
const HISTORY_DAYS = 30;
const DEFAULT_HISTORY_SIZE = 50;

/** A Unix time in seconds, or WRONG_DATE. */
function timestampParam(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  if (!/^\d{1,12}$/.test(value.trim())) throw new SimulatorRefusal('WRONG_DATE');
  return Number(value);
}

/**
 * getHistory (protocols.md A.4.15; SMS-Activate's and Hero's docs): the account's activations bought between
 * `start` and `end`, newest first. SMS-Activate lists the codes in `sms`, Hero the last SMS's text (or null).
 * Live and refunded ones cost 0.
 */
function history({ engine, style, params, nowMs }: ActionContext): SimReply {
  const nowS = Math.floor(nowMs / 1000);
  const start = timestampParam(params.start, nowS - HISTORY_DAYS * DAY_S);
  const end = timestampParam(params.end, nowS);
  if (start < nowS - HISTORY_DAYS * DAY_S || end < start) throw new SimulatorRefusal('WRONG_DATE');
  // SMS-Activate calls the page size `limit`, Hero `size`.
  const size = integer(params.limit ?? params.size, DEFAULT_HISTORY_SIZE, 'INVALID_PARAMETER');
  const listed = page(
    engine.activationsBetween(start * 1000, end * 1000 + 999),
    integer(params.offset, 0, 'INVALID_PARAMETER'),
    size,
  );
  return json(
    listed.map((activation) => {
      const codes = activation.sms.flatMap((sms) => (sms.code === null ? [] : [sms.code]));
      return {
        id: style === 'classic' ? Number(activation.id) : activation.id,
        date: saDateTime(activation.createdAtMs),
        phone: activation.phoneNumber,
        sms: style === 'classic' ? (codes.length > 0 ? codes : null) : (activation.sms.at(-1)?.text ?? null),
        cost: activation.status === 'finished' ? activation.costUsd : 0,
        status: historyStatus(activation),
        currency: USD_CURRENCY,
      };
    }),
  );
}

const DEFAULT_ALL_SMS_SIZE = 10;

/**
 * Hero's getAllSms: every SMS of an activation, a page at a time (`page` from 1), oldest first; a cancelled
 * or refunded activation has none to give (409 ACTIVATION_NOT_ACTIVE).
 */
function allSms({ engine, params }: ActionContext): SimReply {
  const activation = engine.activation(params.id);
  if (activation.status === 'cancelled') throw new SimulatorRefusal('ACTIVATION_NOT_ACTIVE');
  const size = integer(params.size, DEFAULT_ALL_SMS_SIZE, 'INVALID_PARAMETER');
  const pageNumber = integer(params.page, 1, 'INVALID_PARAMETER');
  return json({
    data: page(activation.sms, (pageNumber - 1) * size, size).map((sms) => ({
      id: Number(activation.id),
      phoneFrom: sms.from,
      code: sms.code,
      text: sms.text,
      service: activation.service,
      date: rfc3339(sms.receivedAtMs),
      type: 'sms',
    })),
    meta: { total: activation.sms.length, service: activation.service },
  });
}

/**
 * getStatusV2 (protocols.md A.4.5): the last SMS with its full text, in SMS-Activate's shape (`sms`/`call`)
 * or Hero's (`data`); a cancelled activation answers plain `STATUS_CANCEL`. While waiting neither documents
 * an answer: the SMS is null.
 */
function statusV2(activation: SimActivation, style: ResponseStyle): SimReply {
  if (activation.status === 'cancelled') return text('STATUS_CANCEL');
  const sms = activation.sms.at(-1);
  if (style === 'classic') {
    return json({
      verificationType: 0,
      sms: sms ? { dateTime: saDateTime(sms.receivedAtMs), code: sms.code, text: sms.text } : null,
      call: null,
    });
  }
  return json({
    verificationType: 'sms',
    data: sms
      ? {
          id: Number(activation.id),
          phoneFrom: sms.from,
          code: sms.code,
          text: sms.text,
          service: activation.service,
          date: rfc3339(sms.receivedAtMs),
          type: 'sms',
        }
      : null,
  });
}

function activeActivationItem(activation: SimActivation, engine: SimulatorEngine, style: ResponseStyle) {
  const country = engine.country(activation.countryId);
  const codes = activation.sms.flatMap((sms) => (sms.code === null ? [] : [sms.code]));
  const texts = activation.sms.map((sms) => sms.text);
  const common = {
    serviceCode: activation.service,
    phoneNumber: activation.phoneNumber,
    activationStatus: ACTIVATION_STATUS_CODES[activation.status],
    countryName: country.name,
    discount: '0.00',
    repeated: activation.sms.length > 1 ? '1' : '0',
  };
  return style === 'classic'
    ? {
        ...common,
        activationId: activation.id,
        activationCost: activation.costUsd.toFixed(4),
        smsCode: codes.at(-1) ?? null,
        smsText: texts.at(-1) ?? null,
        activationTime: saDateTime(activation.createdAtMs),
        countryCode: String(activation.countryId),
        canGetAnotherSms: '1',
      }
    : {
        ...common,
        activationId: Number(activation.id),
        activationCost: activation.costUsd,
        currency: USD_CURRENCY,
        smsCode: codes,
        smsText: texts,
        activationTime: rfc3339(activation.createdAtMs),
        countryCode: activation.countryId,
        canGetAnotherSms: true,
        verificationType: 'sms',
      };
}

function rentPhone(rent: SimRent, style: ResponseStyle) {
  const endDate = style === 'classic' ? saDateTime(rent.endsAtMs).replace(' ', 'T') : rfc3339(rent.endsAtMs);
  return {
    status: 'success',
    phone: { id: style === 'classic' ? Number(rent.id) : rent.id, endDate, number: rent.phoneNumber },
  };
}

function rentMessage(rent: SimRent, sms: SimSms, style: ResponseStyle) {
  return {
    phoneFrom: sms.from,
    text: sms.text,
    service: rent.service,
    date: style === 'classic' ? saDateTime(sms.receivedAtMs) : rfc3339(sms.receivedAtMs),
  };
}

function setStatusAction(status: number, classicSuccess: string): Action {
  return {
    errors: 'text',
    handle: ({ engine, style, params }) => {
      engine.setStatus(params.id, status);
      return style === 'hero' ? noContent : text(classicSuccess);
    },
  };
}

const balance: Action = {
  errors: 'text',
  handle: ({ engine }) => text(`ACCESS_BALANCE:${formatUsd(engine.state.balanceUsd)}`),
};

function buyFrom(engine: SimulatorEngine, params: Params): SimActivation {
  // No number here forwards calls, as getNumbersStatus's `<service>_1` counts say.
  if (flagParam(params.forward)) throw new SimulatorRefusal('NO_NUMBERS');
  return engine.buy({
    service: serviceParam(params),
    countryId: countryParam(params),
    operator: params.operator,
    maxPriceUsd: maxPriceParam(params),
  });
}

const ACTIONS: Readonly<Record<string, Action>> = {
  getBalance: balance,
  getBalanceAndCashBack: balance,

  getNumber: {
    errors: 'text',
    handle: ({ engine, params }) => {
      const activation = buyFrom(engine, params);
      return text(`ACCESS_NUMBER:${activation.id}:${activation.phoneNumber}`);
    },
  },

  getNumberV2: {
    errors: 'text',
    handle: ({ engine, style, params }) => {
      const activation = buyFrom(engine, params);
      return numberV2(activation, engine.country(activation.countryId), style);
    },
  },

  getStatus: {
    errors: 'text',
    handle: ({ engine, params }) => text(engine.statusText(engine.activation(params.id))),
  },

  getStatusV2: {
    errors: 'text',
    handle: ({ engine, style, params }) => statusV2(engine.activation(params.id), style),
  },

  setStatus: {
    errors: 'text',
    handle: ({ engine, params }) =>
      text(engine.setStatus(params.id, integer(params.status, undefined, 'BAD_STATUS'))),
  },

  getAllSms: {
    errors: 'text',
    // SMS-Activate has no getAllSms (protocols.md A.4.15): classic answers BAD_ACTION.
    styles: ['hero'],
    handle: allSms,
  },

  getHistory: { errors: 'text', handle: history },

  finishActivation: setStatusAction(6, 'ACCESS_ACTIVATION'),
  cancelActivation: setStatusAction(8, 'ACCESS_CANCEL'),

  getActiveActivations: {
    errors: 'error',
    handle: ({ engine, style, params }) => {
      const live = engine.liveActivations();
      const items = page(
        live,
        integer(params.start, 0, 'INVALID_PARAMETER'),
        integer(params.limit, MAX_PAGE_SIZE, 'INVALID_PARAMETER'),
      );
      const listed = items.map((activation) => activeActivationItem(activation, engine, style));
      if (style === 'hero') {
        // Hero's live answer carries both lists; only `data` is filled.
        return json({
          status: 'success',
          data: listed,
          activeActivations: { affected_rows: 0, num_rows: 0, row: [], rows: [] },
        });
      }
      // Nothing active is an error to SMS-Activate.
      if (live.length === 0) throw new SimulatorRefusal('NO_ACTIVATIONS');
      return json({ status: 'success', activeActivations: listed });
    },
  },

  getNumbersStatus: {
    errors: 'text',
    handle: ({ engine, params }) => {
      const country = engine.country(countryParam(params));
      return json(
        Object.fromEntries(
          SIM_SERVICES.flatMap((service) => [
            [`${service}_0`, engine.offer(country, service).stock],
            [`${service}_1`, 0],
          ]),
        ),
      );
    },
  },

  getTopCountriesByService: {
    errors: 'text',
    handle: ({ engine, style, params }) => {
      // Hero lists every service when none is named; SMS-Activate documents the one-service form.
      const services = params.service === undefined ? SIM_SERVICES : [serviceParam(params)];
      const lists = Object.fromEntries(
        services.map((service) => {
          const top = topCountries(engine, service, style, flagParam(params.freePrice));
          // SMS-Activate keys the list by rank ("0", "1", ...); Hero sends an array.
          return [service, style === 'hero' ? top : indexed(top)];
        }),
      );
      if (style === 'hero') return json([lists]);
      return json(params.service === undefined ? lists : lists[params.service]);
    },
  },

  getPrices: {
    errors: 'text',
    handle: ({ engine, style, params }) => {
      const countries = params.country === undefined ? SIM_COUNTRIES : [engine.country(countryParam(params))];
      const services = params.service === undefined ? SIM_SERVICES : [serviceParam(params)];
      const prices: Record<string, Record<string, unknown>> = {};
      for (const country of countries) {
        const row: Record<string, unknown> = {};
        for (const service of services) {
          const tiers = engine.priceTiers(country, service);
          const [listed] = tiers;
          // `count` is the stock at any price; Hero's `physicalCount` the stock at `cost`.
          row[service] =
            style === 'hero'
              ? { cost: listed!.priceUsd, count: totalStock(tiers), physicalCount: listed!.stock }
              : { cost: listed!.priceUsd, count: totalStock(tiers) };
        }
        prices[country.providerId] = row;
      }
      return json(prices);
    },
  },

  getPricesVerification: {
    errors: 'text',
    // Not in Hero's API (protocols.md A.4.15): it answers BAD_ACTION there.
    styles: ['classic'],
    handle: ({ engine, params }) => {
      const services = params.service === undefined ? SIM_SERVICES : [serviceParam(params)];
      const freePrice = flagParam(params.freePrice);
      return json(
        Object.fromEntries(
          services.map((service) => [
            service,
            Object.fromEntries(
              SIM_COUNTRIES.map((country) => {
                const tiers = engine.priceTiers(country, service);
                return [
                  country.providerId,
                  {
                    count: totalStock(tiers),
                    price: tiers[0]!.priceUsd,
                    ...(freePrice ? { freePriceMap: tierMap(tiers) } : {}),
                  },
                ];
              }),
            ),
          ]),
        ),
      );
    },
  },

  getCountries: {
    errors: 'text',
    handle: () =>
      json(
        Object.fromEntries(
          SIM_COUNTRIES.map((country) => [
            country.providerId,
            {
              id: country.providerId,
              // Real clients read every name field (one crashes without `rus`); the simulator has English only.
              rus: country.name,
              eng: country.name,
              chn: country.name,
              visible: 1,
              retry: 1,
              rent: country.rentSupported ? 1 : 0,
            },
          ]),
        ),
      ),
  },

  getOperators: {
    errors: 'error',
    handle: ({ engine, params }) => {
      const countries = params.country === undefined ? SIM_COUNTRIES : [engine.country(countryParam(params))];
      const listed = countries.filter((country) => country.operators.length > 0);
      if (listed.length === 0) throw new SimulatorRefusal('OPERATORS_NOT_FOUND');
      return json({
        status: 'success',
        countryOperators: Object.fromEntries(
          listed.map((country) => [country.providerId, country.operators]),
        ),
      });
    },
  },

  getServicesList: {
    errors: 'error',
    handle: () =>
      json({
        status: 'success',
        services: SIM_SERVICES.map((code) => ({ code, name: serviceByCode(code)?.name ?? code })),
      }),
  },

  getRentServicesAndCountries: {
    errors: 'message',
    handle: ({ engine, style, params }) => {
      const country = engine.country(countryParam(params));
      const offers = engine.rentCatalog(country.providerId, rentHoursParam(params));
      return json({
        countries: indexed(
          SIM_COUNTRIES.filter((candidate) => candidate.rentSupported).map(
            (candidate) => candidate.providerId,
          ),
        ),
        operators: indexed(['any', ...country.operators]),
        services: Object.fromEntries(
          offers.map((offer) => [
            offer.service,
            {
              cost: offer.costUsd,
              // Newer providers report stock as {current, total}; older ones as a number.
              quant: style === 'hero' ? { current: offer.stock, total: offer.stock } : offer.stock,
            },
          ]),
        ),
      });
    },
  },

  getRentNumber: {
    errors: 'message',
    handle: ({ engine, style, params }) => {
      const rent = engine.rent({
        service: serviceParam(params),
        countryId: countryParam(params),
        operator: params.operator,
        hours: rentHoursParam(params),
        webhookUrl: params.url?.trim() || undefined,
      });
      return json(rentPhone(rent, style));
    },
  },

  getRentStatus: {
    errors: 'message',
    handle: ({ engine, style, params }) => {
      const rent = engine.rentById(params.id);
      if (rent.status === 'cancelled') throw new SimulatorRefusal('STATUS_CANCEL');
      if (rent.status === 'finished') throw new SimulatorRefusal('STATUS_FINISH');
      if (rent.status === 'revoked') throw new SimulatorRefusal('STATUS_REVOKE');
      if (rent.sms.length === 0) throw new SimulatorRefusal('STATUS_WAIT_CODE');
      const size = integer(params.size, 10, 'INVALID_PARAMETER');
      const pageNumber = integer(params.page, 1, 'INVALID_PARAMETER');
      const newestFirst = [...rent.sms].reverse();
      const values = page(newestFirst, (pageNumber - 1) * size, size).map((sms) =>
        rentMessage(rent, sms, style),
      );
      return style === 'classic'
        ? json({ status: 'success', quantity: String(rent.sms.length), values: indexed(values) })
        : json({
            status: 'success',
            quantity: rent.sms.length,
            service: rent.service,
            currency: USD_CURRENCY,
            values,
          });
    },
  },

  setRentStatus: {
    errors: 'message',
    handle: ({ engine, params }) => {
      engine.setRentStatus(params.id, integer(params.status, undefined, 'INCORECT_STATUS'));
      return json({ status: 'success' });
    },
  },

  getRentList: {
    errors: 'message',
    handle: ({ engine, style }) => {
      const values = engine.activeRents().map((rent) => ({ id: rent.id, phone: rent.phoneNumber }));
      return json({ status: 'success', values: style === 'classic' ? indexed(values) : values });
    },
  },

  continueRentNumber: {
    errors: 'message',
    handle: ({ engine, style, params }) =>
      json(rentPhone(engine.extendRent(params.id, rentHoursParam(params)), style)),
  },

  getContinueRentPriceNumber: {
    errors: 'message',
    handle: ({ engine, params }) =>
      json({
        status: 'success',
        price: engine.extensionPrice(params.id, rentHoursParam(params)),
        currency: USD_CURRENCY,
      }),
  },

  continueRentInfo: {
    errors: 'message',
    handle: ({ engine, params }) => {
      const price = engine.extensionPrice(params.id, rentHoursParam(params, 'hours'));
      return json({
        status: 'success',
        price,
        currency: USD_CURRENCY,
        maxHours: MAX_RENT_HOURS,
        ...(flagParam(params.needHistory) ? { history: {} } : {}),
      });
    },
  },
};

/** Every action the endpoint knows, whatever the style. */
export const HANDLER_ACTIONS: readonly string[] = Object.keys(ACTIONS);

/** Answers one handler_api.php call; refusals come back rendered in the error style, never thrown. */
export function answerAction(action: string, context: ActionContext): SimReply {
  try {
    const known = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
    if (!known || !(known.styles?.includes(context.style) ?? true)) throw new SimulatorRefusal('BAD_ACTION');
    return known.handle(context);
  } catch (error) {
    if (error instanceof SimulatorRefusal)
      return renderRefusal(error, action, context.errorStyle, context.nowMs);
    throw error;
  }
}
