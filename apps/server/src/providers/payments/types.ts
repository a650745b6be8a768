/**
 * The one interface balance top-ups are paid through: invoice-based crypto payments (Cryptomus, Heleket,
 * the built-in sandbox). Money is in integer US cents on this side; adapters convert the providers'
 * decimal strings exactly. Statuses stay the provider's raw strings (Cryptomus names), because support
 * needs to see exactly what the provider said; @simcode/cryptomus-protocol's helpers say what a status means.
 */

import type { PaymentStatus } from '@simcode/cryptomus-protocol';

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
