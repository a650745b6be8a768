/**
 * The one interface balance top-ups are paid through: invoice-based crypto payments (Cryptomus and
 * Heleket, NOWPayments, and their built-in sandboxes). Money is in integer US cents on this side; adapters
 * convert the providers' amounts exactly. Statuses stay the provider's raw strings, because support needs
 * to see exactly what the provider said; `outcome` is what the adapter says the status means, in one
 * vocabulary for every provider, and the only thing the top-up service decides by.
 */

/** A provider's raw status name. */
export type PaymentStatus = string;

/** What a provider status means for the balance. */
export type PaymentOutcome =
  /** Nothing has arrived yet. */
  | 'unpaid'
  /** Money is on its way or being confirmed: wait. */
  | 'confirming'
  /** Paid in full. */
  | 'paid'
  /** Paid more than the invoice. */
  | 'paid_over'
  /** Paid less than the invoice: held for an administrator, never credited automatically. */
  | 'underpaid'
  /** Closed unpaid because its time ran out. */
  | 'expired'
  /** Closed unpaid by the payer or the provider before its time. */
  | 'canceled'
  /** Closed because of an error at the provider. */
  | 'failed'
  /** A refund of the payment is under way or done. */
  | 'refunding';

/** One way to pay at a provider, as its API states it (shown on the Top Up page before paying). */
export interface PaymentMethod {
  /** Coin code as the provider writes it (`USDT`, `usdttrc20`). */
  currency: string;
  /** Network name as the provider writes it (`TRON`, `trx`). */
  network: string;
  /** The least the provider accepts in this coin, as its decimal text in the coin. */
  minAmount: string;
  /** The processor's commission in percent, as decimal text ("0.50"); what the payer pays on top is 0. */
  feePercent: string;
}

/** What a webhook request carries besides its body: signatures travel in headers at some providers. */
export type WebhookHeaders = Record<string, string | string[] | undefined>;

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

/** By our order id, or by the provider's id (with our order id when we know it). */
export type PaymentLookup = { orderId: string } | { providerPaymentId: string; orderId?: string };

export interface PaymentInfo {
  providerPaymentId: string;
  orderId: string;
  status: PaymentStatus;
  outcome: PaymentOutcome;
  isFinal: boolean;
  /**
   * The invoice amount, in cents of `currency`; absent when the provider has no payment to describe yet
   * (a NOWPayments invoice before the payer picked a coin), which never credits.
   */
  amountCents?: number;
  /** What the payer actually paid, converted to US cents, when the provider says (`payment_amount_usd`). */
  paidAmountUsdCents?: number;
  /** The invoice currency (always USD for invoices we create). */
  currency: string;
  updatedAt?: Date;
}

/** A status change the provider pushed to us, already authenticated. */
export interface PaymentWebhook {
  /** `deposit` for a payment to a static wallet (then `orderId` is the wallet's); an invoice otherwise. */
  kind?: 'deposit';
  providerPaymentId: string;
  orderId: string;
  status: PaymentStatus;
  isFinal: boolean;
  amountCents?: number;
  paidAmountUsdCents?: number;
}

export interface CreateStaticWalletRequest {
  /** Our id of the deposit address, sent as the wallet's `order_id`: the same id returns the same wallet. */
  orderId: string;
  /** Coin and network as the provider's methods list them. */
  currency: string;
  network: string;
  /** Where the provider posts a webhook for every deposit. */
  callbackUrl: string;
}

export interface StaticWallet {
  /** The provider's id of the wallet on its network. */
  walletUuid: string;
  address: string;
  /** The provider's hosted page of the wallet, when it has one. */
  url: string | null;
}

/** One payment to a static wallet, as the provider describes it: any amount, of the wallet's coin. */
export interface DepositInfo {
  providerPaymentId: string;
  /** The wallet's order id (ours). */
  orderId: string;
  status: PaymentStatus;
  outcome: PaymentOutcome;
  isFinal: boolean;
  /** What arrived, in US cents at the processor's rate; absent until the processor states it. */
  paidAmountUsdCents?: number;
  /** The coin and the amount that arrived, as the provider writes them (for support). */
  currency: string;
  amount: string;
}

/** Permanent deposit addresses: Cryptomus-kind providers only (NOWPayments' standard API has none). */
export interface StaticWallets {
  /** Creates the wallet of `orderId`, or returns the one created before for it. */
  create(request: CreateStaticWalletRequest): Promise<StaticWallet>;
  /** The provider's current word on one deposit; use it to re-confirm a webhook before crediting. */
  getDeposit(providerPaymentId: string): Promise<DepositInfo>;
}

/** What the merchant holds at the processor in one coin (its balance, not a payer's). */
export interface ProcessorBalance {
  /** Coin code as the processor writes it (`USDT`, `usdttrc20`). */
  currency: string;
  /** The amount as decimal text in the coin, as the processor states it. */
  amount: string;
}

export interface PaymentProvider {
  /** The pool's name of this provider (`cryptomus`, `heleket`, `nowpayments`): stored on every payment. */
  readonly name: string;
  /** The protocol it speaks (`cryptomus` for Cryptomus and Heleket, `nowpayments`). */
  readonly kind: string;

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
  verifyWebhook(rawBody: string, sourceIp: string, headers?: WebhookHeaders): PaymentWebhook | null;
  /** The coins and networks the merchant accepts, with minimums and fees; a cheap call, also a probe. */
  listMethods(): Promise<PaymentMethod[]>;
  /** The merchant's balance at the processor, per coin that holds anything (for the console). */
  readBalances(): Promise<ProcessorBalance[]>;
  /** Present when the provider gives a user a permanent address per coin and network. */
  readonly staticWallets?: StaticWallets;
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
