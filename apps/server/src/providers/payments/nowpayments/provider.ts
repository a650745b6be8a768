import {
  amountToCents,
  amountToUnits,
  COIN_DECIMALS,
  coinAndNetwork,
  isFinalStatus,
  SERVICE_FEE_PERCENT,
  SIGNATURE_HEADER,
  unitsToAmount,
  verifyIpn,
} from '@simcode/nowpayments-protocol';
import { z } from 'zod';
import { exchangeJson, readWithRetries } from '../json-exchange';
import {
  type CreatedInvoice,
  type CreateInvoiceRequest,
  type PaymentInfo,
  type PaymentLookup,
  type PaymentMethod,
  type PaymentOutcome,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentWebhook,
  type ProcessorBalance,
  type WebhookHeaders,
} from '../types';

export interface NowPaymentsProviderOptions {
  /** The pool's name; `nowpayments` unless told. */
  name?: string;
  /** API root without the version (`https://api.nowpayments.io`); a function for the built-in sandbox. */
  baseUrl: string | (() => string);
  apiKey: string;
  /** Verifies IPN callbacks. */
  ipnSecret: string;
  /** The dashboard login: the payment list (how an invoice's payments are found) wants its token. */
  email: string;
  password: string;
  timeoutMs: number;
  /** Our clock, for the invoice deadline we keep ourselves; the system clock unless told. */
  clock?: { now(): Date };
}

/** NOWPayments' tokens last 5 minutes; one is re-used for a little less. */
const TOKEN_REUSE_MS = 4 * 60_000;
/** Pages of 100 payments searched for an order whose invoice id we never learnt. */
const ORDER_SEARCH_PAGES = 3;

const amountField = z.union([z.number(), z.string()]);
const idField = z.union([z.number(), z.string()]).transform(String);

/** The fields of a NOWPayments payment (the list's items, `GET /v1/payment/:id`, and the IPN) we rely on. */
const paymentSchema = z.object({
  payment_id: idField,
  invoice_id: idField.nullish(),
  payment_status: z.string().min(1),
  price_amount: amountField,
  price_currency: z.string(),
  pay_amount: amountField.nullish(),
  actually_paid: amountField.nullish(),
  actually_paid_at_fiat: amountField.nullish(),
  pay_currency: z.string().nullish(),
  order_id: z.string().nullish(),
  updated_at: z.string().nullish(),
});
type NowPayment = z.infer<typeof paymentSchema>;

const invoiceSchema = z.object({
  id: idField,
  order_id: z.string().nullish(),
  price_amount: amountField,
  price_currency: z.string(),
  invoice_url: z.string().min(1),
});

const listSchema = z.object({ data: z.array(paymentSchema) });
/** `GET /v1/balance`: `{<coin code>: {amount, pendingAmount}}`, amounts as JSON numbers. */
const balanceSchema = z.record(z.string(), z.object({ amount: amountField }).passthrough());

/** Whole 10^-8 steps as decimal text without trailing zeros (5000 is "0.00005"): display, not arithmetic. */
function coinUnitsText(units: number): string {
  const digits = String(units).padStart(COIN_DECIMALS + 1, '0');
  const fraction = digits.slice(-COIN_DECIMALS).replace(/0+$/, '');
  const whole = digits.slice(0, -COIN_DECIMALS);
  return fraction ? `${whole}.${fraction}` : whole;
}
const errorSchema = z.object({ message: z.string().optional(), code: z.string().optional() }).passthrough();

/** What a NOWPayments status means for the balance; `finished` with more than was due is an overpayment. */
export function nowPaymentsOutcome(payment: {
  payment_status: string;
  pay_amount?: unknown;
  actually_paid?: unknown;
}): PaymentOutcome {
  switch (payment.payment_status) {
    case 'waiting':
      return 'unpaid';
    case 'partially_paid':
      return 'underpaid';
    case 'finished': {
      const due = amountToUnits(payment.pay_amount, COIN_DECIMALS);
      const paid = amountToUnits(payment.actually_paid, COIN_DECIMALS);
      return due !== null && paid !== null && paid > due ? 'paid_over' : 'paid';
    }
    case 'failed':
      return 'failed';
    case 'refunded':
      return 'refunding';
    case 'expired':
      return 'expired';
    default:
      return 'confirming';
  }
}

/** Which of an invoice's payments speaks for it: a finished one, else a partial one, else the newest. */
function representative(payments: NowPayment[]): NowPayment | undefined {
  return (
    payments.find((payment) => payment.payment_status === 'finished') ??
    payments.find((payment) => payment.payment_status === 'partially_paid') ??
    payments[0]
  );
}

function toPaymentInfo(payment: NowPayment, fallbackOrderId: string | undefined): PaymentInfo {
  const amountCents = amountToCents(payment.price_amount);
  if (amountCents === null) {
    throw new PaymentProviderError(
      'unavailable',
      `NOWPayments sent a bad price_amount: ${payment.price_amount}`,
    );
  }
  const currency = payment.price_currency.toUpperCase();
  const paidAtFiat =
    payment.actually_paid_at_fiat === null || payment.actually_paid_at_fiat === undefined
      ? undefined
      : (amountToCents(payment.actually_paid_at_fiat) ?? undefined);
  const updatedAt = payment.updated_at ? new Date(payment.updated_at) : undefined;
  return {
    // Our payment row holds the invoice id: one invoice is one top-up, whatever coin the payer chose.
    providerPaymentId: payment.invoice_id ?? payment.payment_id,
    orderId: payment.order_id ?? fallbackOrderId ?? '',
    status: payment.payment_status,
    outcome: nowPaymentsOutcome(payment),
    isFinal: isFinalStatus(payment.payment_status),
    amountCents,
    paidAmountUsdCents: currency === 'USD' ? paidAtFiat : undefined,
    currency,
    updatedAt: updatedAt && !Number.isNaN(updatedAt.getTime()) ? updatedAt : undefined,
  };
}

/**
 * NOWPayments (docs/payment-protocols.md): invoices on its hosted page, `x-api-key` on every call, the
 * dashboard token for the payment list, IPN callbacks verified by HMAC-SHA512 over the sorted JSON. An
 * invoice is our top-up; the payments NOWPayments opens under it (one per coin the payer picks) are read
 * through the list filtered by invoice id.
 */
export function createNowPaymentsProvider(options: NowPaymentsProviderOptions): PaymentProvider {
  const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl : () => options.baseUrl as string;
  let token: { value: string; untilMs: number } | null = null;
  const nowMs = () => (options.clock ? options.clock.now().getTime() : Date.now());

  async function call(
    method: 'GET' | 'POST',
    path: string,
    request: { body?: Record<string, unknown>; bearer?: string } = {},
  ): Promise<unknown> {
    const url = `${baseUrl().replace(/\/+$/, '')}/v1/${path}`;
    const response = await exchangeJson(
      'NOWPayments',
      path,
      url,
      {
        method,
        headers: {
          'x-api-key': options.apiKey,
          accept: 'application/json',
          ...(request.body ? { 'content-type': 'application/json' } : {}),
          ...(request.bearer ? { authorization: `Bearer ${request.bearer}` } : {}),
        },
        body: request.body ? JSON.stringify(request.body) : undefined,
      },
      options.timeoutMs,
    );
    const parsed = response.body;
    if (response.ok) return parsed;
    const message = errorSchema.safeParse(parsed).data?.message ?? 'no message';
    const failure = `NOWPayments ${path} answered HTTP ${response.status}: ${message}`;
    if (response.status === 401 || response.status === 403) {
      throw new PaymentProviderError('configuration', failure);
    }
    if (response.status === 404) throw new PaymentProviderError('not_found', failure);
    if (response.status === 429 || response.status >= 500)
      throw new PaymentProviderError('unavailable', failure);
    throw new PaymentProviderError('rejected', failure);
  }

  function parse<T>(schema: z.ZodType<T>, value: unknown, path: string): T {
    const result = schema.safeParse(value);
    if (!result.success)
      throw new PaymentProviderError('unavailable', `NOWPayments ${path} sent an unexpected shape`);
    return result.data;
  }

  async function bearer(): Promise<string> {
    if (token && token.untilMs > nowMs()) return token.value;
    const answer = parse(
      z.object({ token: z.string().min(1) }),
      await call('POST', 'auth', { body: { email: options.email, password: options.password } }),
      'auth',
    );
    token = { value: answer.token, untilMs: nowMs() + TOKEN_REUSE_MS };
    return answer.token;
  }

  /** A page of the payment list; a refused token is renewed once. */
  async function listPayments(query: URLSearchParams): Promise<NowPayment[]> {
    const path = `payment/?${query}`;
    try {
      return parse(listSchema, await call('GET', path, { bearer: await bearer() }), 'payment list').data;
    } catch (error) {
      if (!(error instanceof PaymentProviderError) || error.kind !== 'configuration' || token === null)
        throw error;
      token = null;
      return parse(listSchema, await call('GET', path, { bearer: await bearer() }), 'payment list').data;
    }
  }

  async function getPaymentOnce(lookup: PaymentLookup): Promise<PaymentInfo> {
    const orderId = 'orderId' in lookup ? lookup.orderId : undefined;
    if ('providerPaymentId' in lookup) {
      const invoiceId = lookup.providerPaymentId;
      const payments = await listPayments(
        new URLSearchParams({ invoiceId, limit: '100', page: '0', sortBy: 'created_at', orderBy: 'desc' }),
      );
      const chosen = representative(payments);
      if (chosen) return toPaymentInfo(chosen, orderId);
      // No coin picked yet: an open invoice with nothing to say about amounts.
      return {
        providerPaymentId: invoiceId,
        orderId: orderId ?? '',
        status: 'waiting',
        outcome: 'unpaid',
        isFinal: false,
        currency: 'USD',
      };
    }
    for (let page = 0; page < ORDER_SEARCH_PAGES; page += 1) {
      const payments = await listPayments(
        new URLSearchParams({ limit: '100', page: String(page), sortBy: 'created_at', orderBy: 'desc' }),
      );
      const chosen = representative(payments.filter((payment) => payment.order_id === orderId));
      if (chosen) return toPaymentInfo(chosen, orderId);
      if (payments.length < 100) break;
    }
    throw new PaymentProviderError('not_found', `NOWPayments has no payment for order ${orderId}`);
  }

  const asProviderError = (error: unknown) =>
    error instanceof PaymentProviderError
      ? error
      : new PaymentProviderError('unavailable', `NOWPayments call failed unexpectedly: ${String(error)}`);

  return {
    name: options.name ?? 'nowpayments',
    kind: 'nowpayments',

    async createInvoice(request: CreateInvoiceRequest): Promise<CreatedInvoice> {
      try {
        if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
          throw new PaymentProviderError('rejected', `invalid amount: ${request.amountCents} cents`);
        }
        const invoice = parse(
          invoiceSchema,
          await call('POST', 'invoice', {
            body: {
              price_amount: unitsToAmount(request.amountCents, 2),
              price_currency: 'usd',
              order_id: request.orderId,
              order_description: 'Balance top-up',
              ipn_callback_url: request.callbackUrl,
              success_url: request.successUrl,
              cancel_url: request.returnUrl,
              is_fixed_rate: true,
              is_fee_paid_by_user: false,
            },
          }),
          'invoice',
        );
        if (
          amountToCents(invoice.price_amount) !== request.amountCents ||
          invoice.price_currency.toLowerCase() !== 'usd'
        ) {
          throw new PaymentProviderError(
            'rejected',
            `NOWPayments made invoice ${invoice.id} for ${invoice.price_amount} ${invoice.price_currency}`,
          );
        }
        return {
          providerPaymentId: invoice.id,
          url: invoice.invoice_url,
          status: 'waiting',
          isFinal: false,
          // NOWPayments invoices take no lifetime: the deadline is ours (a later payment still credits).
          expiresAt: new Date(nowMs() + request.lifetimeSeconds * 1000),
        };
      } catch (error) {
        throw asProviderError(error);
      }
    },

    getPayment: (lookup: PaymentLookup): Promise<PaymentInfo> =>
      readWithRetries(() => getPaymentOnce(lookup), asProviderError),

    verifyWebhook(rawBody: string, _sourceIp: string, headers: WebhookHeaders = {}): PaymentWebhook | null {
      const payload = verifyIpn(rawBody, headers[SIGNATURE_HEADER], options.ipnSecret);
      if (!payload) return null;
      const payment = paymentSchema.safeParse(payload);
      if (!payment.success || !payment.data.invoice_id || !payment.data.order_id) return null;
      const amountCents = amountToCents(payment.data.price_amount);
      if (amountCents === null) return null;
      return {
        providerPaymentId: payment.data.invoice_id,
        orderId: payment.data.order_id,
        status: payment.data.payment_status,
        isFinal: isFinalStatus(payment.data.payment_status),
        amountCents,
        paidAmountUsdCents:
          payment.data.actually_paid_at_fiat === null || payment.data.actually_paid_at_fiat === undefined
            ? undefined
            : (amountToCents(payment.data.actually_paid_at_fiat) ?? undefined),
      };
    },

    async readBalances(): Promise<ProcessorBalance[]> {
      try {
        const balances = parse(balanceSchema, await call('GET', 'balance'), 'balance');
        return Object.entries(balances).flatMap(([code, balance]) => {
          const units = amountToUnits(balance.amount, COIN_DECIMALS);
          if (units === null)
            throw new PaymentProviderError('unavailable', `NOWPayments sent a bad ${code} balance`);
          return units > 0 ? [{ currency: code, amount: coinUnitsText(units) }] : [];
        });
      } catch (error) {
        throw asProviderError(error);
      }
    },

    async listMethods(): Promise<PaymentMethod[]> {
      try {
        const coins = parse(
          z.object({ selectedCurrencies: z.array(z.string()) }),
          await call('GET', 'merchant/coins'),
          'merchant/coins',
        ).selectedCurrencies;
        return await Promise.all(
          coins.map(async (code) => {
            const query = new URLSearchParams({
              currency_from: code,
              currency_to: code,
              fiat_equivalent: 'usd',
            });
            const minimum = parse(
              z.object({ min_amount: amountField }),
              await call('GET', `min-amount?${query}`),
              'min-amount',
            );
            const { coin, network } = coinAndNetwork(code);
            return {
              currency: coin,
              network,
              minAmount: String(minimum.min_amount),
              feePercent: SERVICE_FEE_PERCENT,
            };
          }),
        );
      } catch (error) {
        throw asProviderError(error);
      }
    },
  };
}
