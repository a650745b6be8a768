import { decimalToUnits, PAYMENT_STATUSES } from '@simcode/cryptomus-protocol';
import {
  findCurrency,
  fixedPayerCurrency,
  isCrypto,
  isTooLarge,
  methodsFor,
  parseAmount,
  type SandboxCurrency,
} from './currencies';

/**
 * Request validation with Cryptomus's answer format: Laravel rule names per field, answered with
 * HTTP 422 `{"state":1,"errors":{"order_id":["validation.alpha_dash"]}}` (protocols.md D.3, D.4).
 */

export type FieldErrors = Record<string, string[]>;
export type Validated<T> = { value: T } | { errors: FieldErrors };

export const ORDER_ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
export const MIN_LIFETIME_SECONDS = 300;
export const MAX_LIFETIME_SECONDS = 43_200;
const DEFAULT_LIFETIME_SECONDS = 3600;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class Checker {
  readonly errors: FieldErrors = {};

  fail(field: string, rule: string): void {
    this.errors[field] = [...(this.errors[field] ?? []), rule];
  }

  result<T>(value: T): Validated<T> {
    return Object.keys(this.errors).length > 0 ? { errors: this.errors } : { value };
  }
}

const isPresent = (value: unknown) => value !== undefined && value !== null && value !== '';

function checkUrl(checker: Checker, field: string, value: unknown, maxLength: number): string | null {
  if (!isPresent(value)) return null;
  if (typeof value !== 'string') {
    checker.fail(field, 'validation.string');
  } else if (value.length < 6) {
    checker.fail(field, 'validation.min.string');
  } else if (value.length > maxLength) {
    checker.fail(field, 'validation.max.string');
  } else if (!/^https?:\/\//i.test(value) || !URL.canParse(value)) {
    checker.fail(field, 'validation.url');
  } else {
    return value;
  }
  return null;
}

/**
 * A positive amount in the currency's steps, at most $10,000,000 worth. Without a known currency only the
 * number itself is checked (the currency field gets its own error).
 */
function checkAmount(
  checker: Checker,
  field: string,
  value: unknown,
  of: SandboxCurrency | undefined,
  required: boolean,
): number | null {
  if (!isPresent(value)) {
    if (required) checker.fail(field, 'validation.required');
    return null;
  }
  const units = of ? parseAmount(value, of) : decimalToUnits(value, 8);
  if (units === null) checker.fail(field, 'validation.numeric');
  else if (units <= 0) checker.fail(field, 'validation.min.numeric');
  else if (of && isTooLarge(units, of)) checker.fail(field, 'validation.max.numeric');
  else return units;
  return null;
}

export interface CreatePaymentInput {
  /** In steps of `currency`. */
  amountUnits: number;
  currency: string;
  /** The coin the payer must pay in, when the invoice fixes one (a crypto invoice, or `to_currency`). */
  payerCurrency: string | null;
  network: string | null;
  orderId: string;
  urlCallback: string | null;
  urlReturn: string | null;
  urlSuccess: string | null;
  lifetimeSeconds: number;
  additionalData: string | null;
}

/**
 * `POST v1/payment`. Priced in US dollars or in any coin the sandbox lists (`validation.in` otherwise);
 * `to_currency` fixes the coin the payer pays in, `network` the network, which must carry that coin (or,
 * without one, a dollar stablecoin).
 */
export function validateCreatePayment(body: Record<string, unknown>): Validated<CreatePaymentInput> {
  const checker = new Checker();
  const invoiceCurrency = findCurrency(body.currency);
  if (!isPresent(body.currency)) checker.fail('currency', 'validation.required');
  else if (!invoiceCurrency) checker.fail('currency', 'validation.in');
  const amountUnits = checkAmount(checker, 'amount', body.amount, invoiceCurrency, true);
  let toCurrency: string | null = null;
  if (isPresent(body.to_currency)) {
    const target = findCurrency(body.to_currency);
    if (target && isCrypto(target)) toCurrency = target.code;
    else checker.fail('to_currency', 'validation.in');
  }
  const payerCurrency = invoiceCurrency ? fixedPayerCurrency(invoiceCurrency.code, toCurrency) : null;
  let network: string | null = null;
  if (isPresent(body.network)) {
    network = typeof body.network === 'string' ? body.network.toLowerCase() : null;
    if (network === null) checker.fail('network', 'validation.string');
    else if (invoiceCurrency && methodsFor(payerCurrency, network).length === 0) {
      checker.fail('network', 'validation.in');
    }
  }
  const orderId = body.order_id;
  if (!isPresent(orderId)) checker.fail('order_id', 'validation.required');
  else if (typeof orderId === 'string' && orderId.length > 128)
    checker.fail('order_id', 'validation.max.string');
  else if (typeof orderId !== 'string' || !ORDER_ID_PATTERN.test(orderId)) {
    checker.fail('order_id', 'validation.alpha_dash');
  }
  const urlCallback = checkUrl(checker, 'url_callback', body.url_callback, 255);
  const urlReturn = checkUrl(checker, 'url_return', body.url_return, 255);
  const urlSuccess = checkUrl(checker, 'url_success', body.url_success, 255);
  let lifetimeSeconds = DEFAULT_LIFETIME_SECONDS;
  if (isPresent(body.lifetime)) {
    lifetimeSeconds = Number(body.lifetime);
    if (!/^\d+$/.test(String(body.lifetime))) checker.fail('lifetime', 'validation.integer');
    else if (lifetimeSeconds < MIN_LIFETIME_SECONDS) checker.fail('lifetime', 'validation.min.numeric');
    else if (lifetimeSeconds > MAX_LIFETIME_SECONDS) checker.fail('lifetime', 'validation.max.numeric');
  }
  if (isPresent(body.is_payment_multiple) && typeof body.is_payment_multiple !== 'boolean') {
    checker.fail('is_payment_multiple', 'validation.boolean');
  }
  const additionalData = isPresent(body.additional_data) ? body.additional_data : null;
  if (additionalData !== null && (typeof additionalData !== 'string' || additionalData.length > 255)) {
    checker.fail('additional_data', 'validation.max.string');
  }
  return checker.result({
    amountUnits: amountUnits ?? 0,
    currency: invoiceCurrency?.code ?? '',
    payerCurrency,
    network,
    orderId: String(orderId),
    urlCallback,
    urlReturn,
    urlSuccess,
    lifetimeSeconds,
    additionalData: additionalData as string | null,
  });
}

export type InvoiceLookup = { uuid: string } | { orderId: string };

/**
 * `uuid` or `order_id`, one required (`validation.required_without`). When both are given the merchant
 * API lets order_id win (payment-info page) and the test webhook lets uuid win (its own page).
 */
export function validateLookup(
  body: Record<string, unknown>,
  preferred: 'uuid' | 'order_id' = 'order_id',
): Validated<InvoiceLookup> {
  const checker = new Checker();
  const uuid = typeof body.uuid === 'string' && body.uuid !== '' ? body.uuid : null;
  const orderId = typeof body.order_id === 'string' && body.order_id !== '' ? body.order_id : null;
  if (uuid === null && orderId === null) {
    checker.fail('uuid', 'validation.required_without');
    checker.fail('order_id', 'validation.required_without');
  }
  const useOrderId = orderId !== null && (preferred === 'order_id' || uuid === null);
  return checker.result(useOrderId ? { orderId } : { uuid: uuid ?? '' });
}

export interface StatusChangeInput {
  status: string;
  /** What arrived, in steps of the coin the invoice is paid in. */
  paymentUnits: number | null;
  sendWebhook: boolean;
}

/**
 * The control API's status change: any Cryptomus status, an optional amount that arrived (in the coin the
 * invoice is paid in), webhook or not.
 */
export function validateStatusChange(
  body: Record<string, unknown>,
  coin: SandboxCurrency,
): Validated<StatusChangeInput> {
  const checker = new Checker();
  const status = body.status;
  if (!isPresent(status)) checker.fail('status', 'validation.required');
  else if (!(PAYMENT_STATUSES as readonly unknown[]).includes(status))
    checker.fail('status', 'validation.in');
  const paymentUnits = checkAmount(checker, 'payment_amount', body.payment_amount, coin, false);
  if (isPresent(body.send_webhook) && typeof body.send_webhook !== 'boolean') {
    checker.fail('send_webhook', 'validation.boolean');
  }
  return checker.result({
    status: String(status),
    paymentUnits,
    sendWebhook: body.send_webhook !== false,
  });
}

export interface TestWebhookInput {
  urlCallback: string;
  currency: string;
  network: string;
  status: string;
}

/**
 * `POST v1/test-webhook/payment` (protocols.md D.6): url_callback 6–150, and a currency and network the
 * sandbox lists (payment/services), in any letter case.
 */
export function validateTestWebhook(body: Record<string, unknown>): Validated<TestWebhookInput> {
  const checker = new Checker();
  if (!isPresent(body.url_callback)) checker.fail('url_callback', 'validation.required');
  const urlCallback = checkUrl(checker, 'url_callback', body.url_callback, 150);
  const coin = findCurrency(body.currency);
  const network = typeof body.network === 'string' ? body.network.toLowerCase() : '';
  for (const field of ['currency', 'network'] as const) {
    if (typeof body[field] !== 'string' || body[field] === '') checker.fail(field, 'validation.required');
  }
  const currencyGiven = typeof body.currency === 'string' && body.currency !== '';
  if (currencyGiven && !(coin && isCrypto(coin))) checker.fail('currency', 'validation.in');
  else if (coin && network !== '' && methodsFor(coin.code, network).length === 0) {
    checker.fail('network', 'validation.in');
  }
  const status = isPresent(body.status) ? body.status : 'paid';
  if (!(PAYMENT_STATUSES as readonly unknown[]).includes(status)) checker.fail('status', 'validation.in');
  return checker.result({
    urlCallback: urlCallback ?? '',
    currency: coin?.code ?? '',
    network,
    status: String(status),
  });
}

/** `YYYY-MM-DD H:mm:ss`, the format payment/list's dates take (protocols.md D.6). */
const LIST_DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{1,2}):(\d{2}):(\d{2})$/;

/** The instant a list date names, read as UTC like every time the sandbox prints; null if it is none. */
function parseListDate(value: unknown): number | null {
  const match = typeof value === 'string' ? LIST_DATE.exec(value) : null;
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match;
  const iso = `${year}-${month}-${day}T${hour?.padStart(2, '0')}:${minute}:${second}.000Z`;
  const ms = Date.parse(iso);
  // The round trip refuses dates that do not exist, which Date would roll over (2026-02-30 into March).
  return Number.isNaN(ms) || new Date(ms).toISOString() !== iso ? null : ms;
}

export interface PaymentListInput {
  /** Created at or after, ms. */
  fromMs: number | null;
  /** Created before, ms: date_to names a whole second, which it includes. */
  untilMs: number | null;
}

/** `POST v1/payment/list`: optional date_from and date_to; the cursor is read on its own. */
export function validatePaymentList(body: Record<string, unknown>): Validated<PaymentListInput> {
  const checker = new Checker();
  const read = (field: 'date_from' | 'date_to') => {
    if (!isPresent(body[field])) return null;
    const ms = parseListDate(body[field]);
    if (ms === null) checker.fail(field, 'validation.date_format');
    return ms;
  };
  const fromMs = read('date_from');
  const toMs = read('date_to');
  return checker.result({ fromMs, untilMs: toMs === null ? null : toMs + 1000 });
}

/** `POST v1/payment/qr`: the invoice's uuid. */
export function validateQr(body: Record<string, unknown>): Validated<{ uuid: string }> {
  const checker = new Checker();
  const uuid = body.merchant_payment_uuid;
  if (!isPresent(uuid)) checker.fail('merchant_payment_uuid', 'validation.required');
  else if (typeof uuid !== 'string' || !UUID_PATTERN.test(uuid)) {
    checker.fail('merchant_payment_uuid', 'validation.uuid');
  }
  return checker.result({ uuid: String(uuid) });
}

export interface CreateWalletInput {
  currency: string;
  network: string;
  orderId: string;
  urlCallback: string | null;
}

/**
 * `POST v1/wallet`: a coin and a network that carries it (`validation.in` otherwise), an `order_id` like an
 * invoice's (at most 100 characters for wallets), and an optional `url_callback`.
 */
export function validateCreateWallet(body: Record<string, unknown>): Validated<CreateWalletInput> {
  const checker = new Checker();
  const coin = findCurrency(body.currency);
  if (!isPresent(body.currency)) checker.fail('currency', 'validation.required');
  else if (!coin || !isCrypto(coin)) checker.fail('currency', 'validation.in');
  const network = typeof body.network === 'string' ? body.network.toLowerCase() : null;
  if (!isPresent(body.network)) checker.fail('network', 'validation.required');
  else if (network === null) checker.fail('network', 'validation.string');
  else if (coin && !coin.networks.some((candidate) => candidate.code === network)) {
    checker.fail('network', 'validation.in');
  }
  const orderId = body.order_id;
  if (!isPresent(orderId)) checker.fail('order_id', 'validation.required');
  else if (typeof orderId === 'string' && orderId.length > 100)
    checker.fail('order_id', 'validation.max.string');
  else if (typeof orderId !== 'string' || !ORDER_ID_PATTERN.test(orderId)) {
    checker.fail('order_id', 'validation.alpha_dash');
  }
  const urlCallback = checkUrl(checker, 'url_callback', body.url_callback, 255);
  return checker.result({
    currency: coin?.code ?? '',
    network: network ?? '',
    orderId: String(orderId),
    urlCallback,
  });
}

export interface DepositInput {
  /** In steps of the wallet's coin. */
  amountUnits: number;
  /** `paid` (confirmed at once) or `confirm_check` (seen, waiting for confirmations). */
  status: 'paid' | 'confirm_check';
}

/** A sandbox deposit to a static wallet: a positive amount of its coin, confirmed or not yet. */
export function validateDeposit(
  body: Record<string, unknown>,
  coin: SandboxCurrency,
): Validated<DepositInput> {
  const checker = new Checker();
  const amountUnits = checkAmount(checker, 'amount', body.amount, coin, true);
  const status = body.status ?? 'paid';
  if (status !== 'paid' && status !== 'confirm_check') checker.fail('status', 'validation.in');
  return checker.result({ amountUnits: amountUnits ?? 0, status: status as DepositInput['status'] });
}
