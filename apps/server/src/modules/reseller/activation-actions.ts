import { centsToDollars, countryById } from '@simcode/contract';
import {
  activeActivationBody,
  type BoughtNumber,
  flagParam,
  historyItemBody,
  json,
  maxPriceParam,
  noContent,
  numberV2Body,
  ProtocolRefusal,
  type ProtocolReply,
  protocolIds,
  type ResponseStyle,
  serviceParam,
  statusV2Body,
  text,
} from '@simcode/sms-activate-protocol';
import { type Activation, type ActivationMessage, liveActivationStatuses } from '../../db/schema';
import { UserCache } from '../../lib/user-cache';
import type { Call, Handler, ResellerDeps } from './deps';
import {
  countryIsoParam,
  historyParams,
  offsetPage,
  operatorParam,
  phoneExceptionParam,
  positiveId,
} from './handler-params';

/** A number matching phoneException is given back and another bought, at most this many times. */
const PHONE_EXCEPTION_TRIES = 3;
const STATUS_CACHE_TTL_MS = 10_000;
/** Orders with a number that can still get an SMS: what getActiveActivations lists. */
const LIVE = ['waiting', 'received'] as const satisfies Activation['status'][];

/** The protocol's status code of an order in the lists: 4 waiting, 2 code, 6 finished, 8 cancelled, 10 refunded. */
const STATUS_CODES: Partial<Record<Activation['status'], string>> = {
  received: '2',
  completed: '6',
  canceled: '8',
  expired: '10',
};

/** Each order's SMS, oldest first. */
function byOrder(messages: readonly ActivationMessage[]): Map<number, ActivationMessage[]> {
  const grouped = new Map<number, ActivationMessage[]>();
  for (const message of messages) {
    const list = grouped.get(message.activationId);
    if (list) list.push(message);
    else grouped.set(message.activationId, [message]);
  }
  return grouped;
}

const codesOf = (messages: readonly ActivationMessage[]) =>
  messages.flatMap((message) => (message.code === null ? [] : [message.code]));

/**
 * One-time numbers through the protocol: buying (getNumber, getNumberV2), reading (getStatus, getStatusV2,
 * the active list and the history) and ending them (setStatus, Hero's finishActivation and
 * cancelActivation), over the activations service.
 */
export function createActivationActions(deps: ResellerDeps): Record<string, Handler> {
  const { activations, catalog, apiKeys, clock } = deps;
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

  async function buy({ key, params }: Call): Promise<Activation> {
    const service = serviceParam(params);
    const countryId = countryIsoParam(params);
    const operator = operatorParam(params, countryId, catalog);
    const maxPrice = maxPriceParam(params);
    const exceptions = phoneExceptionParam(params);
    // No number of ours forwards calls: a buyer who needs one is told there is none, and pays nothing.
    if (flagParam(params.forward)) throw new ProtocolRefusal('NO_NUMBERS');
    const quote = catalog.quote(countryId, operator, service);
    // maxPrice is in dollars, against our price: the payload is the lowest price a buy can succeed at.
    if (maxPrice !== undefined && quote.priceCents > Math.round(maxPrice * 100))
      throw new ProtocolRefusal('WRONG_MAX_PRICE', centsToDollars(quote.priceCents).toFixed(2));
    const request = { countryId, operator, service };
    const through = apiKeys.spendThrough(key);
    // The customer refuses numbers with these prefixes: one that matches is given back and another tried.
    return exceptions.length > 0
      ? activations.buyExcluding(key.userId, request, through, exceptions, PHONE_EXCEPTION_TRIES)
      : activations.buy(key.userId, request, through);
  }

  function boughtNumber(order: Activation): BoughtNumber {
    return {
      id: String(order.id),
      phoneNumber: order.phoneNumber!,
      costUsd: centsToDollars(order.priceCents),
      countryId: protocolIds.countryOf(order.countryId),
      dialCode: countryById(order.countryId)?.dialCode ?? '',
      service: protocolIds.serviceOf(order.service),
      operator: order.operator,
      boughtAtMs: order.createdAt.getTime(),
      endsAtMs: order.expiresAt.getTime(),
      canGetAnotherSms: activations.canGetAnotherSms(order),
    };
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

  function activeItem(order: Activation, messages: readonly ActivationMessage[], style: ResponseStyle) {
    return activeActivationBody(
      {
        id: String(order.id),
        service: protocolIds.serviceOf(order.service),
        phoneNumber: order.phoneNumber!,
        costUsd: centsToDollars(order.priceCents),
        status: order.status === 'received' ? '2' : '4',
        codes: codesOf(messages),
        texts: messages.map((message) => message.text),
        repeated: messages.length > 1,
        boughtAtMs: order.createdAt.getTime(),
        countryId: protocolIds.countryOf(order.countryId),
        countryName: countryById(order.countryId)?.name ?? order.countryId,
        canGetAnotherSms: activations.canGetAnotherSms(order),
      },
      style,
    );
  }

  /** Status 6: the buyer is done with the number; finishing twice is no error. */
  async function finish(order: Activation): Promise<void> {
    if (order.status === 'completed') return;
    if (order.status !== 'received') throw new ProtocolRefusal('BAD_STATUS');
    await activations.complete(order);
  }

  /** Status 8: the buyer gives the number back unused, and is refunded; cancelling twice is no error. */
  async function cancel(call: Call, order: Activation): Promise<void> {
    if (order.status === 'canceled') return;
    try {
      await activations.cancel(call.key.userId, order.id);
    } catch (error) {
      // A cancel that lost a race answers for the state the order is in: cancelled by the other one.
      if ((await activations.find(call.key.userId, order.id))?.status === 'canceled') return;
      throw error;
    }
  }

  /** Hero's finishActivation and cancelActivation answer 204 with nothing; a classic server, the token. */
  const done = (style: ResponseStyle, token: string): ProtocolReply =>
    style === 'hero' ? noContent : text(token);

  return {
    getNumber: async (call) => {
      const order = await buy(call);
      return text(`ACCESS_NUMBER:${order.id}:${order.phoneNumber}`);
    },

    getNumberV2: async (call) =>
      json(numberV2Body(boughtNumber(await buy(call)), call.style, { complete: true })),

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
        from: latest.sender ?? undefined,
        code: latest.code,
        text: latest.text,
        receivedAtMs: latest.receivedAt.getTime(),
      };
      return json(
        statusV2Body(
          { id: String(order.id), service: protocolIds.serviceOf(order.service) },
          last,
          call.style,
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
        case '3':
          if (order.status !== 'received' || !activations.canGetAnotherSms(order))
            throw new ProtocolRefusal('BAD_STATUS');
          await activations.requestAnotherSms(order);
          return text('ACCESS_RETRY_GET');
        case '6':
          await finish(order);
          return text('ACCESS_ACTIVATION');
        default:
          await cancel(call, order);
          return text('ACCESS_CANCEL');
      }
    },

    finishActivation: async (call) => {
      await finish(await ownActivation(call));
      return done(call.style, 'ACCESS_ACTIVATION');
    },

    cancelActivation: async (call) => {
      await cancel(call, await ownActivation(call));
      return done(call.style, 'ACCESS_CANCEL');
    },

    getActiveActivations: async ({ key, params, style }) => {
      const page = offsetPage(params.start, params.limit);
      const orders = await activations.listRows(
        key.userId,
        page.size,
        undefined,
        { statuses: LIVE },
        page.offset,
      );
      // Nothing active is an error to SMS-Activate, an empty list to Hero.
      if (orders.length === 0 && style === 'classic') throw new ProtocolRefusal('NO_ACTIVATIONS');
      const messages = byOrder(await activations.messagesOf(orders.map((order) => order.id)));
      const listed = orders.map((order) => activeItem(order, messages.get(order.id) ?? [], style));
      // SMS-Activate's clients read `activeActivations`, Hero's `data`; Hero's live server sends both.
      return json({ status: 'success', data: listed, activeActivations: listed });
    },

    getHistory: async ({ key, params, style }) => {
      const { from, toExclusive, page } = historyParams(params);
      const orders = await activations.listRows(
        key.userId,
        page.size,
        undefined,
        { from, toExclusive },
        page.offset,
      );
      const messages = byOrder(await activations.messagesOf(orders.map((order) => order.id)));
      return json(
        orders.map((order) => {
          const own = messages.get(order.id) ?? [];
          return historyItemBody(
            {
              id: String(order.id),
              boughtAtMs: order.createdAt.getTime(),
              phoneNumber: order.phoneNumber ?? '',
              codes: codesOf(own),
              lastText: own.at(-1)?.text ?? null,
              costUsd: centsToDollars(order.priceCents),
              status: STATUS_CODES[order.status] ?? '4',
            },
            style,
          );
        }),
      );
    },
  };
}
