import type { RefusedReason } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { OrderKind } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import { type Candidate, placeWithFailover } from '../../providers/sms/failover';
import type { ProviderPool } from '../../providers/sms/pool';
import type { OrderCallRecord, OrderHistory } from './history';
import { upstreamFailure } from './upstream-failure';

/** How placing a held order reads where the kinds differ. */
export interface Placing<Placed, Row> {
  kind: OrderKind;
  orderId: number;
  /** Who buys it: the throttle of abusive buyers looks at them before any supplier is asked. */
  buyer: OrderBuyer;
  candidates: readonly Candidate[];
  pair: { service: string; countryId: string };
  /** Points the held order at the next candidate, with its ceiling; false when it is not pending any more. */
  moveTo(candidate: Candidate): Promise<boolean>;
  place(candidate: Candidate): Promise<Placed>;
  /** Whether a provider that named its minimum price (WRONG_MAX_PRICE:<min>) is asked once more at it. */
  mayRetryAt?(provider: string, minimum: number): boolean;
  /** Refunds the held order once, because every candidate refused; `reason` is the last refusal's. */
  refund(reason: RefusedReason): Promise<unknown>;
  /**
   * Records what the provider issued on the pending order, and the placement's calls to its history in the
   * same statement; undefined when the order was settled otherwise meanwhile.
   */
  settle(placed: Placed, provider: string, calls: readonly OrderCallRecord[]): Promise<Row | undefined>;
  /** Gives back what a provider issued for an order the reconciler settled meanwhile. */
  release(placed: Placed, provider: string): Promise<unknown>;
}

/** The customer an order is bought for, and the API key it goes through when it does. */
export interface OrderBuyer {
  userId: number;
  apiKeyId: number | null;
}

/**
 * Decides whether the order's buyer may buy at all (abusive-buyer isolation, modules/alerts): throws the
 * refusal (`buyer_throttled`) for a buyer past the operator's thresholds, before any supplier is asked.
 */
export interface BuyerGate {
  admit(buyer: OrderBuyer): Promise<void>;
}

interface PlaceOrderDeps {
  providers: ProviderPool;
  history: OrderHistory;
  clock: Clock;
  log: FastifyBaseLogger;
  buyers?: BuyerGate;
}

/**
 * The one path from held money to an issued order, for one-time numbers and rents alike (ADR 0017): each
 * candidate in routing order until one issues it, every call written to the order's history; a clean
 * refusal everywhere refunds the hold once, an unknown outcome is left to the reconciler, and a number that
 * arrives for an order settled meanwhile is given back upstream.
 */
export async function placeOrder<Placed, Row>(
  deps: PlaceOrderDeps,
  placing: Placing<Placed, Row>,
): Promise<Row> {
  const { kind, orderId } = placing;
  // Every purchase (web, reseller protocol, JSON API, MCP) comes through here: one place decides a buyer's
  // throttle, and a refused one gets its hold back at once, like any refusal.
  if (deps.buyers) {
    try {
      await deps.buyers.admit(placing.buyer);
    } catch (error) {
      await placing.refund('buyer_throttled');
      throw error;
    }
  }
  const placement = await placeWithFailover({
    clock: deps.clock,
    candidates: placing.candidates,
    pool: deps.providers,
    pair: placing.pair,
    what: kind === 'activation' ? 'purchase' : 'rent',
    orderId,
    log: deps.log,
    moveTo: placing.moveTo,
    place: placing.place,
    mayRetryAt: placing.mayRetryAt,
  });
  const calls: OrderCallRecord[] = placement.attempts.map((attempt) => ({
    orderId,
    at: attempt.at,
    provider: attempt.provider,
    action: 'buy',
    outcome: attempt.outcome,
    // What the provider was allowed to charge (in its currency), and why it refused when it did.
    detail: [attempt.detail, `Ceiling ${attempt.upstreamCost} in the provider's currency.`]
      .filter(Boolean)
      .join(' '),
    latencyMs: attempt.latencyMs,
  }));
  const record = () =>
    deps.history
      .add(kind, calls)
      .catch((error: unknown) =>
        deps.log.warn({ err: error, orderId, kind }, 'could not record a placement'),
      );
  // An issued order writes its calls with its number, one statement after the supplier's answer; any other
  // outcome, or a settle that failed, writes them on their own.
  if (placement.kind !== 'placed') await record();
  const superseded = kind === 'activation' ? 'purchase_superseded' : 'rent_superseded';
  switch (placement.kind) {
    case 'superseded':
      throw fail(superseded);
    case 'unknown':
      deps.log.warn(
        { orderId, kind, provider: placement.provider },
        'outcome unknown; left for reconciliation',
      );
      throw fail(kind === 'activation' ? 'purchase_outcome_unknown' : 'rent_outcome_unknown');
    case 'refused':
      await placing.refund(`upstream_${placement.error.kind}`);
      throw upstreamFailure(placement.error);
    case 'placed': {
      const settled = await placing
        .settle(placement.value, placement.provider, calls)
        .catch(async (error) => {
          await record();
          throw error;
        });
      if (settled) return settled;
      // The reconciler gave up on this order and refunded it while the upstream was answering.
      await placing.release(placement.value, placement.provider).catch(() => {});
      throw fail(superseded);
    }
  }
}
