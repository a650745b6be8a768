import { currentLanguage, NUMBER_STATUS, type PurchasedNumber } from '@simcode/contract';
import type { Activation, ActivationMessage, ActivationStatus } from '../../../db/schema';
import { notFound } from '../../../lib/errors';
import { UserCache } from '../../../lib/user-cache';
import type { ActivationDeps } from './deps';
import { presentNumber } from './presenter';
import type { NumberListFilter, RetryRequest } from './repository';

const MAX_ORDER_ID = 2_147_483_647;

/** Status reads are served from memory between changes; this bounds staleness should an event be lost. */
const STATUS_CACHE_TTL_MS = 10_000;

/** The status string of spec section 4 for an order and its latest code. */
export function statusString(
  status: ActivationStatus,
  code: string | null,
): { status: string; code: string | null } {
  switch (status) {
    case 'received':
    case 'completed':
      return {
        status: code ? `${NUMBER_STATUS.okPrefix}${code}` : NUMBER_STATUS.okPrefix.slice(0, -1),
        code,
      };
    case 'pending':
    case 'waiting':
      return { status: NUMBER_STATUS.waiting, code: null };
    default:
      return { status: NUMBER_STATUS.canceled, code: null };
  }
}

/** `123` as an order id; anything else (too long, signed, not a number) names no order. */
export function orderIdOf(value: string): number | undefined {
  const id = /^[1-9]\d{0,9}$/.test(value) ? Number(value) : 0;
  return id > 0 && id <= MAX_ORDER_ID ? id : undefined;
}

/** What the pages and the APIs read of a user's one-time orders, from our database only. */
export function createActivationQueries(deps: ActivationDeps) {
  const { repository, clock, events } = deps;
  // Every change to an order publishes a `numbers` event for its owner, which drops these entries.
  const listCache = new UserCache<PurchasedNumber[]>({
    clock,
    ttlMs: STATUS_CACHE_TTL_MS,
    maxEntries: 20_000,
    events,
    invalidatedBy: (event) => event.type === 'numbers',
  });
  const statusCache = new UserCache<{ status: string; code: string | null }>({
    clock,
    ttlMs: STATUS_CACHE_TTL_MS,
    maxEntries: 100_000,
    events,
    invalidatedBy: (event) => event.type === 'numbers',
  });

  async function findOwn(userId: number, id: number): Promise<Activation> {
    const order = await repository.findForUser(userId, id);
    if (!order) throw notFound();
    return order;
  }

  /** An order as the APIs show it, with when its provider allows a cancel. */
  function present(order: Activation, messages: ActivationMessage[], retry?: RetryRequest): PurchasedNumber {
    return presentNumber(order, messages, {
      retry,
      earlyCancelMs: deps.providers.earlyCancelMs(order.provider),
    });
  }

  return {
    findOwn,
    present,
    /** One of the user's orders, or undefined. */
    find: (userId: number, id: number) => repository.findForUser(userId, id),
    /** The user's orders, newest first, one page at a time (after `beforeId`, or past `offset` of them). */
    listRows: (
      userId: number,
      limit: number,
      beforeId?: number,
      filter?: NumberListFilter,
      offset?: number,
    ) => repository.listForUser(userId, limit, beforeId, filter, offset),
    /** The orders' SMS (never those that came after an order ended), oldest first per order. */
    messagesOf: (ids: number[]) => repository.messagesFor(ids),
    latestCode: (order: Pick<Activation, 'id'>) => repository.latestCode(order.id),

    /** Whether the buyer asked for another SMS on the order and none has come since. */
    async awaitingAnotherSms(order: Activation): Promise<boolean> {
      if (order.status !== 'received') return false;
      const [retries, messages] = await Promise.all([
        repository.retryRequestsFor([order.id]),
        repository.messagesFor([order.id]),
      ]);
      const retry = retries.get(order.id);
      return retry !== undefined && messages.length <= retry.messagesBefore;
    },

    /** One number of the user as the API shows it, with every SMS. */
    async numberOf(userId: number, id: number): Promise<PurchasedNumber> {
      const order = await findOwn(userId, id);
      const [messages, retries] = await Promise.all([
        repository.messagesFor([id]),
        repository.retryRequestsFor([id]),
      ]);
      return present(order, messages, retries.get(id));
    },

    /** The status string of spec section 4 for a number of the user, read from our database only. */
    statusOf(userId: number, numberId: string): Promise<{ status: string; code: string | null }> {
      return statusCache.getOrLoad(userId, numberId, async () => {
        const id = orderIdOf(numberId);
        const order = id === undefined ? undefined : await repository.findForUser(userId, id);
        if (!order) throw notFound();
        const hasCode = order.status === 'received' || order.status === 'completed';
        return statusString(order.status, hasCode ? await repository.latestCode(order.id) : null);
      });
    },

    /**
     * The user's numbers, newest first. The first page is what My Numbers polls every 20 seconds: it is
     * kept in memory until the user's orders change.
     */
    listNumbers(
      userId: number,
      limit: number,
      beforeId?: number,
      filter?: NumberListFilter,
    ): Promise<PurchasedNumber[]> {
      const load = async () => {
        const orders = await repository.listForUser(userId, limit, beforeId, filter);
        const ids = orders.map((order) => order.id);
        const [messages, retries] = await Promise.all([
          repository.messagesFor(ids),
          repository.retryRequestsFor(ids),
        ]);
        const messagesByOrder = new Map<number, typeof messages>();
        for (const message of messages) {
          const list = messagesByOrder.get(message.activationId);
          if (list) list.push(message);
          else messagesByOrder.set(message.activationId, [message]);
        }
        return orders.map((order) =>
          present(order, messagesByOrder.get(order.id) ?? [], retries.get(order.id)),
        );
      };
      // Only the first page of the whole list is cached: it is what every open My Numbers page polls.
      return beforeId === undefined && filter === undefined
        ? // Per language: the list carries sentences (refund reasons) in the reader's language.
          listCache.getOrLoad(userId, `list:${limit}:${currentLanguage()}`, load)
        : load();
    },

    /** Orders placed and numbers live right now, for the dashboard's cards. */
    countsForUser: (userId: number) => repository.countsForUser(userId, clock.now()),
  };
}
