import { centsToDollars, countryById, rentServices } from '@simcode/contract';
import {
  activeActivationBody,
  countryBody,
  countryParam,
  formatUsd,
  indexed,
  json,
  maxPriceParam,
  numberV2Body,
  type Params,
  ProtocolRefusal,
  type ProtocolReply,
  protocolIds,
  type RefusalToken,
  renderRefusal,
  rentHoursParam,
  rentMessageBody,
  rentPhoneBody,
  saDateTime,
  serviceParam,
  statusV2Body,
  text,
  USD_CURRENCY,
} from '@simcode/sms-activate-protocol';
import { type Activation, liveActivationStatuses, type RentRow } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { UserCache } from '../../lib/user-cache';
import { type AuthenticatedKey, KeyCapError } from '../api-keys/service';
import { ANY_OPERATOR } from '../catalog/service';
import { isLiveRent } from '../orders/lifecycle';
import { orderIdOf } from '../orders/rents/presenter';
import type { ResellerDeps } from './deps';

const LIST_LIMIT = 100;
const TOP_COUNTRIES = 10;
const MIN_RENT_HOURS = 4;
const MAX_RENT_HOURS = 720;
/** A number matching phoneException is given back and another bought, at most this many times. */
const PHONE_EXCEPTION_TRIES = 3;
const STATUS_CACHE_TTL_MS = 10_000;

const usd = (cents: number) => centsToDollars(cents);

interface Call {
  key: AuthenticatedKey;
  params: Params;
}

/** The protocol's tokens for our services' refusals (their stable `code`). */
const TOKEN_OF_CODE: Readonly<Record<string, RefusalToken>> = {
  insufficient_balance: 'NO_BALANCE',
  price_changed: 'WRONG_MAX_PRICE',
  out_of_stock: 'NO_NUMBERS',
  upstream_no_numbers: 'NO_NUMBERS',
  unknown_operator: 'NO_NUMBERS',
  unknown_service: 'BAD_SERVICE',
  service_not_offered: 'BAD_SERVICE',
  unknown_country: 'BAD_COUNTRY',
  not_found: 'NO_ACTIVATION',
  early_cancel: 'EARLY_CANCEL_DENIED',
  code_arrived: 'BAD_STATUS',
  cannot_cancel: 'BAD_STATUS',
  already_canceled: 'NO_ACTIVATION',
  expired: 'NO_ACTIVATION',
  pending: 'NO_ACTIVATION',
  rate_limited: 'BANNED',
};
/** The rent actions' own words for the same refusals. */
const RENT_TOKEN_OF_CODE: Readonly<Record<string, RefusalToken>> = {
  ...TOKEN_OF_CODE,
  unknown_country: 'WRONG_COUNTRY',
  not_found: 'INVALID_PHONE',
  cancel_window_over: 'CANT_CANCEL',
  sms_arrived: 'CANT_CANCEL',
  cannot_cancel: 'CANT_CANCEL',
  renewal_pending: 'CANT_CANCEL',
  ended: 'RENT_DIE',
  pending: 'INVALID_PHONE',
};

/** Any failure of an action, as the protocol's token: nothing escapes as an HTTP error. */
export function refusalOf(error: unknown, action: string): ProtocolRefusal {
  if (error instanceof ProtocolRefusal) return error;
  if (error instanceof KeyCapError) return new ProtocolRefusal('NO_BALANCE');
  const rent = RENT_ACTIONS.has(action);
  if (error instanceof AppError) {
    const token = (rent ? RENT_TOKEN_OF_CODE : TOKEN_OF_CODE)[error.code];
    // A price refusal names the price a purchase can succeed at, as WRONG_MAX_PRICE does.
    const price = error.details?.price;
    if (token) return new ProtocolRefusal(token, typeof price === 'number' ? price.toFixed(2) : undefined);
    if (error.statusCode === 402) return new ProtocolRefusal('NO_BALANCE');
    if (error.code.startsWith('upstream_') || error.statusCode >= 500)
      return new ProtocolRefusal(BUY_ACTIONS.has(action) ? 'NO_NUMBERS' : 'ERROR_SQL');
    return new ProtocolRefusal('BAD_ACTION');
  }
  return new ProtocolRefusal('ERROR_SQL');
}

export function render(refusal: ProtocolRefusal, action: string, nowMs: number): ProtocolReply {
  return renderRefusal(refusal, action, 'classic', nowMs);
}

const BUY_ACTIONS = new Set(['getNumber', 'getNumberV2', 'getRentNumber', 'continueRentNumber']);
const RENT_ACTIONS = new Set([
  'getRentServicesAndCountries',
  'getRentNumber',
  'getRentStatus',
  'setRentStatus',
  'getRentList',
  'continueRentNumber',
  'getContinueRentPriceNumber',
]);

// Parameters ----------------------------------------------------------------------------------------------

function positiveId(value: string | undefined, token: RefusalToken): number {
  const id = Number(value?.trim());
  if (!value || !Number.isSafeInteger(id) || id <= 0) throw new ProtocolRefusal(token);
  return id;
}

/** Our country (ISO code) of the protocol's `country`. */
function countryIsoParam(params: Params, token: 'BAD_COUNTRY' | 'WRONG_COUNTRY' = 'BAD_COUNTRY'): string {
  const iso = protocolIds.isoOf(String(countryParam(params, token)));
  if (!iso) throw new ProtocolRefusal(token);
  return iso;
}

function hoursParam(params: Params): number {
  const hours = rentHoursParam(params);
  if (hours < MIN_RENT_HOURS || hours > MAX_RENT_HOURS) throw new ProtocolRefusal('INVALID_TIME');
  return hours;
}

/** `7918,7900111`: country code and 3 to 6 more digits each, at most 20. */
function phoneExceptionParam(params: Params): string[] {
  const raw = params.phoneException?.trim();
  if (!raw) return [];
  const prefixes = raw.split(',').map((entry) => entry.trim());
  if (prefixes.length > 20 || prefixes.some((prefix) => !/^\d{4,10}$/.test(prefix)))
    throw new ProtocolRefusal('WRONG_EXCEPTION_PHONE');
  return prefixes;
}

// Actions -------------------------------------------------------------------------------------------------

type Handler = (call: Call) => Promise<ProtocolReply> | ProtocolReply;

/** A key browsing rent prices: its uncached reads are its own share of the providers' budget. */
const browsing = (key: AuthenticatedKey) => ({ browsing: `key:${key.id}` });

export function createHandlerApi(deps: ResellerDeps) {
  const { activations, rentals, catalog, apiKeys, money, clock, log } = deps;
  const statusCache = new UserCache<string>({
    clock,
    ttlMs: STATUS_CACHE_TTL_MS,
    maxEntries: 100_000,
    events: deps.events,
    invalidatedBy: (event) => event.type === 'numbers',
  });

  async function ownActivation(call: Call): Promise<Activation> {
    const order = await activations.find(call.key.userId, positiveId(call.params.id, 'NO_ACTIVATION'));
    if (!order || order.status === 'failed') throw new ProtocolRefusal('NO_ACTIVATION');
    return order;
  }

  async function ownRent(call: Call): Promise<RentRow> {
    if (!call.params.id?.trim()) throw new ProtocolRefusal('NO_ID_RENT');
    const found = await rentals.findOwnById(call.key.userId, positiveId(call.params.id, 'INVALID_PHONE'));
    if (!found) throw new ProtocolRefusal('INVALID_PHONE');
    return found;
  }

  /** The operator to buy from: the first of the list the country has, `any` when none is asked. */
  function operatorParam(params: Params, countryId: string): string {
    const asked = (params.operator ?? '')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    if (asked.length === 0 || asked.includes(ANY_OPERATOR)) return ANY_OPERATOR;
    const country = catalog.countries().find((entry) => entry.id === countryId);
    const known = asked.find((key) => country?.operators.some((operator) => operator.key === key));
    if (!known) throw new ProtocolRefusal('NO_NUMBERS');
    return known;
  }

  async function buy(call: Call): Promise<Activation> {
    const service = serviceParam(call.params);
    const countryId = countryIsoParam(call.params);
    const operator = operatorParam(call.params, countryId);
    const maxPrice = maxPriceParam(call.params);
    const exceptions = phoneExceptionParam(call.params);
    const quote = catalog.quote(countryId, operator, service);
    // maxPrice is in dollars, against our price: the payload is the lowest price a buy can succeed at.
    if (maxPrice !== undefined && quote.priceCents > Math.round(maxPrice * 100))
      throw new ProtocolRefusal('WRONG_MAX_PRICE', usd(quote.priceCents).toFixed(2));
    const request = { countryId, operator, service };
    const through = apiKeys.spendThrough(call.key);
    // The customer refuses numbers with these prefixes: one that matches is given back and another tried.
    return exceptions.length > 0
      ? activations.buyExcluding(call.key.userId, request, through, exceptions, PHONE_EXCEPTION_TRIES)
      : activations.buy(call.key.userId, request, through);
  }

  async function statusText(order: Activation): Promise<string> {
    switch (order.status) {
      case 'pending':
      case 'waiting':
        return 'STATUS_WAIT_CODE';
      case 'received':
      case 'completed': {
        const code = (await activations.latestCode(order)) ?? '';
        if (await activations.awaitingAnotherSms(order)) return `STATUS_WAIT_RETRY:${code}`;
        return `STATUS_OK:${code}`;
      }
      default:
        return 'STATUS_CANCEL';
    }
  }

  function activeItem(order: Activation, code: string | null, smsText: string | null) {
    return activeActivationBody(
      {
        id: String(order.id),
        service: protocolIds.serviceOf(order.service),
        phoneNumber: order.phoneNumber!,
        costUsd: usd(order.priceCents),
        status: order.status === 'received' ? '2' : '4',
        codes: code === null ? [] : [code],
        texts: smsText === null ? [] : [smsText],
        repeated: false,
        boughtAtMs: order.createdAt.getTime(),
        countryId: protocolIds.countryOf(order.countryId),
        countryName: countryById(order.countryId)?.name ?? order.countryId,
      },
      'classic',
    );
  }

  function rentPhone(rent: RentRow) {
    const endsAtMs = (rent.endsAt ?? rent.createdAt).getTime();
    return rentPhoneBody({ id: rent.id, phoneNumber: rent.phoneNumber!, endsAtMs }, 'classic');
  }

  async function rentOptionFor(params: Params) {
    const canonical = serviceParam(params);
    const option = rentServices.find((entry) => entry.service === canonical);
    if (!option) throw new ProtocolRefusal('BAD_SERVICE');
    return option;
  }

  const balance: Handler = async ({ key }) =>
    text(`ACCESS_BALANCE:${formatUsd(usd(await money.balanceCents(key.userId)))}`);

  const handlers: Record<string, Handler> = {
    getBalance: balance,
    getBalanceAndCashBack: balance,

    getCountries: async ({ key }) => {
      const rentCountries = new Set(
        await rentals.catalog.countries(browsing(key)).catch(() => [] as string[]),
      );
      return json(
        Object.fromEntries(
          catalog
            .countries()
            .map((country) => ({ country, id: protocolIds.countryOf(country.id) }))
            .filter(({ id }) => id >= 0)
            .map(({ country, id }) => [
              String(id),
              countryBody({ id, name: country.name, rent: rentCountries.has(country.id) }),
            ]),
        ),
      );
    },

    getServicesList: ({ params }) => {
      const countries = params.country?.trim()
        ? [countryIsoParam(params)]
        : catalog.countries().map((c) => c.id);
      const seen = new Map<string, string>();
      for (const countryId of countries)
        for (const offer of catalog.services(countryId)) seen.set(offer.service, offer.name);
      return json({
        status: 'success',
        services: [...seen].map(([code, name]) => ({ code: protocolIds.serviceOf(code), name })),
      });
    },

    getOperators: ({ params }) => {
      const countries = params.country?.trim()
        ? catalog.countries().filter((country) => country.id === countryIsoParam(params))
        : catalog.countries();
      const listed = countries
        .map(
          (country) =>
            [
              String(protocolIds.countryOf(country.id)),
              country.operators.map((o) => o.key).filter((k) => k !== ANY_OPERATOR),
            ] as const,
        )
        .filter(([id, operators]) => id !== '-1' && operators.length > 0);
      if (listed.length === 0) throw new ProtocolRefusal('OPERATORS_NOT_FOUND');
      return json({ status: 'success', countryOperators: Object.fromEntries(listed) });
    },

    getPrices: ({ params }) => {
      const countries = params.country?.trim()
        ? [countryIsoParam(params)]
        : catalog.countries().map((c) => c.id);
      const service = params.service?.trim() ? serviceParam(params) : undefined;
      const prices: Record<string, Record<string, { cost: number; count: number }>> = {};
      for (const countryId of countries) {
        const id = protocolIds.countryOf(countryId);
        if (id < 0) continue;
        const row: Record<string, { cost: number; count: number }> = {};
        for (const offer of catalog.services(countryId))
          if (!service || offer.service === service)
            row[protocolIds.serviceOf(offer.service)] = { cost: usd(offer.priceCents), count: offer.stock };
        if (Object.keys(row).length > 0) prices[String(id)] = row;
      }
      return json(prices);
    },

    getTopCountriesByService: ({ params }) => {
      const service = params.service?.trim() ? serviceParam(params) : undefined;
      const ranked = catalog
        .countries()
        .flatMap((country) =>
          catalog
            .services(country.id)
            .filter((offer) => offer.stock > 0 && (!service || offer.service === service))
            .map((offer) => ({ id: protocolIds.countryOf(country.id), offer })),
        )
        .filter(({ id }) => id >= 0)
        .sort((left, right) => right.offer.stock - left.offer.stock)
        .slice(0, TOP_COUNTRIES);
      return json(
        indexed(
          ranked.map(({ id, offer }) => ({
            country: id,
            count: offer.stock,
            price: usd(offer.priceCents),
            retail_price: usd(offer.priceCents),
          })),
        ),
      );
    },

    getNumber: async (call) => {
      const order = await buy(call);
      return text(`ACCESS_NUMBER:${order.id}:${order.phoneNumber}`);
    },

    getNumberV2: async (call) => {
      const order = await buy(call);
      return json(
        numberV2Body(
          {
            id: String(order.id),
            phoneNumber: order.phoneNumber!,
            costUsd: usd(order.priceCents),
            countryId: protocolIds.countryOf(order.countryId),
            dialCode: countryById(order.countryId)?.dialCode ?? '',
            service: protocolIds.serviceOf(order.service),
            operator: order.operator,
            boughtAtMs: order.createdAt.getTime(),
            endsAtMs: order.expiresAt.getTime(),
          },
          'classic',
          { withCurrencyAndEnd: true },
        ),
      );
    },

    getStatus: async (call) => {
      const id = positiveId(call.params.id, 'NO_ACTIVATION');
      const status = await statusCache.getOrLoad(call.key.userId, String(id), async () =>
        statusText(await ownActivation(call)),
      );
      return text(status);
    },

    getStatusV2: async (call) => {
      const order = await ownActivation(call);
      if (
        !(liveActivationStatuses as readonly string[]).includes(order.status) &&
        order.status !== 'completed'
      )
        return text('STATUS_CANCEL');
      const [latest] = (await activations.messagesOf([order.id])).slice(-1);
      const last = latest && {
        code: latest.code,
        text: latest.text,
        receivedAtMs: latest.receivedAt.getTime(),
      };
      return json(
        statusV2Body(
          { id: String(order.id), service: protocolIds.serviceOf(order.service) },
          last,
          'classic',
        ),
      );
    },

    setStatus: async (call) => {
      const status = call.params.status?.trim();
      if (!status || !['1', '3', '6', '8', '-1'].includes(status)) {
        await ownActivation(call);
        throw new ProtocolRefusal('BAD_STATUS');
      }
      const order = await ownActivation(call);
      switch (status) {
        case '1':
          if (order.status !== 'waiting' && order.status !== 'received')
            throw new ProtocolRefusal('BAD_STATUS');
          return text('ACCESS_READY');
        case '3': {
          if (order.status !== 'received' || order.expiresAt.getTime() <= clock.now().getTime())
            throw new ProtocolRefusal('BAD_STATUS');
          await activations.requestAnotherSms(order);
          return text('ACCESS_RETRY_GET');
        }
        case '6': {
          if (order.status === 'completed') return text('ACCESS_ACTIVATION');
          if (order.status !== 'received') throw new ProtocolRefusal('BAD_STATUS');
          await activations.complete(order);
          return text('ACCESS_ACTIVATION');
        }
        default: {
          if (order.status === 'canceled') return text('ACCESS_CANCEL');
          try {
            await activations.cancel(call.key.userId, order.id);
          } catch (error) {
            // A cancel that lost a race answers for the state the order is in: cancelled by the other one.
            if ((await activations.find(call.key.userId, order.id))?.status === 'canceled')
              return text('ACCESS_CANCEL');
            throw error;
          }
          return text('ACCESS_CANCEL');
        }
      }
    },

    getActiveActivations: async ({ key }) => {
      const orders = (await activations.listRows(key.userId, LIST_LIMIT)).filter(
        (order) => order.status === 'waiting' || order.status === 'received',
      );
      if (orders.length === 0) throw new ProtocolRefusal('NO_ACTIVATIONS');
      const messages = await activations.messagesOf(orders.map((order) => order.id));
      return json({
        status: 'success',
        activeActivations: orders.map((order) => {
          const last = messages.filter((message) => message.activationId === order.id).at(-1);
          return activeItem(order, last?.code ?? null, last?.text ?? null);
        }),
      });
    },

    getHistory: async ({ key, params }) => {
      const limit = Math.min(Math.max(Number(params.limit) || LIST_LIMIT, 1), LIST_LIMIT);
      const orders = await activations.listRows(key.userId, limit);
      const messages = await activations.messagesOf(orders.map((order) => order.id));
      return json(
        orders.map((order) => ({
          id: order.id,
          date: saDateTime(order.createdAt.getTime()),
          phone: order.phoneNumber,
          sms: messages.filter((message) => message.activationId === order.id).map((message) => message.text),
          cost: usd(order.priceCents),
          currency: USD_CURRENCY,
          service: protocolIds.serviceOf(order.service),
          country: protocolIds.countryOf(order.countryId),
          status:
            { received: '2', completed: '6', canceled: '8', expired: '10' }[order.status as string] ?? '4',
        })),
      );
    },

    getRentServicesAndCountries: async ({ key, params }) => {
      const hours = hoursParam(params);
      const rentCountries = await rentals.catalog.countries(browsing(key));
      const countryId = params.country?.trim() ? countryIsoParam(params, 'WRONG_COUNTRY') : rentCountries[0];
      const offers = countryId ? await rentals.catalog.offers(countryId, hours, browsing(key)) : [];
      const services: Record<string, { cost: number; quant: number }> = {};
      for (const offer of offers) {
        const code = protocolIds.serviceOf(offer.service);
        services[code] ??= { cost: usd(offer.priceCents), quant: offer.stock };
      }
      return json({
        countries: indexed(rentCountries.map((iso) => protocolIds.countryOf(iso)).filter((id) => id >= 0)),
        operators: { '0': ANY_OPERATOR },
        services,
      });
    },

    getRentNumber: async (call) => {
      const option = await rentOptionFor(call.params);
      const hours = hoursParam(call.params);
      const countryId = countryIsoParam(call.params, 'WRONG_COUNTRY');
      const rent = await rentals.rent(
        call.key.userId,
        {
          countryId,
          serviceKey: option.key,
          period: { unit: 'hour', count: hours, hours, renewable: false },
        },
        apiKeys.spendThrough(call.key),
      );
      return json(rentPhone(rent));
    },

    getRentStatus: async (call) => {
      const rent = await ownRent(call);
      const messages = await rentals.messagesOf(rent);
      if (messages.length === 0) {
        if (rent.status === 'canceled') throw new ProtocolRefusal('STATUS_CANCEL');
        if (rent.status === 'expired') throw new ProtocolRefusal('STATUS_FINISH');
        throw new ProtocolRefusal('STATUS_WAIT_CODE');
      }
      const newestFirst = [...messages].reverse();
      return json({
        status: 'success',
        quantity: String(messages.length),
        values: indexed(
          newestFirst.map((message) =>
            rentMessageBody(
              { from: message.sender, text: message.text, receivedAtMs: message.receivedAt.getTime() },
              protocolIds.serviceOf(rent.service),
              'classic',
            ),
          ),
        ),
      });
    },

    setRentStatus: async (call) => {
      const rent = await ownRent(call);
      const status = call.params.status?.trim();
      if (status !== '1' && status !== '2') throw new ProtocolRefusal('INCORECT_STATUS');
      if (rent.status === 'canceled') throw new ProtocolRefusal('ALREADY_CANCEL');
      if (rent.status === 'expired') throw new ProtocolRefusal('ALREADY_FINISH');
      if (status === '2') {
        await rentals.cancel(call.key.userId, orderIdOf(rent) ?? '');
        return json({ status: 'success' });
      }
      if (!isLiveRent(rent.status)) throw new ProtocolRefusal('INVALID_PHONE');
      const finished = await rentals.finishEarly(rent);
      if (!finished) throw new ProtocolRefusal('CANT_CANCEL');
      return json({ status: 'success' });
    },

    getRentList: async ({ key }) => {
      const live = (await rentals.listRows(key.userId, LIST_LIMIT)).filter((rent) => isLiveRent(rent.status));
      if (live.length === 0) throw new ProtocolRefusal('NO_NUMBERS');
      return json({
        status: 'success',
        values: indexed(live.map((rent) => ({ id: String(rent.id), phone: rent.phoneNumber }))),
      });
    },

    continueRentNumber: async (call) => {
      const rent = await ownRent(call);
      const hours = hoursParam(call.params);
      const orderId = orderIdOf(rent);
      if (!orderId) throw new ProtocolRefusal('INVALID_PHONE');
      // Made through the key: the renewal counts against its caps, checked in the charge's transaction.
      const renewed = await rentals.renew(call.key.userId, orderId, hours, apiKeys.spendThrough(call.key));
      return json(rentPhone(renewed));
    },

    getContinueRentPriceNumber: async (call) => {
      const rent = await ownRent(call);
      const orderId = orderIdOf(rent);
      if (!orderId) throw new ProtocolRefusal('INVALID_PHONE');
      const quote = await rentals.renewalPrice(call.key.userId, orderId, hoursParam(call.params));
      return json({ status: 'success', price: usd(quote.priceCents), currency: USD_CURRENCY });
    },
  };

  return {
    actions: Object.keys(handlers),
    /** Runs one action; refusals are rendered, never thrown. Cap refusals are written to the key's log. */
    async answer(action: string, call: Call): Promise<ProtocolReply> {
      try {
        if (!Object.hasOwn(handlers, action)) throw new ProtocolRefusal('BAD_ACTION');
        return await handlers[action]!(call);
      } catch (error) {
        if (error instanceof KeyCapError)
          await apiKeys.note(error.apiKeyId, 'cap_refused', `${action}: ${error.detail}`).catch(() => {});
        else if (!(error instanceof ProtocolRefusal) && !(error instanceof AppError))
          log.error({ err: error, action }, 'reseller API action failed');
        return render(refusalOf(error, action), action, clock.now().getTime());
      }
    },
  };
}

export type HandlerApi = ReturnType<typeof createHandlerApi>;
