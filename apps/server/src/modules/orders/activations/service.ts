import type { ErrorCode, ReportProblemRequest } from '@simcode/contract';
import type { Activation, ActivationStatus } from '../../../db/schema';
import { AppError, fail } from '../../../lib/errors';
import type { TicketsRepository } from '../../tickets/repository';
import type { KeySpend } from '../hold';
import { requestAnotherSms } from './another-sms';
import { type BuyRequest, buyActivation, tryLast } from './buy';
import { cancelActivation } from './cancel';
import { type ActivationDeps, callProvider } from './deps';
import { endActivationAtProvider } from './end-at-provider';
import { completeActivation, finishUpstream } from './finish';
import { cancelsAtOnceFirst, giveBack, mayGiveBack } from './give-back';
import { reportProblem } from './problem-report';
import { createActivationQueries } from './queries';
import { readFromUpstream } from './read-upstream';
import { type IncomingSms, recordPushedSms, recordSms } from './record-sms';
import { refundActivation } from './refund';
import { waitForCode } from './wait-for-code';

/** Refusals of one choice that leave the next one worth trying. */
const MOVES_ON = new Set<ErrorCode>([
  'out_of_stock',
  'price_changed',
  'unknown_operator',
  'unknown_service',
  'unknown_country',
  'service_not_offered',
  'upstream_no_numbers',
  'upstream_bad_request',
  'offer_below_guard',
]);

/**
 * One-time orders: the operations every path uses (web, SMS-Activate protocol, JSON API, MCP, console,
 * jobs, webhooks), each in a file of its own, over the dependencies the composition root built.
 */
export function createActivationService(deps: ActivationDeps, tickets: TicketsRepository) {
  const queries = createActivationQueries(deps);
  return {
    ...queries,
    /**
     * The buyer reports a problem with one of its orders. A number the service refused as already used,
     * while it still waits for its code, is ended at the supplier and refunded at once (where the supplier
     * refunds it); every other report opens a support ticket with what support needs to act on it.
     */
    async reportProblem(
      userId: number,
      orderId: number,
      report: ReportProblemRequest,
    ): Promise<{ refunded: Activation } | { ticketId: number }> {
      if (report.kind === 'number_used') {
        const order = await queries.findOwn(userId, orderId);
        // Reported twice (a double click, a retry): the first report's refund is the answer.
        if (order.status === 'canceled' && order.statusReason === 'number_used') return { refunded: order };
        if (order.status === 'waiting') {
          try {
            return { refunded: await cancelActivation(deps, userId, orderId, 'number_used') };
          } catch (error) {
            // A concurrent report gave it back first: that refund is this one's answer too.
            const latest = await queries.findOwn(userId, orderId);
            if (latest.status === 'canceled' && latest.statusReason === 'number_used')
              return { refunded: latest };
            throw error;
          }
        }
      }
      return { ticketId: await reportProblem(deps, tickets, userId, orderId, report) };
    },
    buy: (userId: number, request: BuyRequest, through?: KeySpend) =>
      buyActivation(deps, userId, request, { through }),
    /**
     * A purchase through a key that refuses numbers starting with any of `excluded` (the protocol's
     * phoneException): a number that matches is given back (cancelled at the provider before it is
     * refunded) and another bought, at most `tries` times, and only while the key has give-backs left this
     * hour. Providers that cancel at once are tried first.
     */
    async buyExcluding(
      userId: number,
      request: BuyRequest,
      through: KeySpend,
      excluded: readonly string[],
      tries: number,
    ): Promise<Activation> {
      for (let attempt = 1; attempt <= tries; attempt += 1) {
        if (!(await mayGiveBack(deps, through.apiKeyId))) break;
        const order = await buyActivation(deps, userId, request, {
          through,
          preferOver: cancelsAtOnceFirst(deps),
        });
        if (!excluded.some((prefix) => order.phoneNumber?.startsWith(prefix))) return order;
        await giveBack(deps, order);
      }
      throw fail('out_of_stock');
    },
    /**
     * Buys the first of several choices that can be had (countries in the buyer's order of preference),
     * each at most at its own price: a choice with no numbers, a price above the one allowed or an offer
     * the key's guards refuse moves on to the next; anything else (the balance, a cap) ends the purchase.
     */
    async buyFirstOf(
      userId: number,
      requests: readonly BuyRequest[],
      through?: KeySpend,
    ): Promise<Activation> {
      let last: unknown;
      for (const request of requests) {
        try {
          return await buyActivation(deps, userId, request, { through });
        } catch (error) {
          if (!(error instanceof AppError) || !MOVES_ON.has(error.code)) throw error;
          last = error;
        }
      }
      throw last;
    },
    /**
     * A new purchase of the same country, operator and service, at today's price (the second half of
     * Replace), from another provider when one sells at that price.
     */
    async repeat(userId: number, id: number, shownPriceCents?: number): Promise<Activation> {
      const order = await queries.findOwn(userId, id);
      return buyActivation(
        deps,
        userId,
        { countryId: order.countryId, operator: order.operator, service: order.service, shownPriceCents },
        { preferOver: tryLast(order.provider) },
      );
    },
    cancel: (userId: number, id: number) => cancelActivation(deps, userId, id),
    /** The buyer is done with a number that got its code (again: it stays done); one without a code is refused. */
    async finish(userId: number, id: number): Promise<Activation> {
      const order = await queries.findOwn(userId, id);
      if (order.status === 'completed') return order;
      if (order.status !== 'received') throw fail('not_received');
      return (await completeActivation(deps, order)) ?? queries.findOwn(userId, id);
    },
    refund: (
      order: Pick<Activation, 'id'>,
      from: readonly ActivationStatus[],
      to: 'canceled' | 'expired' | 'failed',
      reason: Parameters<typeof refundActivation>[4],
      alongside?: Parameters<typeof refundActivation>[5],
    ) => refundActivation(deps, order, from, to, reason, alongside),
    /**
     * Support refunds an order: its number ended at the provider first (so nothing it gets later is paid for
     * or delivered), then the refund, once, with `alongside` (the audit entry) in its transaction.
     */
    async refundBySupport(
      order: Activation,
      from: readonly ActivationStatus[],
      alongside?: Parameters<typeof refundActivation>[5],
    ) {
      await endActivationAtProvider(deps, order);
      return refundActivation(deps, order, from, 'canceled', 'refunded_by_support', alongside);
    },
    /** Cancels the order's number at its provider (support's tool); the money is the refund's business. */
    cancelAtProvider: (order: Activation) =>
      callProvider(deps, order, 'cancel', (provider) =>
        provider.cancelActivation(order.providerActivationId!),
      ),
    /** The calls made to providers about an order, with their answers. */
    historyOf: (id: number) => deps.history.of('activation', id),
    recordSms: (order: Activation, sms: IncomingSms) => recordSms(deps, order, sms),
    recordPushedSms: (provider: string, providerActivationId: string, sms: IncomingSms) =>
      recordPushedSms(deps, provider, providerActivationId, sms),
    readFromUpstream: (order: Activation) => readFromUpstream(deps, order),
    complete: (order: Activation) => completeActivation(deps, order),
    finishUpstream: (order: Activation) => finishUpstream(deps, order),
    requestAnotherSms: (order: Activation) => requestAnotherSms(deps, order),
    waitForCode: (userId: number, orderId: number, options: { timeoutMs: number; signal?: AbortSignal }) =>
      waitForCode(deps, userId, orderId, options),
    /**
     * Whether the order can still get another SMS on its number (status 3): it is live, within its lifetime,
     * and its supplier is in the pool. Every supplier kind delivers one, on request (SMS-Activate's status 3)
     * or by itself (5sim delivers every SMS of an order's lifetime), as requestAnotherSms relies on.
     */
    canGetAnotherSms: (order: Activation) =>
      (order.status === 'waiting' || order.status === 'received') &&
      order.expiresAt.getTime() > deps.clock.now().getTime() &&
      deps.providers.has(order.provider),
  };
}

export type ActivationService = ReturnType<typeof createActivationService>;
