// What the Cryptomus sandbox says of an invoice: its statuses' groups, made-up addresses and transfers, the
// payment object of the merchant API and the control API's view.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  convert,
  currency,
  formatAmount,
  methodsFor,
  type PaymentMethod,
  type SandboxCurrency,
} from './currencies';
import type { SandboxInvoice } from './state';
import { webhookPayload } from './webhooks';
/** Only these can be resent through the merchant API. */
export const RESENDABLE_STATUSES = new Set(['paid', 'paid_over', 'wrong_amount']);
/** Statuses an invoice moves to when its lifetime ends; others (paid, confirming...) stay. */
export const STATUS_AT_EXPIRY: Record<string, string> = {
  check: 'cancel',
  wrong_amount_waiting: 'wrong_amount',
};
/** Statuses in which no money has arrived. */
export const UNPAID_STATUSES = new Set(['check', 'cancel', 'fail', 'system_fail']);
/** Statuses in which the money that arrived stays with the merchant: what v1/balance adds up. */
export const KEPT_STATUSES = new Set(['paid', 'paid_over', 'wrong_amount', 'refund_fail']);

export const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
export const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
export const randomText = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet[randomInt(alphabet.length)]).join('');
/** Networks whose addresses and transaction ids are Ethereum-style 0x hex. */
export const EVM_NETWORKS = new Set(['eth', 'bsc']);

/** A random address in the network's usual shape, so the payload looks like the real thing. */
export function fakeAddress(network: string): string {
  if (network === 'tron') return `T${randomText(BASE58, 33)}`;
  if (network === 'btc') return `bc1q${randomText(BECH32, 38)}`;
  if (network === 'ltc') return `ltc1q${randomText(BECH32, 38)}`;
  return `0x${randomBytes(20).toString('hex')}`;
}

export function fakeTransfer(
  method: { currency: string; network: string },
  amountUnits: number,
): NonNullable<SandboxInvoice['payment']> {
  const hash = randomBytes(32).toString('hex');
  return {
    amountUnits,
    payerCurrency: method.currency,
    network: method.network,
    address: fakeAddress(method.network),
    from: fakeAddress(method.network),
    txid: EVM_NETWORKS.has(method.network) ? `0x${hash}` : hash,
  };
}

export const methodsOf = (invoice: SandboxInvoice) => methodsFor(invoice.payerCurrency, invoice.network);

/** The first way to pay an invoice: what a test's status change pays with when it does not say. */
export function defaultMethod(invoice: SandboxInvoice): PaymentMethod {
  const [first] = methodsOf(invoice);
  if (!first) throw new Error(`payment sandbox invoice ${invoice.uuid} cannot be paid in any coin`);
  return first;
}

/** The coin money arrives in: the one already paid, else the fixed one, else the page's default. */
export const payerCoin = (invoice: SandboxInvoice): SandboxCurrency =>
  currency(invoice.payment?.payerCurrency ?? invoice.payerCurrency ?? defaultMethod(invoice).currency);

/** What the payer owes in a coin at the sandbox's fixed rates. */
export const dueUnits = (invoice: SandboxInvoice, coin: SandboxCurrency) =>
  convert(invoice.amountUnits, currency(invoice.currency), coin);

/** What "paid over" and "paid too little" default to when a test does not say, in the payer's coin. */
export function defaultPaymentUnits(status: string, invoice: SandboxInvoice, coin: SandboxCurrency): number {
  const due = dueUnits(invoice, coin);
  if (status === 'paid_over') return due + Math.max(1, Math.round(due / 10));
  if (status === 'wrong_amount' || status === 'wrong_amount_waiting') return Math.floor(due / 2);
  return invoice.payment?.amountUnits ?? due;
}

/** A uuid that is the same on every call for the same seed: the sandbox's wallets do not change. */
export function stableUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  const variant = ((Number.parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** ISO 8601 with an offset, like Cryptomus's `2023-07-11T20:23:52+03:00`. */
export function isoWithOffset(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/**
 * The Cryptomus payment object (protocols.md D.4) of an invoice. `payer_currency` and `payer_amount` (what
 * the payer owes in it) are known once the coin is: fixed at creation, or chosen by paying.
 */
export function paymentObject(invoice: SandboxInvoice): Record<string, unknown> {
  const webhook = webhookPayload(invoice);
  const payerCurrency = invoice.payment?.payerCurrency ?? invoice.payerCurrency;
  const coin = payerCurrency === null ? null : currency(payerCurrency);
  return {
    uuid: invoice.uuid,
    order_id: invoice.orderId,
    amount: webhook.amount,
    payment_amount: webhook.payment_amount,
    payment_amount_usd: webhook.payment_amount_usd,
    payer_amount: coin && formatAmount(dueUnits(invoice, coin), coin),
    discount_percent: null,
    discount: '0.00',
    payer_currency: payerCurrency,
    currency: invoice.currency,
    comments: null,
    merchant_amount: webhook.merchant_amount,
    commission: webhook.commission,
    network: invoice.payment?.network ?? invoice.network,
    address: invoice.payment?.address ?? null,
    from: webhook.from,
    txid: invoice.payment?.txid ?? null,
    payment_status: invoice.status,
    url: invoice.url,
    expired_at: Math.floor(invoice.expiresAtMs / 1000),
    status: invoice.status,
    is_final: invoice.isFinal,
    additional_data: invoice.additionalData,
    created_at: isoWithOffset(invoice.createdAtMs),
    updated_at: isoWithOffset(invoice.updatedAtMs),
  };
}

/** The control API's view: the payment object plus the webhook's delivery state. */
export function controlView(invoice: SandboxInvoice): Record<string, unknown> {
  const webhook = invoice.webhook;
  return {
    ...paymentObject(invoice),
    resend_count: invoice.resendCount,
    webhook: webhook && {
      status: webhook.status,
      attempts: webhook.attempts,
      delivered: webhook.delivered,
      last_response_status: webhook.lastResponseStatus,
      last_error: webhook.lastError,
      body: webhook.body,
    },
  };
}
