import { ACTIVATION_LIFETIME_MS, buyingMessages, centsToDollars, formatCents } from '@simcode/contract';
import type { Activation } from '../../../db/schema';
import { fail, isUniqueViolation } from '../../../lib/errors';
import { salePriceCents } from '../../catalog/pricing';
import type { QuoteCandidate } from '../../catalog/service';
import { supplierCents } from '../../reconciliation/charges';
import { holdMoney, type KeySpend } from '../hold';
import { placeOrder } from '../place-order';
import { type ActivationDeps, callProvider, numbersChanged } from './deps';
import { refundActivation } from './refund';

export interface BuyRequest {
  countryId: string;
  operator: string;
  service: string;
  /** The price the buyer was shown: a higher price now is refused with the new one, to confirm. */
  shownPriceCents?: number;
}

export interface BuyOptions {
  /** The API key the purchase is made through: it carries the key and counts against its caps. */
  through?: KeySpend;
  /**
   * Providers tried last when another can serve at the same price: a user who replaces a number rarely
   * wants the same supplier's next one; a buyer who may give the number back wants one that cancels at once.
   */
  preferOver?: (candidates: readonly QuoteCandidate[]) => QuoteCandidate[];
}

/** The candidates with `provider`'s moved to the end, keeping the others' routing order. */
export function tryLast(provider: string) {
  return (candidates: readonly QuoteCandidate[]): QuoteCandidate[] => [
    ...candidates.filter((candidate) => candidate.provider !== provider),
    ...candidates.filter((candidate) => candidate.provider === provider),
  ];
}

/**
 * Buys a one-time number: the price from our catalog (a higher one than the buyer saw is refused with the
 * new one), the money held with the order, then the orders kernel places it with the providers in routing
 * order and settles or refunds it.
 */
export async function buyActivation(
  deps: ActivationDeps,
  userId: number,
  request: BuyRequest,
  options: BuyOptions = {},
): Promise<Activation> {
  const { repository, clock, providers, log } = deps;
  const quoted = deps.catalog.quote(request.countryId, request.operator, request.service);
  if (request.shownPriceCents !== undefined && quoted.priceCents > request.shownPriceCents) {
    throw fail('price_changed', buyingMessages.priceChanged(formatCents(quoted.priceCents)), {
      price: centsToDollars(quoted.priceCents),
    });
  }
  const candidates = options.preferOver ? options.preferOver(quoted.candidates) : quoted.candidates;
  const now = clock.now();
  // Hold the money first, committed (order and debit in one statement), before anyone upstream is asked.
  const orderId = await holdMoney(deps.db, {
    referenceType: 'activation',
    priceCents: quoted.priceCents,
    through: options.through,
    delivery: deps.catalog.deliveryOf(quoted.service, quoted.countryId, quoted.operator),
    insufficient: () => fail('insufficient_balance'),
    insert: repository.pendingOrderInsert({
      userId,
      provider: candidates[0]!.provider,
      countryId: quoted.countryId,
      operator: quoted.operator,
      service: quoted.service,
      priceCents: quoted.priceCents,
      upstreamMaxPrice: candidates[0]!.upstreamCost,
      createdAt: now,
      expiresAt: new Date(now.getTime() + ACTIVATION_LIFETIME_MS),
      apiKeyId: options.through?.apiKeyId,
    }),
  });
  deps.events.publish({ userId, type: 'balance' });
  const order = { id: orderId };

  const issued = await placeOrder(deps, {
    kind: 'activation',
    orderId,
    buyer: { userId, apiKeyId: options.through?.apiKeyId ?? null },
    candidates,
    pair: { service: quoted.service, countryId: quoted.countryId },
    moveTo: async (candidate) =>
      (await repository.reassign(orderId, candidate.provider, candidate.upstreamCost, clock.now())) !==
      undefined,
    place: (candidate) =>
      providers.get(candidate.provider).buyActivation({
        service: quoted.service,
        countryId: quoted.countryId,
        operator: quoted.operator,
        maxPrice: candidate.upstreamCost,
        customerRef: deps.customerRef(userId),
      }),
    // Asked once more at the minimum it named when the quoted price still covers it.
    mayRetryAt: (provider, minimum) =>
      salePriceCents(minimum, providers.member(provider).usdRate, 0) <= quoted.priceCents,
    refund: (reason) => refundActivation(deps, order, ['pending'], 'failed', reason),
    settle: async (bought, provider, calls) => {
      try {
        return await repository.settlePurchase(orderId, {
          providerActivationId: bought.activationId,
          phoneNumber: bought.phoneNumber,
          now: clock.now(),
          provider,
          chargedCents:
            bought.cost === undefined ? null : supplierCents(bought.cost, providers.member(provider).usdRate),
          calls,
        });
      } catch (error) {
        if (!isUniqueViolation(error, 'activations_provider_activation_key')) throw error;
        // The upstream handed out an id one of our orders already holds: its fault, not the buyer's. The
        // activation is not cancelled upstream, since the id is the earlier order's.
        log.error(
          { orderId, provider, activationId: bought.activationId },
          'the upstream issued an activation id it had issued before; the purchase is refunded',
        );
        await refundActivation(deps, order, ['pending'], 'failed', 'not_issued');
        throw fail('upstream_duplicate_id');
      }
    },
    release: (bought, provider) =>
      callProvider(deps, { id: orderId, provider }, 'cancel', (upstream) =>
        upstream.cancelActivation(bought.activationId),
      ),
  });
  numbersChanged(deps, userId);
  return issued;
}
