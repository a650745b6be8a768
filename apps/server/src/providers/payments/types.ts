/**
 * The one interface balance top-ups are paid through: invoice-based crypto payments (Cryptomus, Heleket,
 * the built-in sandbox). Money is in integer US cents on this side; adapters convert the providers'
 * decimal strings exactly. Statuses stay the provider's raw strings (Cryptomus names), because support
 * needs to see exactly what the provider said; the helpers below decide what a status means for us.
 */

export interface CreateInvoiceRequest {
  /** Our id of the top-up, sent as the provider's `order_id`: 1–128 letters, digits, `_` or `-`. */
  orderId: string;
  amountCents: number;
  /** Where the provider posts status-change webhooks. */
  callbackUrl: string;
  /** The "back to the shop" link on the payment page before paying. */
  returnUrl: string;
  /** The link the payment page shows after a successful payment. */
  successUrl: string;
  /** 300–43200 seconds at Cryptomus. */
  lifetimeSeconds: number;
}

export interface CreatedInvoice {
  /** The provider's invoice id (a uuid at Cryptomus). */
  providerPaymentId: string;
  /** The hosted payment page the payer opens. */
  url: string;
  status: PaymentStatus;
  isFinal: boolean;
  expiresAt: Date;
}

export type PaymentLookup = { orderId: string } | { providerPaymentId: string };

export interface PaymentInfo {
  providerPaymentId: string;
  orderId: string;
  status: PaymentStatus;
  isFinal: boolean;
  /** The invoice amount, in cents of `currency`. */
  amountCents: number;
  /** What the payer actually paid, converted to US cents, when the provider says (`payment_amount_usd`). */
  paidAmountUsdCents?: number;
  /** The invoice currency (always USD for invoices we create). */
  currency: string;
  updatedAt?: Date;
}

/** A status change the provider pushed to us, already authenticated. */
export interface PaymentWebhook {
  providerPaymentId: string;
  orderId: string;
  status: PaymentStatus;
  isFinal: boolean;
  amountCents: number;
  paidAmountUsdCents?: number;
}

export interface PaymentProvider {
  readonly name: string;

  /**
   * Creates a hosted invoice. Re-using an `orderId` returns the invoice already created for it, so after
   * an 'unavailable' failure (outcome unknown) calling again with the same `orderId` is safe.
   */
  createInvoice(request: CreateInvoiceRequest): Promise<CreatedInvoice>;
  /** The provider's current view of an invoice; use it to re-confirm a webhook before crediting. */
  getPayment(lookup: PaymentLookup): Promise<PaymentInfo>;
  /**
   * Authenticates a webhook from its exact raw body and the address it came from. Null when the signature
   * is missing or wrong, the address is not allowed, or the body is not an invoice payment webhook.
   */
  verifyWebhook(rawBody: string, sourceIp: string): PaymentWebhook | null;
}

export type PaymentProviderErrorKind =
  /** The provider refused the request as invalid (validation errors, a business rule). */
  | 'rejected'
  /** Timeout, connection failure, 5xx, HTML or garbage: the outcome of the call is unknown. */
  | 'unavailable'
  /** Wrong merchant id or API key: our configuration is wrong, retrying will not help. */
  | 'configuration'
  /** The provider does not know the invoice. */
  | 'not_found';

/** The only error a payment provider throws; `message` is for logs and support, not for the payer. */
export class PaymentProviderError extends Error {
  constructor(
    readonly kind: PaymentProviderErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

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
