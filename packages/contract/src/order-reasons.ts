import { errorText, isErrorCode, type UpstreamErrorCode } from './errors';
import { translate } from './i18n/instance';
import { localizeEnglish } from './i18n/localize-english';

/**
 * Why an order or a rent ended: stored with it as a code, worded by the catalogue in the reader's
 * language, so every page, the CSV and the console say the same words and code compares with code.
 */
export const activationReasonCodes = [
  'canceled_by_user',
  'expired',
  'withdrawn',
  'not_issued',
  'refunded_by_support',
  'phone_exception',
  'number_used',
] as const;
export type ActivationReason = (typeof activationReasonCodes)[number];

export const rentReasonCodes = [
  'canceled_by_user',
  'withdrawn',
  'ended_early',
  'not_issued',
  'refunded_by_support',
  'finished_by_buyer',
] as const;
export type RentReason = (typeof rentReasonCodes)[number];

/**
 * What a refused purchase stores: the supplier's refusal as the user was told it, or the buyer's own
 * throttle (too many cancels or unused numbers, decided before any supplier is asked).
 */
export type RefusedReason = UpstreamErrorCode | 'buyer_throttled';

/** `canceled_by_user` → `canceledByUser`, the catalogue's key under activationReasons / rentReasons. */
function catalogueKeyOf(code: string): string {
  return code.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/**
 * The stored reason of an order (`activation`) or a rent in the current language. A text stored before
 * reasons were codes, which the migration did not know, reads as it was written.
 */
export function orderReasonText(of: 'activation' | 'rent', stored: string | null): string | null {
  if (stored === null) return null;
  const codes: readonly string[] = of === 'activation' ? activationReasonCodes : rentReasonCodes;
  if (codes.includes(stored)) return translate(`${of}Reasons.${catalogueKeyOf(stored)}`);
  if (isErrorCode(stored)) return errorText(stored);
  return localizeEnglish(stored);
}
