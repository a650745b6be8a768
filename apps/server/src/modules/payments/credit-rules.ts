import type { PaymentState } from '../../db/schema';
import type { PaymentInfo, PaymentOutcome } from '../../providers/payments/types';

/** What a provider's word means for a payment: shared by invoices and deposits to deposit addresses. */

/**
 * A payment the provider has seen but not confirmed yet (`confirm_check`, `process`...) is watched this long
 * past its lifetime: crypto crediting takes up to 12 hours (spec section 9). A confirmation after that still
 * credits when its webhook arrives.
 */
export const CONFIRMATION_WAIT_MS = 24 * 60 * 60_000;
/** Clocks of two servers disagree a little: a cancel this close to the end of the lifetime is an expiry. */
const CLOCK_SKEW_MS = 60_000;

/** Where a final unpaid provider status leaves our payment. */
export function endStateFor(
  outcome: PaymentOutcome,
  expiresAt: Date,
  now: Date,
): Exclude<PaymentState, 'pending' | 'completed'> {
  if (outcome === 'underpaid') return 'underpaid';
  if (outcome === 'expired') return 'expired';
  if (outcome === 'canceled')
    return now.getTime() >= expiresAt.getTime() - CLOCK_SKEW_MS ? 'expired' : 'canceled';
  return 'failed';
}

/** Final without a credit: underpaid payments wait for an administrator, the rest ended unpaid. */
export const ENDED_UNPAID: ReadonlySet<PaymentOutcome> = new Set([
  'underpaid',
  'expired',
  'canceled',
  'failed',
]);

/** The rule for crediting a balance: the provider says the payment is final and paid in full or more. */
export const shouldCredit = (truth: Pick<PaymentInfo, 'isFinal' | 'outcome'>) =>
  truth.isFinal && (truth.outcome === 'paid' || truth.outcome === 'paid_over');
