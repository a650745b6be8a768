import { FIVESIM_PRODUCTS, FIVESIM_SERVICES } from '@simcode/fivesim-protocol';
import { z } from 'zod';
import { callForText, describeCallFailure } from '../../../lib/outgoing-http';
import type { SmsLogger } from '../logger';
import { type CallMode, unavailableError, unexpectedAnswerError } from '../sms-activate/errors';
import type {
  ActivationProvider,
  ActivationState,
  ActiveActivation,
  UpstreamCountry,
  UpstreamOffer,
} from '../types';
import { fiveSimError } from './errors';

export const FIVESIM_DEFAULT_URL = 'https://5sim.net/v1';

export interface FiveSimProviderOptions {
  /** The API root, `https://5sim.net/v1` for 5sim itself. */
  baseUrl: string | (() => string);
  /** The account's API token (a JWT), sent as a bearer token. */
  token: string;
  timeoutMs: number;
  name?: string;
  logger?: SmsLogger;
}

const ORDERS_PAGE_SIZE = 100;
/** The sweep reads the history newest first and stops at orders older than this: no activation lives longer. */
const LIVE_WINDOW_MS = 60 * 60_000;
/** Keys of a country entry that are not operators. */
const COUNTRY_FIELDS = new Set(['iso', 'prefix', 'text_en', 'text_ru']);

const sms = z.object({
  text: z.string().nullish(),
  code: z.string().nullish(),
  created_at: z.string().nullish(),
  date: z.string().nullish(),
});
const order = z.object({
  id: z.union([z.number(), z.string()]).transform(String),
  phone: z.string(),
  product: z.string().nullish(),
  price: z.coerce.number().nullish(),
  status: z.string(),
  expires: z.coerce.date().nullish(),
  created_at: z.coerce.date().nullish(),
  country: z.string().nullish(),
  sms: z.array(sms).nullish(),
});
const ordersAnswer = z.object({ Data: z.array(order).nullish(), Total: z.coerce.number().nullish() });
/** `{"usa":{"iso":{"us":1},"prefix":{"+1":1},"text_en":"USA","virtual21":{"activation":1}}}` */
const countriesAnswer = z.record(z.string(), z.record(z.string(), z.unknown()));
/** `{"usa":{"telegram":{"virtual21":{"cost":0.3,"count":120,"rate":99}}}}`; read per entry. */
const pricesAnswer = z.record(z.string(), z.record(z.string(), z.record(z.string(), z.unknown())));
/** `GET /v1/user/profile`: the account, of which we read the balance. */
const profile = z.object({ balance: z.coerce.number().min(0) });

const operatorPrice = z.object({ cost: z.coerce.number().positive(), count: z.coerce.number().min(0) });

type Order = z.output<typeof order>;

/**
 * An ActivationProvider for 5sim.net's REST API (docs/protocols.md part B): a bearer token, GET for every
 * action, countries and products by name, prices per operator, errors as lower-case sentences. It has no
 * "another SMS" and sells rents as fixed products, so those capabilities are absent; it adds a ban.
 */
export function createFiveSimProvider(options: FiveSimProviderOptions): ActivationProvider {
  const name = options.name ?? 'fivesim';
  const log = options.logger;
  /** ISO code ↔ 5sim's country name, learnt from its country list. */
  let countryNames: Map<string, string> | undefined;
  let countryIsos = new Map<string, string>();

  async function call<S extends z.ZodType>(path: string, schema: S, mode: CallMode): Promise<z.output<S>> {
    const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl() : options.baseUrl;
    let status: number;
    let body: string;
    try {
      ({ status, text: body } = await callForText(`${baseUrl.replace(/\/+$/, '')}${path}`, {
        headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' },
        timeoutMs: options.timeoutMs,
      }));
    } catch (error) {
      const failure = unavailableError(describeCallFailure(error), mode);
      log?.warn(
        { provider: name, path: path.split('?')[0], token: failure.token },
        'sms upstream call failed',
      );
      throw failure;
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      const sentence = body.trim().toLowerCase();
      // Errors come as short sentences (even "no free phones" with HTTP 200), or as a bare status for a bad
      // token or a rate limit; an HTML page or garbage is no answer at all.
      const failure =
        /^[a-z][a-z ]{2,60}$/.test(sentence) || [401, 403, 429].includes(status)
          ? fiveSimError(status, sentence, mode)
          : unavailableError(`UNREADABLE_ANSWER_HTTP_${status}`, mode);
      log?.warn(
        { provider: name, path: path.split('?')[0], token: failure.token },
        'sms upstream call failed',
      );
      throw failure;
    }
    if (status >= 400) throw fiveSimError(status, typeof value === 'string' ? value : body, mode);
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw unexpectedAnswerError(`MALFORMED_${path.split('/')[2] ?? 'ANSWER'}`, mode);
    return parsed.data;
  }

  async function loadCountries(): Promise<z.output<typeof countriesAnswer>> {
    const countries = await call('/guest/countries', countriesAnswer, 'read');
    const names = new Map<string, string>();
    const isos = new Map<string, string>();
    for (const [countryName, entry] of Object.entries(countries)) {
      const iso = Object.keys((entry.iso as Record<string, unknown> | undefined) ?? {})[0];
      if (!iso) continue;
      names.set(iso.toUpperCase(), countryName);
      isos.set(countryName, iso.toUpperCase());
    }
    countryNames = names;
    countryIsos = isos;
    return countries;
  }

  async function countryName(countryId: string, mode: CallMode): Promise<string> {
    if (!countryNames) await loadCountries();
    const known = countryNames!.get(countryId);
    if (!known) throw fiveSimError(400, 'bad country', mode);
    return known;
  }

  function product(service: string, mode: CallMode): string {
    const known = FIVESIM_PRODUCTS[service];
    if (!known) throw fiveSimError(400, 'no product', mode);
    return known;
  }

  function stateOf(found: Order): ActivationState {
    const codes = (found.sms ?? []).flatMap((message) => (message.code ? [message.code] : []));
    const lastCode = codes.at(-1);
    switch (found.status) {
      case 'CANCELED':
      case 'TIMEOUT':
      case 'BANNED':
        return { kind: 'cancelled' };
      case 'FINISHED':
        return { kind: 'finished' };
      default: {
        // RECEIVED means "number issued", not "SMS received": a code shows as a non-empty `sms`.
        if (lastCode === undefined) return { kind: 'waiting' };
        const text = found.sms?.at(-1)?.text ?? undefined;
        return { kind: 'code', code: lastCode, text };
      }
    }
  }

  function activeActivation(found: Order): ActiveActivation {
    const state = stateOf(found);
    const codes = (found.sms ?? []).flatMap((message) => (message.code ? [message.code] : []));
    return {
      activationId: found.id,
      phoneNumber: found.phone.replace(/\D/g, ''),
      service: FIVESIM_SERVICES[found.product ?? ''] ?? found.product ?? '',
      countryId: found.country ? (countryIsos.get(found.country) ?? null) : null,
      state,
      codes,
      smsText: found.sms?.at(-1)?.text ?? undefined,
      activatedAt: found.created_at ?? undefined,
    };
  }

  async function orderAction(action: 'cancel' | 'finish' | 'ban', activationId: string): Promise<void> {
    await call(`/user/${action}/${encodeURIComponent(activationId)}`, order, 'write');
  }

  return {
    name,

    async getCatalog() {
      const [countries, prices] = await Promise.all([
        loadCountries(),
        call('/guest/prices', pricesAnswer, 'read'),
      ]);
      const upstreamCountries: UpstreamCountry[] = [];
      for (const [countryName, entry] of Object.entries(countries)) {
        const countryId = countryIsos.get(countryName);
        if (!countryId) continue;
        const operators = Object.keys(entry).filter(
          (key) => !COUNTRY_FIELDS.has(key) && key !== 'any' && typeof entry[key] === 'object',
        );
        upstreamCountries.push({ countryId, operators, rentSupported: false });
      }
      const offers: UpstreamOffer[] = [];
      let skipped = 0;
      for (const [countryName, products] of Object.entries(prices)) {
        const countryId = countryIsos.get(countryName);
        if (!countryId) continue;
        for (const [productName, byOperator] of Object.entries(products)) {
          const service = FIVESIM_SERVICES[productName];
          if (!service) continue;
          // Prices are per operator: each is kept for a user who picks one; the offer for any operator is
          // the cheapest operator with stock, its stock the sum.
          let cost = Number.POSITIVE_INFINITY;
          let stock = 0;
          const operators: NonNullable<UpstreamOffer['byOperator']> = {};
          for (const [operator, entry] of Object.entries(byOperator)) {
            const parsed = operatorPrice.safeParse(entry);
            if (!parsed.success) {
              skipped += 1;
              continue;
            }
            const count = Math.floor(parsed.data.count);
            operators[operator] = { cost: parsed.data.cost, stock: count };
            stock += count;
            if (count > 0) cost = Math.min(cost, parsed.data.cost);
          }
          if (Number.isFinite(cost)) offers.push({ countryId, service, cost, stock, byOperator: operators });
        }
      }
      // One malformed entry must not cost the whole catalog.
      if (skipped > 0) log?.warn({ provider: name, skipped }, 'skipped malformed price entries');
      return { countries: upstreamCountries, offers };
    },

    async buyActivation(request) {
      const country = await countryName(request.countryId, 'write');
      const operator = request.operator && request.operator !== 'any' ? request.operator : 'any';
      // 5sim honours maxPrice only with the operator `any`.
      const query = operator === 'any' ? `?maxPrice=${encodeURIComponent(String(request.maxPrice))}` : '';
      const bought = await call(
        `/user/buy/activation/${encodeURIComponent(country)}/${encodeURIComponent(operator)}/${product(request.service, 'write')}${query}`,
        order,
        'write',
      );
      return {
        activationId: bought.id,
        phoneNumber: bought.phone.replace(/\D/g, ''),
        cost: bought.price ?? undefined,
        expiresAt: bought.expires ?? undefined,
      };
    },

    async getActivationState(activationId) {
      return stateOf(await call(`/user/check/${encodeURIComponent(activationId)}`, order, 'read'));
    },

    async getBalance() {
      return (await call('/user/profile', profile, 'read')).balance;
    },

    cancelActivation: (activationId) => orderAction('cancel', activationId),
    finishActivation: (activationId) => orderAction('finish', activationId),
    banActivation: (activationId) => orderAction('ban', activationId),

    async listActiveActivations(page) {
      if (!countryNames) await loadCountries();
      const offset = Math.max(0, Math.floor(page)) * ORDERS_PAGE_SIZE;
      const answer = await call(
        `/user/orders?category=activation&limit=${ORDERS_PAGE_SIZE}&offset=${offset}&order=id&reverse=true`,
        ordersAnswer,
        'read',
      );
      const orders = answer.Data ?? [];
      const oldestMs = Math.min(...orders.map((entry) => entry.created_at?.getTime() ?? Date.now()));
      // The history holds every order ever made: a page reaching past the live window is the last needed.
      const hasMore =
        offset + orders.length < (answer.Total ?? 0) &&
        orders.length === ORDERS_PAGE_SIZE &&
        Date.now() - oldestMs < LIVE_WINDOW_MS;
      const live = orders.filter((entry) => entry.status === 'PENDING' || entry.status === 'RECEIVED');
      return { items: live.map(activeActivation), hasMore };
    },

    /**
     * The orders bought since `sinceMs`, from 5sim's order history (newest first): a closed one tells what
     * the account keeps paid, its `price` when FINISHED, nothing when CANCELED, TIMEOUT or BANNED.
     */
    async listRecentActivations(sinceMs, page = 0) {
      const offset = Math.max(0, Math.floor(page)) * ORDERS_PAGE_SIZE;
      const answer = await call(
        `/user/orders?category=activation&limit=${ORDERS_PAGE_SIZE}&offset=${offset}&order=id&reverse=true`,
        ordersAnswer,
        'read',
      );
      const orders = answer.Data ?? [];
      const inWindow = orders.filter((entry) => (entry.created_at?.getTime() ?? 0) >= sinceMs);
      const hasMore =
        inWindow.length === orders.length &&
        orders.length === ORDERS_PAGE_SIZE &&
        offset + orders.length < (answer.Total ?? 0);
      return {
        items: inWindow.map((entry) => {
          const state = stateOf(entry);
          const closed = state.kind === 'cancelled' || state.kind === 'finished';
          return {
            activationId: entry.id,
            phoneNumber: entry.phone.replace(/\D/g, ''),
            state,
            activatedAt: entry.created_at ?? undefined,
            messages: (entry.sms ?? []).flatMap((message) => (message.code ? [message.code] : [])),
            cost: closed ? (state.kind === 'finished' ? (entry.price ?? undefined) : 0) : undefined,
          };
        }),
        hasMore,
      };
    },

    // 5sim pushes nothing we subscribe to: the sync reads every order.
    parseWebhook: () => null,
  };
}
