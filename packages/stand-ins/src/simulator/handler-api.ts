import { serviceByCode } from '@simcode/contract';
import {
  activeActivationBody,
  countryBody,
  countryParam,
  flagParam,
  formatUsd,
  historyItemBody,
  indexed,
  integerParam,
  json,
  maxPriceParam,
  noContent,
  numbersStatusBody,
  numberV2Body,
  offersAction,
  type Params,
  type PriceTier,
  type ProtocolAction,
  ProtocolRefusal,
  type ProtocolReply,
  pricesVerificationBody,
  protocolAction,
  type ResponseStyle,
  renderRefusal,
  rfc3339,
  serviceParam,
  statusV2Body,
  text,
  topCountryBody,
} from '@simcode/sms-activate-protocol';
import { type ActionContext, type Handler, MAX_PAGE_SIZE, page } from './action-context';
import { SIM_COUNTRIES, SIM_SERVICES, type SimCountry } from './catalog';
import type { SimulatorEngine } from './engine';
import type { SimActivation } from './model';
import { RENT_ACTIONS } from './rent-actions';

const totalStock = (tiers: readonly PriceTier[]) => tiers.reduce((sum, tier) => sum + tier.stock, 0);

/**
 * getTopCountriesByService's ten countries with the most numbers for a service. Hero's `price` is below what
 * a number sells at (its `retail_price`).
 */
function topCountries(engine: SimulatorEngine, service: string, style: ResponseStyle, freePrice: boolean) {
  return SIM_COUNTRIES.map((country) => {
    const tiers = engine.priceTiers(country, service);
    return { country, tiers, listed: tiers[0]!, total: totalStock(tiers) };
  })
    .filter((offer) => offer.total > 0)
    .sort((left, right) => right.total - left.total)
    .slice(0, 10)
    .map(({ country, tiers, listed, total }) =>
      topCountryBody(
        {
          country: country.providerId,
          count: total,
          priceUsd: Number((listed.priceUsd * 0.8).toFixed(4)),
          retailPriceUsd: listed.priceUsd,
          tiers,
        },
        style,
        freePrice,
      ),
    );
}

function numberV2(activation: SimActivation, country: SimCountry, style: ResponseStyle): ProtocolReply {
  return json(
    numberV2Body(
      {
        id: activation.id,
        phoneNumber: activation.phoneNumber,
        costUsd: activation.costUsd,
        countryId: activation.countryId,
        dialCode: country.dialCode,
        service: activation.service,
        operator: activation.operator,
        boughtAtMs: activation.createdAtMs,
        endsAtMs: activation.expiresAtMs,
        canGetAnotherSms: true,
      },
      style,
    ),
  );
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
  if (!/^\d{1,12}$/.test(value.trim())) throw new ProtocolRefusal('WRONG_DATE');
  return Number(value);
}

/**
 * getHistory (protocols.md A.4.15; SMS-Activate's and Hero's docs): the account's activations bought between
 * `start` and `end`, newest first. SMS-Activate lists the codes in `sms`, Hero the last SMS's text (or null).
 * Live and refunded ones cost 0.
 */
function history({ engine, style, params, nowMs }: ActionContext): ProtocolReply {
  const nowS = Math.floor(nowMs / 1000);
  const start = timestampParam(params.start, nowS - HISTORY_DAYS * DAY_S);
  const end = timestampParam(params.end, nowS);
  if (start < nowS - HISTORY_DAYS * DAY_S || end < start) throw new ProtocolRefusal('WRONG_DATE');
  // SMS-Activate calls the page size `limit`, Hero `size`.
  const size = integerParam(params.limit ?? params.size, DEFAULT_HISTORY_SIZE, 'INVALID_PARAMETER');
  const listed = page(
    engine.activations.activationsBetween(start * 1000, end * 1000 + 999),
    integerParam(params.offset, 0, 'INVALID_PARAMETER'),
    size,
  );
  return json(
    listed.map((activation) =>
      historyItemBody(
        {
          id: activation.id,
          boughtAtMs: activation.createdAtMs,
          phoneNumber: activation.phoneNumber,
          codes: activation.sms.flatMap((sms) => (sms.code === null ? [] : [sms.code])),
          lastText: activation.sms.at(-1)?.text ?? null,
          costUsd: activation.status === 'finished' ? activation.costUsd : 0,
          status: historyStatus(activation),
        },
        style,
      ),
    ),
  );
}

const DEFAULT_ALL_SMS_SIZE = 10;

/**
 * Hero's getAllSms: every SMS of an activation, a page at a time (`page` from 1), oldest first; a cancelled
 * or refunded activation has none to give (409 ACTIVATION_NOT_ACTIVE).
 */
function allSms({ engine, params }: ActionContext): ProtocolReply {
  const activation = engine.activations.activation(params.id);
  if (activation.status === 'cancelled') throw new ProtocolRefusal('ACTIVATION_NOT_ACTIVE');
  const size = integerParam(params.size, DEFAULT_ALL_SMS_SIZE, 'INVALID_PARAMETER');
  const pageNumber = integerParam(params.page, 1, 'INVALID_PARAMETER');
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

/** A cancelled activation answers getStatusV2 with plain `STATUS_CANCEL`. */
function statusV2(activation: SimActivation, style: ResponseStyle): ProtocolReply {
  if (activation.status === 'cancelled') return text('STATUS_CANCEL');
  return json(statusV2Body(activation, activation.sms.at(-1), style));
}

function activeItem(activation: SimActivation, engine: SimulatorEngine, style: ResponseStyle) {
  return activeActivationBody(
    {
      id: activation.id,
      service: activation.service,
      phoneNumber: activation.phoneNumber,
      costUsd: activation.costUsd,
      status: ACTIVATION_STATUS_CODES[activation.status],
      codes: activation.sms.flatMap((sms) => (sms.code === null ? [] : [sms.code])),
      texts: activation.sms.map((sms) => sms.text),
      repeated: activation.sms.length > 1,
      boughtAtMs: activation.createdAtMs,
      countryId: activation.countryId,
      countryName: engine.country(activation.countryId).name,
      canGetAnotherSms: true,
    },
    style,
  );
}

function setStatusAction(status: number, classicSuccess: string): Handler {
  return ({ engine, style, params }) => {
    engine.activations.setStatus(params.id, status);
    return style === 'hero' ? noContent : text(classicSuccess);
  };
}

const balance: Handler = ({ engine }) => text(`ACCESS_BALANCE:${formatUsd(engine.state.balanceUsd)}`);

function buyFrom(engine: SimulatorEngine, params: Params): SimActivation {
  // No number here forwards calls, as getNumbersStatus's `<service>_1` counts say.
  if (flagParam(params.forward)) throw new ProtocolRefusal('NO_NUMBERS');
  return engine.activations.buy({
    service: serviceParam(params),
    countryId: countryParam(params),
    operator: params.operator,
    maxPriceUsd: maxPriceParam(params),
    resellerUserId: params.resellerUserId?.trim() || undefined,
  });
}

/** Every action of the protocol, answered from the engine; the compiler keeps the list complete. */
const ACTIONS: Readonly<Record<ProtocolAction, Handler>> = {
  getBalance: balance,
  getBalanceAndCashBack: balance,

  getNumber: ({ engine, params }) => {
    const activation = buyFrom(engine, params);
    return text(`ACCESS_NUMBER:${activation.id}:${activation.phoneNumber}`);
  },

  getNumberV2: ({ engine, style, params }) => {
    const activation = buyFrom(engine, params);
    return numberV2(activation, engine.country(activation.countryId), style);
  },

  getStatus: ({ engine, params }) =>
    text(engine.activations.statusText(engine.activations.activation(params.id))),

  getStatusV2: ({ engine, style, params }) => statusV2(engine.activations.activation(params.id), style),

  setStatus: ({ engine, params }) =>
    text(engine.activations.setStatus(params.id, integerParam(params.status, undefined, 'BAD_STATUS'))),

  // SMS-Activate has no getAllSms (protocols.md A.4.15): classic answers BAD_ACTION.
  getAllSms: allSms,

  getHistory: history,

  finishActivation: setStatusAction(6, 'ACCESS_ACTIVATION'),
  cancelActivation: setStatusAction(8, 'ACCESS_CANCEL'),

  getActiveActivations: ({ engine, style, params }) => {
    const live = engine.activations.liveActivations();
    const items = page(
      live,
      integerParam(params.start, 0, 'INVALID_PARAMETER'),
      integerParam(params.limit, MAX_PAGE_SIZE, 'INVALID_PARAMETER'),
    );
    const listed = items.map((activation) => activeItem(activation, engine, style));
    if (style === 'hero') {
      // Hero's live answer carries both lists; only `data` is filled.
      return json({
        status: 'success',
        data: listed,
        activeActivations: { affected_rows: 0, num_rows: 0, row: [], rows: [] },
      });
    }
    // Nothing active is an error to SMS-Activate.
    if (live.length === 0) throw new ProtocolRefusal('NO_ACTIVATIONS');
    return json({ status: 'success', activeActivations: listed });
  },

  getNumbersStatus: ({ engine, params }) => {
    const country = engine.country(countryParam(params));
    return json(
      numbersStatusBody(SIM_SERVICES.map((service) => [service, engine.offer(country, service).stock])),
    );
  },

  getTopCountriesByService: ({ engine, style, params }) => {
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

  getPrices: ({ engine, style, params }) => {
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

  // Not in Hero's API (protocols.md A.4.15): it answers BAD_ACTION there.
  getPricesVerification: ({ engine, params }) => {
    const services = params.service === undefined ? SIM_SERVICES : [serviceParam(params)];
    return json(
      pricesVerificationBody(
        services.flatMap((service) =>
          SIM_COUNTRIES.map((country) => {
            const tiers = engine.priceTiers(country, service);
            return {
              service,
              country: country.providerId,
              count: totalStock(tiers),
              priceUsd: tiers[0]!.priceUsd,
              tiers,
            };
          }),
        ),
        flagParam(params.freePrice),
      ),
    );
  },

  getCountries: () =>
    json(
      Object.fromEntries(
        SIM_COUNTRIES.map((country) => [
          country.providerId,
          countryBody({
            id: country.providerId,
            iso: country.iso,
            name: country.name,
            rent: country.rentSupported,
          }),
        ]),
      ),
    ),

  getOperators: ({ engine, params }) => {
    const countries = params.country === undefined ? SIM_COUNTRIES : [engine.country(countryParam(params))];
    const listed = countries.filter((country) => country.operators.length > 0);
    if (listed.length === 0) throw new ProtocolRefusal('OPERATORS_NOT_FOUND');
    return json({
      status: 'success',
      countryOperators: Object.fromEntries(listed.map((country) => [country.providerId, country.operators])),
    });
  },

  getServicesList: () =>
    json({
      status: 'success',
      services: SIM_SERVICES.map((code) => ({ code, name: serviceByCode(code)?.name ?? code })),
    }),

  ...RENT_ACTIONS,
};

/** Answers one handler_api.php call; refusals come back rendered in the error style, never thrown. */
export function answerAction(actionName: string, context: ActionContext): ProtocolReply {
  try {
    const action = protocolAction(actionName);
    if (!action || !offersAction(action, context.style)) throw new ProtocolRefusal('BAD_ACTION');
    return ACTIONS[action](context);
  } catch (error) {
    if (error instanceof ProtocolRefusal)
      return renderRefusal(error, actionName, context.errorStyle, context.nowMs);
    throw error;
  }
}
