import type { Activation } from '../../../db/schema';
import { UpstreamError } from '../../../providers/sms/types';
import type { QuoteCandidate } from '../../catalog/service';
import { type ActivationDeps, callProvider } from './deps';
import { refundActivation } from './refund';

/** Numbers one API key may give back (phoneException) per hour: past it, nothing more is bought for it. */
export const GIVE_BACKS_PER_KEY_PER_HOUR = 30;

/** Whether a key may still have numbers bought and given back this hour. */
export async function mayGiveBack(deps: ActivationDeps, apiKeyId: number): Promise<boolean> {
  const since = new Date(deps.clock.now().getTime() - 3_600_000);
  return (await deps.repository.givenBackCount(apiKeyId, since)) < GIVE_BACKS_PER_KEY_PER_HOUR;
}

/** Providers that let a number be cancelled right away first, in routing order otherwise. */
export function cancelsAtOnceFirst(deps: ActivationDeps) {
  return (candidates: readonly QuoteCandidate[]): QuoteCandidate[] => {
    const atOnce = (candidate: QuoteCandidate) => deps.providers.health.cancelsAtOnce(candidate.provider);
    return [...candidates.filter(atOnce), ...candidates.filter((candidate) => !atOnce(candidate))];
  };
}

/** Cancels a given-back order at its provider and refunds it; false when the provider does not allow it yet. */
export async function cancelGivenBack(deps: ActivationDeps, order: Activation): Promise<boolean> {
  try {
    await callProvider(deps, order, 'cancel', (provider) =>
      provider.cancelActivation(order.providerActivationId!),
    );
  } catch (error) {
    if (error instanceof UpstreamError && error.kind === 'early_cancel_denied') {
      deps.providers.health.recordEarlyCancelRefused(order.provider);
      return false;
    }
    // Ended upstream already: nothing to cancel, and nothing was delivered. Anything else: a later sweep.
    if (!(error instanceof UpstreamError) || error.kind !== 'not_found') return false;
  }
  await refundActivation(deps, order, ['waiting'], 'failed', 'phone_exception');
  return true;
}

/**
 * The buyer refuses a number it was just sold because it matches its excluded prefixes (the protocol's
 * phoneException). The number is cancelled at the provider before its price comes back, so SimCode never
 * pays for a number nobody keeps: at once where the provider allows it, otherwise the order is marked and
 * the sync cancels it as soon as the provider does, refunding then. A code that arrives first makes the
 * number the buyer's, paid for like any other.
 */
export async function giveBack(deps: ActivationDeps, order: Activation): Promise<void> {
  if (await cancelGivenBack(deps, order)) return;
  await deps.repository.markGivenBack(order.id, deps.clock.now());
}
