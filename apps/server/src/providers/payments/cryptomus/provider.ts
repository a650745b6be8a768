import { setTimeout as sleep } from 'node:timers/promises';
import {
  centsToDecimal,
  decimalToCents,
  signBody,
  verifyWebhookSignature,
} from '@simcode/cryptomus-protocol';
import { z } from 'zod';
import {
  type CreatedInvoice,
  type CreateInvoiceRequest,
  type PaymentInfo,
  type PaymentLookup,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentWebhook,
} from '../types';

export interface CryptomusProviderOptions {
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

/**
 * Reads are retried this often on 'unavailable' (three attempts in all). Creation is not retried here:
 * a retry with the same order_id would be safe (Cryptomus returns the existing invoice), but the payer is
 * waiting, and the caller can simply ask again with the same orderId, or look the invoice up by it.
 */
const INFO_RETRY_DELAYS_MS = [200, 600];

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
  type: z.literal('payment'),
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
    isFinal: payment.is_final,
    amountCents: centsOrGarbage(payment.amount, 'amount'),
    paidAmountUsdCents: optionalCents(payment.payment_amount_usd, 'payment_amount_usd'),
    currency: payment.currency,
    updatedAt: updatedAt && !Number.isNaN(updatedAt.getTime()) ? updatedAt : undefined,
  };
}

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
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          merchant: options.merchantId,
          sign: signBody(body, options.apiKey),
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${options.timeoutMs} ms`
          : String((error as { cause?: unknown })?.cause ?? error);
      throw new PaymentProviderError('unavailable', `Cryptomus ${path} failed: ${reason}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new PaymentProviderError(
        'unavailable',
        `Cryptomus ${path} answered HTTP ${response.status} with non-JSON: ${text.slice(0, 120)}`,
      );
    }
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
    const payload = 'orderId' in lookup ? { order_id: lookup.orderId } : { uuid: lookup.providerPaymentId };
    return toPaymentInfo(parsePaymentObject(await call('payment/info', payload), 'payment/info'));
  }

  return {
    name: 'cryptomus',

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

    async getPayment(lookup: PaymentLookup): Promise<PaymentInfo> {
      for (let attempt = 0; ; attempt += 1) {
        try {
          return await getPaymentOnce(lookup);
        } catch (error) {
          const failure = asProviderError(error);
          const delayMs = INFO_RETRY_DELAYS_MS[attempt];
          if (failure.kind !== 'unavailable' || delayMs === undefined) throw failure;
          await sleep(delayMs);
        }
      }
    },

    verifyWebhook(rawBody: string, sourceIp: string): PaymentWebhook | null {
      if (allowedIps.size > 0 && !allowedIps.has(normalizeIp(sourceIp))) return null;
      const payload = verifyWebhookSignature(rawBody, options.apiKey);
      const webhook = webhookSchema.safeParse(payload);
      if (!webhook.success) return null;
      const amountCents = decimalToCents(webhook.data.amount);
      const usd = webhook.data.payment_amount_usd;
      const paidAmountUsdCents = usd === null || usd === undefined ? undefined : decimalToCents(usd);
      if (amountCents === null || paidAmountUsdCents === null) return null;
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
