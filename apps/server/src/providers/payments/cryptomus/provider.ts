import {
  centsToDecimal,
  decimalToCents,
  isFailedStatus,
  isPaidStatus,
  isRefundStatus,
  signBody,
  verifyWebhookSignature,
} from '@simcode/cryptomus-protocol';
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
  type StaticWallets,
} from '../types';

export interface CryptomusProviderOptions {
  /** The pool's name: `cryptomus` unless told (Heleket is a second Cryptomus-kind provider, `heleket`). */
  name?: string;
  /**
   * API root without the version, e.g. `https://api.cryptomus.com` (or Heleket's). A function is read at
   * every call, for the built-in sandbox whose address is known only once the server listens.
   */
  baseUrl: string | (() => string);
  merchantId: string;
  /** The payment API key: signs requests and verifies webhooks. */
  apiKey: string;
  /** For one HTTP call, answer included. */
  timeoutMs: number;
  /** Addresses allowed to deliver webhooks; empty or absent allows any (the signature is always checked). */
  webhookIps?: string[];
}

const amountField = z.union([z.string(), z.number()]);
const nullableAmountField = amountField.nullish();

/** The fields of a Cryptomus payment object we rely on; the rest varies between API versions. */
const paymentObjectSchema = z.object({
  uuid: z.string().min(1),
  order_id: z.string(),
  amount: amountField,
  currency: z.string(),
  status: z.string().nullish(),
  payment_status: z.string().nullish(),
  is_final: z.boolean(),
  url: z.string().nullish(),
  expired_at: z.union([z.number(), z.string()]).nullish(),
  payment_amount_usd: nullableAmountField,
  updated_at: z.string().nullish(),
});
type PaymentObject = z.infer<typeof paymentObjectSchema>;

const webhookSchema = z.object({
  type: z.enum(['payment', 'wallet']),
  uuid: z.string().min(1),
  order_id: z.string(),
  status: z.string().min(1),
  is_final: z.boolean(),
  amount: amountField,
  payment_amount_usd: nullableAmountField,
});

const envelopeSchema = z.object({
  state: z.number(),
  result: z.unknown().optional(),
  message: z.string().optional(),
  errors: z.record(z.string(), z.unknown()).optional(),
});

function describeErrors(errors: Record<string, unknown>): string {
  return Object.entries(errors)
    .map(([field, rules]) => `${field}: ${Array.isArray(rules) ? rules.join(', ') : String(rules)}`)
    .join('; ');
}

/** Turns an answer that is not a success into the error our callers act on (protocols.md D.3). */
function classifyFailure(httpStatus: number, envelope: z.infer<typeof envelopeSchema>): PaymentProviderError {
  const message = envelope.message ?? (envelope.errors ? describeErrors(envelope.errors) : 'no message');
  const text = `Cryptomus answered HTTP ${httpStatus}: ${message}`;
  if (httpStatus === 401 || httpStatus === 403 || /invalid sign|merchant not found/i.test(message)) {
    return new PaymentProviderError('configuration', text);
  }
  if (/not found/i.test(message)) return new PaymentProviderError('not_found', text);
  if (httpStatus === 429 || httpStatus >= 500) return new PaymentProviderError('unavailable', text);
  return new PaymentProviderError('rejected', text);
}

/**
 * What a Cryptomus status means (protocols.md D.8). `wrong_amount_waiting` (underpaid, the payer may still
 * send the rest) waits; `wrong_amount` (underpaid, final) is held for support.
 */
export function cryptomusOutcome(status: string): PaymentOutcome {
  if (status === 'check') return 'unpaid';
  if (isPaidStatus(status)) return status === 'paid_over' ? 'paid_over' : 'paid';
  if (status === 'wrong_amount') return 'underpaid';
  if (status === 'cancel') return 'canceled';
  if (isFailedStatus(status)) return 'failed';
  if (isRefundStatus(status)) return 'refunding';
  return 'confirming';
}

const servicesSchema = z.array(
  z.object({
    network: z.string(),
    currency: z.string(),
    is_available: z.boolean(),
    limit: z.object({ min_amount: amountField }),
    commission: z.object({ percent: amountField }),
  }),
);

/** `v1/balance`: the merchant's and the user's wallets per coin; only the merchant's are ours to show. */
const balanceSchema = z.array(
  z.object({
    balance: z.object({
      merchant: z.array(z.object({ currency_code: z.string().min(1), balance: amountField })),
    }),
  }),
);

/** Whether a decimal text is more than zero ("0.00000000" is not). */
const isPositiveText = (amount: string) => /[1-9]/.test(amount);

function statusOf(payment: PaymentObject): string | null {
  return payment.status ?? payment.payment_status ?? null;
}

function centsOrGarbage(value: unknown, field: string): number {
  const cents = decimalToCents(value);
  if (cents === null)
    throw new PaymentProviderError('unavailable', `Cryptomus sent a bad ${field}: ${value}`);
  return cents;
}

function optionalCents(value: unknown, field: string): number | undefined {
  return value === null || value === undefined ? undefined : centsOrGarbage(value, field);
}

function toPaymentInfo(payment: PaymentObject): PaymentInfo {
  const status = statusOf(payment);
  if (!status) throw new PaymentProviderError('unavailable', 'Cryptomus sent a payment without a status');
  const updatedAt = payment.updated_at ? new Date(payment.updated_at) : undefined;
  return {
    providerPaymentId: payment.uuid,
    orderId: payment.order_id,
    status,
    outcome: cryptomusOutcome(status),
    isFinal: payment.is_final,
    amountCents: centsOrGarbage(payment.amount, 'amount'),
    paidAmountUsdCents: optionalCents(payment.payment_amount_usd, 'payment_amount_usd'),
    currency: payment.currency,
    updatedAt: updatedAt && !Number.isNaN(updatedAt.getTime()) ? updatedAt : undefined,
  };
}

const walletSchema = z.object({
  uuid: z.string().min(1),
  address: z.string().min(1),
  url: z.string().nullish(),
});

/** A payment to a static wallet: its amount and currency are the coin that arrived. */
const depositSchema = z.object({
  uuid: z.string().min(1),
  order_id: z.string(),
  amount: amountField,
  currency: z.string(),
  status: z.string().nullish(),
  payment_status: z.string().nullish(),
  is_final: z.boolean(),
  payment_amount_usd: nullableAmountField,
});

function normalizeIp(ip: string): string {
  return ip.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

export function createCryptomusProvider(options: CryptomusProviderOptions): PaymentProvider {
  const baseUrl = typeof options.baseUrl === 'function' ? options.baseUrl : () => options.baseUrl as string;
  const allowedIps = new Set((options.webhookIps ?? []).map(normalizeIp).filter(Boolean));

  /** One signed call; resolves with `result` of a success envelope, throws PaymentProviderError otherwise. */
  async function call(path: string, payload: Record<string, unknown>): Promise<unknown> {
    // Cryptomus hashes the bytes it receives, so the signed string and the sent string must be the same.
    const body = JSON.stringify(payload);
    const url = `${baseUrl().replace(/\/+$/, '')}/v1/${path}`;
    const response = await exchangeJson(
      'Cryptomus',
      path,
      url,
      {
        method: 'POST',
        headers: {
          merchant: options.merchantId,
          sign: signBody(body, options.apiKey),
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
      },
      options.timeoutMs,
    );
    const { body: parsed, text } = response;
    const envelope = envelopeSchema.safeParse(parsed);
    if (!envelope.success) {
      throw new PaymentProviderError(
        'unavailable',
        `Cryptomus ${path} answered HTTP ${response.status} with an unexpected shape: ${text.slice(0, 120)}`,
      );
    }
    if (response.status !== 200 || envelope.data.state !== 0) {
      throw classifyFailure(response.status, envelope.data);
    }
    return envelope.data.result;
  }

  function parsePaymentObject(result: unknown, path: string): PaymentObject {
    const payment = paymentObjectSchema.safeParse(result);
    if (!payment.success) {
      throw new PaymentProviderError('unavailable', `Cryptomus ${path} sent an unexpected payment object`);
    }
    return payment.data;
  }

  /** Anything but our own error means a bug in parsing a strange answer: still "we do not know". */
  function asProviderError(error: unknown): PaymentProviderError {
    return error instanceof PaymentProviderError
      ? error
      : new PaymentProviderError('unavailable', `Cryptomus call failed unexpectedly: ${String(error)}`);
  }

  async function getPaymentOnce(lookup: PaymentLookup): Promise<PaymentInfo> {
    const payload =
      'providerPaymentId' in lookup ? { uuid: lookup.providerPaymentId } : { order_id: lookup.orderId };
    return toPaymentInfo(parsePaymentObject(await call('payment/info', payload), 'payment/info'));
  }

  const staticWallets: StaticWallets = {
    async create(request) {
      try {
        const result = walletSchema.safeParse(
          await call('wallet', {
            currency: request.currency,
            // Cryptomus's services list networks in capitals; its wallet examples write them in lower case.
            network: request.network.toLowerCase(),
            order_id: request.orderId,
            url_callback: request.callbackUrl,
          }),
        );
        if (!result.success) throw new PaymentProviderError('unavailable', 'Cryptomus sent an odd wallet');
        return { walletUuid: result.data.uuid, address: result.data.address, url: result.data.url ?? null };
      } catch (error) {
        throw asProviderError(error);
      }
    },
    getDeposit: (providerPaymentId) =>
      readWithRetries(async () => {
        const deposit = depositSchema.safeParse(await call('payment/info', { uuid: providerPaymentId }));
        if (!deposit.success) {
          throw new PaymentProviderError('unavailable', 'Cryptomus sent an unexpected wallet payment');
        }
        const status = deposit.data.status ?? deposit.data.payment_status;
        if (!status)
          throw new PaymentProviderError('unavailable', 'Cryptomus sent a payment without a status');
        return {
          providerPaymentId: deposit.data.uuid,
          orderId: deposit.data.order_id,
          status,
          outcome: cryptomusOutcome(status),
          isFinal: deposit.data.is_final,
          paidAmountUsdCents: optionalCents(deposit.data.payment_amount_usd, 'payment_amount_usd'),
          currency: deposit.data.currency,
          amount: String(deposit.data.amount),
        };
      }, asProviderError),
  };

  return {
    name: options.name ?? 'cryptomus',
    kind: 'cryptomus',
    staticWallets,

    async listMethods(): Promise<PaymentMethod[]> {
      try {
        const services = servicesSchema.safeParse(await call('payment/services', {}));
        if (!services.success) {
          throw new PaymentProviderError('unavailable', 'Cryptomus sent an unexpected services list');
        }
        return services.data
          .filter((service) => service.is_available)
          .map((service) => ({
            currency: service.currency,
            network: service.network,
            minAmount: String(service.limit.min_amount),
            feePercent: String(service.commission.percent),
          }));
      } catch (error) {
        throw asProviderError(error);
      }
    },

    async readBalances(): Promise<ProcessorBalance[]> {
      try {
        const answer = balanceSchema.safeParse(await call('balance', {}));
        if (!answer.success) throw new PaymentProviderError('unavailable', 'Cryptomus sent an odd balance');
        return answer.data
          .flatMap((entry) => entry.balance.merchant)
          .map((wallet) => ({ currency: wallet.currency_code, amount: String(wallet.balance) }))
          .filter((wallet) => isPositiveText(wallet.amount));
      } catch (error) {
        throw asProviderError(error);
      }
    },

    async createInvoice(request: CreateInvoiceRequest): Promise<CreatedInvoice> {
      try {
        if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
          throw new PaymentProviderError('rejected', `invalid amount: ${request.amountCents} cents`);
        }
        const result = await call('payment', {
          amount: centsToDecimal(request.amountCents),
          currency: 'USD',
          order_id: request.orderId,
          url_callback: request.callbackUrl,
          url_return: request.returnUrl,
          url_success: request.successUrl,
          lifetime: request.lifetimeSeconds,
          is_payment_multiple: false,
        });
        const payment = parsePaymentObject(result, 'payment');
        const info = toPaymentInfo(payment);
        // The same order_id returns the invoice created first: a different amount means we re-used an id.
        if (info.amountCents !== request.amountCents || info.currency !== 'USD') {
          throw new PaymentProviderError(
            'rejected',
            `order ${request.orderId} already has an invoice for ${payment.amount} ${payment.currency}`,
          );
        }
        const expiredAtSeconds = Number(payment.expired_at);
        if (!payment.url || !Number.isFinite(expiredAtSeconds) || expiredAtSeconds <= 0) {
          throw new PaymentProviderError('unavailable', 'Cryptomus sent an invoice without url or expiry');
        }
        return {
          providerPaymentId: info.providerPaymentId,
          url: payment.url,
          status: info.status,
          isFinal: info.isFinal,
          expiresAt: new Date(expiredAtSeconds * 1000),
        };
      } catch (error) {
        throw asProviderError(error);
      }
    },

    // Creation is not retried: a retry with the same order_id would be safe (Cryptomus returns the existing
    // invoice), but the payer is waiting, and the caller can ask again or look the invoice up by its order.
    getPayment: (lookup: PaymentLookup): Promise<PaymentInfo> =>
      readWithRetries(() => getPaymentOnce(lookup), asProviderError),

    verifyWebhook(rawBody: string, sourceIp: string): PaymentWebhook | null {
      if (allowedIps.size > 0 && !allowedIps.has(normalizeIp(sourceIp))) return null;
      const payload = verifyWebhookSignature(rawBody, options.apiKey);
      const webhook = webhookSchema.safeParse(payload);
      if (!webhook.success) return null;
      const usd = webhook.data.payment_amount_usd;
      const paidAmountUsdCents = usd === null || usd === undefined ? undefined : decimalToCents(usd);
      if (paidAmountUsdCents === null) return null;
      if (webhook.data.type === 'wallet') {
        // A deposit's amount is in its coin: only a hint here, the deposit is re-read before any credit.
        return {
          kind: 'deposit',
          providerPaymentId: webhook.data.uuid,
          orderId: webhook.data.order_id,
          status: webhook.data.status,
          isFinal: webhook.data.is_final,
          paidAmountUsdCents,
        };
      }
      const amountCents = decimalToCents(webhook.data.amount);
      if (amountCents === null) return null;
      return {
        providerPaymentId: webhook.data.uuid,
        orderId: webhook.data.order_id,
        status: webhook.data.status,
        isFinal: webhook.data.is_final,
        amountCents,
        paidAmountUsdCents,
      };
    },
  };
}
