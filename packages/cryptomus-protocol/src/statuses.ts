/** Cryptomus invoice statuses (protocols.md D.8). Providers may invent more; unknown ones mean "wait". */
export const PAYMENT_STATUSES = [
  'check',
  'confirm_check',
  'process',
  'paid',
  'paid_over',
  'wrong_amount',
  'wrong_amount_waiting',
  'cancel',
  'fail',
  'system_fail',
  'refund_process',
  'refund_fail',
  'refund_paid',
  'locked',
] as const;

export type KnownPaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** A raw provider status; the known names are listed for autocompletion, any string is accepted. */
export type PaymentStatus = KnownPaymentStatus | (string & {});

const PAID_STATUSES: ReadonlySet<string> = new Set<KnownPaymentStatus>(['paid', 'paid_over']);
/**
 * Final without a credit. `wrong_amount` (underpaid, final) is here on purpose: whether to credit the
 * partial amount or refund it is a decision for support, never automatic.
 */
const FAILED_STATUSES: ReadonlySet<string> = new Set<KnownPaymentStatus>([
  'cancel',
  'fail',
  'system_fail',
  'wrong_amount',
]);
const REFUND_STATUSES: ReadonlySet<string> = new Set<KnownPaymentStatus>([
  'refund_process',
  'refund_fail',
  'refund_paid',
]);

/** The payer paid at least the invoice amount. */
export function isPaidStatus(status: PaymentStatus): boolean {
  return PAID_STATUSES.has(status);
}

/** The invoice ended without money we credit automatically. */
export function isFailedStatus(status: PaymentStatus): boolean {
  return FAILED_STATUSES.has(status);
}

/** A refund of an earlier payment is under way or done: a credit given for it needs review. */
export function isRefundStatus(status: PaymentStatus): boolean {
  return REFUND_STATUSES.has(status);
}

/**
 * Whether the status is one the invoice can no longer leave by being paid. Providers send `is_final`
 * themselves and adapters pass theirs on; this is for code that has only a status (the sandbox).
 */
export function isFinalStatus(status: PaymentStatus): boolean {
  return isPaidStatus(status) || isFailedStatus(status) || isRefundStatus(status);
}

/** The rule for crediting a balance: the provider says the invoice is final and paid in full or more. */
export function shouldCredit(payment: { status: PaymentStatus; isFinal: boolean }): boolean {
  return payment.isFinal && isPaidStatus(payment.status);
}
