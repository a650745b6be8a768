import { FIVESIM_PRODUCTS, FIVESIM_SERVICES } from '@simcode/fivesim-protocol';
import {
  json,
  ProtocolRefusal,
  type ProtocolReply,
  type RefusalToken,
  TEXT_TYPE,
} from '@simcode/sms-activate-protocol';
import { SIM_COUNTRIES, SIM_SERVICES, type SimCountry } from './catalog';
import type { SimulatorEngine } from './engine';
import type { SimActivation } from './model';

/**
 * The simulator's 5sim.net face (docs/protocols.md part B): the same engine as handler_api.php, answered
 * the way 5sim answers — countries and products by name, prices per operator, an order object, errors
 * as lower-case sentences with HTTP 400.
 */

/** 5sim's names for the countries it is best known by; the others are their English name in lower case. */
const COUNTRY_NAMES: Readonly<Record<string, string>> = { US: 'usa', GB: 'england' };
/** Operator of a country without named operators. */
const VIRTUAL_OPERATOR = 'virtual21';

export function fiveSimCountryName(country: SimCountry): string {
  return COUNTRY_NAMES[country.iso] ?? country.name.toLowerCase().replace(/[^a-z]/g, '');
}

const countriesByName = new Map(SIM_COUNTRIES.map((country) => [fiveSimCountryName(country), country]));
/** The simulator's services 5sim has a product name for. */
const SOLD = SIM_SERVICES.filter((service) => FIVESIM_PRODUCTS[service] !== undefined);

/** The protocol's sentence for each refusal of the engine. */
const SENTENCES: Partial<Record<RefusalToken, string>> = {
  NO_NUMBERS: 'no free phones',
  // 5sim's maxPrice below the price leaves nothing to sell at it.
  WRONG_MAX_PRICE: 'no free phones',
  NO_BALANCE: 'not enough user balance',
  BAD_COUNTRY: 'bad country',
  BAD_SERVICE: 'no product',
  WRONG_OPERATOR: 'bad operator',
  NO_ACTIVATION: 'order not found',
  ACTIVATION_NOT_ACTIVE: 'order expired',
  OTP_RECEIVED: 'order has sms',
  EARLY_CANCEL_DENIED: 'you need to wait time',
  BAD_STATUS: 'order no sms',
  ERROR_SQL: 'internal error',
  SERVER_ERROR: 'server offline',
};

/** A refusal (or a fault's token) as 5sim says it: a sentence with HTTP 400, or 401 for a key problem. */
export function renderFiveSimRefusal(refusal: ProtocolRefusal): ProtocolReply {
  if (refusal.token === 'BAD_KEY' || refusal.token === 'NO_KEY') return { status: 401, body: '' };
  const sentence = SENTENCES[refusal.token] ?? refusal.token.toLowerCase().replaceAll('_', ' ');
  return { status: 400, contentType: TEXT_TYPE, body: sentence };
}

function statusOf(activation: SimActivation): string {
  switch (activation.status) {
    case 'finished':
      return 'FINISHED';
    case 'cancelled':
      if (activation.banned) return 'BANNED';
      return activation.closedAtMs !== null && activation.closedAtMs >= activation.expiresAtMs
        ? 'TIMEOUT'
        : 'CANCELED';
    default:
      return 'RECEIVED';
  }
}

function orderOf(activation: SimActivation, engine: SimulatorEngine) {
  const country = engine.country(activation.countryId);
  return {
    id: Number(activation.id),
    phone: `+${activation.phoneNumber}`,
    operator: activation.operator === 'any' ? VIRTUAL_OPERATOR : activation.operator,
    product: FIVESIM_PRODUCTS[activation.service] ?? activation.service,
    price: activation.costUsd,
    status: statusOf(activation),
    expires: new Date(activation.expiresAtMs).toISOString(),
    sms:
      activation.sms.length === 0
        ? null
        : activation.sms.map((sms) => ({
            created_at: new Date(sms.receivedAtMs).toISOString(),
            date: new Date(sms.receivedAtMs).toISOString(),
            sender: sms.from,
            text: sms.text,
            code: sms.code ?? '',
          })),
    created_at: new Date(activation.createdAtMs).toISOString(),
    forwarding: false,
    forwarding_number: '',
    country: fiveSimCountryName(country),
  };
}

function countryByName(name: string): SimCountry {
  const country = countriesByName.get(name);
  if (!country) throw new ProtocolRefusal('BAD_COUNTRY');
  return country;
}

/** Our service of a 5sim product the simulator sells. */
function productByName(name: string): string {
  const service = FIVESIM_SERVICES[name];
  if (!service || !SOLD.includes(service)) throw new ProtocolRefusal('BAD_SERVICE');
  return service;
}

export interface FiveSimRequest {
  /** The route's name, as fault injection matches it: `buy`, `check`, `cancel`, `prices` ... */
  action: string;
  params: Readonly<Record<string, string | undefined>>;
}

/** Answers one 5sim request from the engine; refusals become sentences. */
export function answerFiveSim(engine: SimulatorEngine, request: FiveSimRequest): ProtocolReply {
  try {
    return answer(engine, request);
  } catch (error) {
    if (error instanceof ProtocolRefusal) return renderFiveSimRefusal(error);
    throw error;
  }
}

function answer(engine: SimulatorEngine, { action, params }: FiveSimRequest): ProtocolReply {
  switch (action) {
    case 'countries':
      return json(
        Object.fromEntries(
          SIM_COUNTRIES.map((country) => [
            fiveSimCountryName(country),
            {
              iso: { [country.iso.toLowerCase()]: 1 },
              prefix: { [`+${country.dialCode}`]: 1 },
              text_en: country.name,
              ...Object.fromEntries(
                (country.operators.length > 0 ? country.operators : [VIRTUAL_OPERATOR]).map((operator) => [
                  operator,
                  { activation: 1 },
                ]),
              ),
            },
          ]),
        ),
      );
    case 'prices': {
      // 5sim narrows the list to a country and to a product when asked: the whole list is large.
      const countries = params.country ? [countryByName(params.country)] : SIM_COUNTRIES;
      const sold = params.product ? [productByName(params.product)] : SOLD;
      const prices: Record<string, Record<string, Record<string, unknown>>> = {};
      for (const country of countries) {
        const operators = country.operators.length > 0 ? country.operators : [VIRTUAL_OPERATOR];
        const products: Record<string, Record<string, unknown>> = {};
        for (const service of sold) {
          const { costUsd, stock } = engine.offer(country, service);
          // One shelf, shown per operator as 5sim does: the same price, the stock shared out.
          products[FIVESIM_PRODUCTS[service]!] = Object.fromEntries(
            operators.map((operator, index) => [
              operator,
              {
                cost: costUsd,
                count: Math.floor(stock / operators.length) + (index < stock % operators.length ? 1 : 0),
                rate: 90,
              },
            ]),
          );
        }
        prices[fiveSimCountryName(country)] = products;
      }
      // By product alone, 5sim puts the product first: product → country → operator.
      if (params.product && !params.country)
        return json({
          [params.product]: Object.fromEntries(
            Object.entries(prices).map(([name, products]) => [name, products[params.product!]]),
          ),
        });
      return json(prices);
    }
    case 'buy': {
      const country = countryByName(params.country ?? '');
      const service = productByName(params.product ?? '');
      const operator =
        params.operator === 'any' || params.operator === VIRTUAL_OPERATOR ? undefined : params.operator;
      const maxPrice = params.maxPrice === undefined ? undefined : Number(params.maxPrice);
      const activation = engine.activations.buy({
        service,
        countryId: country.providerId,
        operator,
        maxPriceUsd: operator === undefined && Number.isFinite(maxPrice) ? maxPrice : undefined,
      });
      return json(orderOf(activation, engine));
    }
    case 'check':
      return json(orderOf(engine.activations.activation(params.id), engine));
    case 'cancel':
      engine.activations.setStatus(params.id, 8);
      return json(orderOf(engine.activations.activation(params.id), engine));
    case 'ban':
      return json(orderOf(engine.activations.ban(params.id), engine));
    case 'finish':
      // 5sim finishes only an order that has its SMS ("order no sms"), unlike SMS-Activate's status 6.
      if (engine.activations.activation(params.id).sms.length === 0) throw new ProtocolRefusal('BAD_STATUS');
      engine.activations.setStatus(params.id, 6);
      return json(orderOf(engine.activations.activation(params.id), engine));
    case 'profile':
      return json({ id: 1, email: 'simulator@example.test', balance: engine.state.balanceUsd, rating: 96 });
    case 'orders': {
      const limit = Math.min(100, Math.max(1, Number(params.limit ?? 100) || 100));
      const offset = Math.max(0, Number(params.offset ?? 0) || 0);
      const all = Object.values(engine.state.activations).sort((a, b) => Number(b.id) - Number(a.id));
      return json({
        Data: all.slice(offset, offset + limit).map((activation) => orderOf(activation, engine)),
        ProductNames: [],
        Statuses: [],
        Total: all.length,
      });
    }
    default:
      return { status: 404, contentType: TEXT_TYPE, body: 'record not found' };
  }
}
