import { randomUUID } from 'node:crypto';
import { isFinalStatus } from '@simcode/cryptomus-protocol';
import QRCode from 'qrcode';
import type { StandInLogger } from '../logger';
import {
  CURRENCIES,
  commissionUnits,
  currency,
  exchangeRates,
  findCurrency,
  formatAmount,
  isCrypto,
  paymentServices,
  type SandboxCurrency,
} from './currencies';
import {
  dueUnits,
  fakeTransfer,
  KEPT_STATUSES,
  paymentObject,
  RESENDABLE_STATUSES,
  stableUuid,
  UNPAID_STATUSES,
} from './invoice-views';
import { type ApiAnswer, failure, invalid, type MerchantRoute, ok } from './merchant-api';
import { decodeCursor, pageOf } from './payment-list';
import type { InvoiceStore, SandboxInvoice } from './state';
import {
  type InvoiceLookup,
  validateCreatePayment,
  validateLookup,
  validatePaymentList,
  validateQr,
  validateTestWebhook,
} from './validation';
import type { WebhookSender } from './webhooks';

/** Cryptomus refuses the 11th resend of one invoice (protocols.md D.6). */
const MAX_RESENDS = 10;

const find = (store: InvoiceStore, lookup: InvoiceLookup) =>
  'uuid' in lookup ? store.get(lookup.uuid) : store.getByOrderId(lookup.orderId);

/** Answers with what `use` makes of the invoice the body names by `uuid` or `order_id`, or a 404. */
export function withInvoice(
  store: InvoiceStore,
  body: Record<string, unknown>,
  use: (invoice: SandboxInvoice) => ApiAnswer,
): ApiAnswer {
  const lookup = validateLookup(body);
  if ('errors' in lookup) return invalid(lookup.errors);
  const invoice = find(store, lookup.value);
  return invoice ? use(invoice) : failure(404, 'Payment not found');
}

/**
 * The Cryptomus merchant API's invoice calls: create, info, resend, list, services, QR code, balance,
 * exchange rates and test webhooks. The static-wallet route is the wallets' own and comes in as given.
 */
export function merchantRoutes(deps: {
  merchantId: string;
  store: InvoiceStore;
  webhooks: WebhookSender;
  logger: StandInLogger;
  nowMs: () => number;
  invoiceUrl: (uuid: string) => string;
  staticWalletRoute: MerchantRoute;
}): MerchantRoute[] {
  const { store, webhooks, logger, nowMs } = deps;

  function createPayment(body: Record<string, unknown>): ApiAnswer {
    const input = validateCreatePayment(body);
    if ('errors' in input) return invalid(input.errors);
    const existing = store.getByOrderId(input.value.orderId);
    if (existing) return ok(paymentObject(existing));
    const uuid = randomUUID();
    const now = nowMs();
    const invoice: SandboxInvoice = {
      uuid,
      type: 'payment',
      walletUuid: null,
      orderId: input.value.orderId,
      amountUnits: input.value.amountUnits,
      currency: input.value.currency,
      payerCurrency: input.value.payerCurrency,
      network: input.value.network,
      status: 'check',
      isFinal: false,
      url: deps.invoiceUrl(uuid),
      urlCallback: input.value.urlCallback,
      urlReturn: input.value.urlReturn,
      urlSuccess: input.value.urlSuccess,
      additionalData: input.value.additionalData,
      createdAtMs: now,
      updatedAtMs: now,
      expiresAtMs: now + input.value.lifetimeSeconds * 1000,
      payment: null,
      resendCount: 0,
      webhook: null,
    };
    store.add(invoice);
    logger.info(
      {
        uuid,
        orderId: invoice.orderId,
        amount: `${formatAmount(invoice.amountUnits, currency(invoice.currency))} ${invoice.currency}`,
      },
      'payment sandbox invoice created',
    );
    return ok(paymentObject(invoice));
  }

  function resendPayment(invoice: SandboxInvoice): ApiAnswer {
    if (!invoice.urlCallback) return failure(404, 'Notification not found');
    if (!RESENDABLE_STATUSES.has(invoice.status)) return failure(400, 'Payment is not finalized');
    if (invoice.resendCount >= MAX_RESENDS) return failure(429, 'Too much resend');
    invoice.resendCount += 1;
    webhooks.resend(invoice);
    return ok([]);
  }

  function testWebhook(body: Record<string, unknown>): ApiAnswer {
    const input = validateTestWebhook(body);
    if ('errors' in input) return invalid(input.errors);
    const lookup = validateLookup(body, 'uuid');
    const stored = 'value' in lookup ? find(store, lookup.value) : undefined;
    const now = nowMs();
    // Nothing is stored: a copy of the named invoice, or a made-up one, in the requested status.
    const invoice: SandboxInvoice = {
      ...(stored ?? {
        uuid: typeof body.uuid === 'string' ? body.uuid : randomUUID(),
        type: 'payment' as const,
        walletUuid: null,
        orderId: typeof body.order_id === 'string' ? body.order_id : 'test-webhook',
        amountUnits: 1000,
        currency: 'USD',
        payerCurrency: null,
        network: null,
        url: '',
        urlReturn: null,
        urlSuccess: null,
        additionalData: null,
        createdAtMs: now,
        expiresAtMs: now,
        payment: null,
        resendCount: 0,
      }),
      status: input.value.status,
      isFinal: isFinalStatus(input.value.status),
      updatedAtMs: now,
      urlCallback: input.value.urlCallback,
      webhook: null,
    };
    if (!UNPAID_STATUSES.has(invoice.status) && !invoice.payment) {
      invoice.payment = fakeTransfer(input.value, dueUnits(invoice, currency(input.value.currency)));
    }
    webhooks.sendOnce(invoice);
    return ok([]);
  }

  /** `v1/payment/list`: the invoices created in the dates given, newest first, a page at a time. */
  function listPayments(body: Record<string, unknown>, cursor: unknown): ApiAnswer {
    const input = validatePaymentList(body);
    if ('errors' in input) return invalid(input.errors);
    const { fromMs, untilMs } = input.value;
    const newestFirst = [...store.all()]
      .filter(
        (invoice) =>
          (fromMs === null || invoice.createdAtMs >= fromMs) &&
          (untilMs === null || invoice.createdAtMs < untilMs),
      )
      .reverse();
    const page = pageOf(newestFirst, decodeCursor(cursor));
    return ok({ items: page.items.map(paymentObject), paginate: page.paginate });
  }

  /**
   * `v1/balance`: per coin, what the merchant kept of the payments that arrived (after the fee), in its
   * business wallets; the personal ones stay empty, as nothing moves money there.
   */
  function balance(): ApiAnswer {
    const kept = new Map<string, number>();
    for (const invoice of store.all()) {
      const paid = invoice.payment;
      if (!paid || !KEPT_STATUSES.has(invoice.status)) continue;
      const units = paid.amountUnits - commissionUnits(paid.amountUnits);
      kept.set(paid.payerCurrency, (kept.get(paid.payerCurrency) ?? 0) + units);
    }
    const wallets = (owner: 'merchant' | 'user', units: (coin: SandboxCurrency) => number) =>
      CURRENCIES.filter(isCrypto).map((coin) => ({
        uuid: stableUuid(`${deps.merchantId}:${owner}:${coin.code}`),
        balance: formatAmount(units(coin), coin),
        currency_code: coin.code,
      }));
    return ok([
      {
        balance: {
          merchant: wallets('merchant', (coin) => kept.get(coin.code) ?? 0),
          user: wallets('user', () => 0),
        },
      },
    ]);
  }

  /**
   * `v1/payment/qr`: a PNG data URI. It holds the payment address once the sandbox has one (after paying);
   * before that the hosted page, where a payer gets the address by choosing a coin.
   */
  async function paymentQr(body: Record<string, unknown>): Promise<ApiAnswer> {
    const input = validateQr(body);
    if ('errors' in input) return invalid(input.errors);
    const invoice = store.get(input.value.uuid);
    if (!invoice) return failure(404, 'Payment not found');
    const text = invoice.payment?.address ?? invoice.url;
    return ok({ image: await QRCode.toDataURL(text, { margin: 2, errorCorrectionLevel: 'M' }) });
  }

  function exchangeRateList(code: string | undefined): ApiAnswer {
    const from = findCurrency(code);
    return from ? ok(exchangeRates(from)) : failure(404, 'Currency not found');
  }

  return [
    { method: 'POST', path: '/v1/payment', handle: ({ body }) => createPayment(body) },
    {
      method: 'POST',
      path: '/v1/payment/info',
      handle: ({ body }) => withInvoice(store, body, (invoice) => ok(paymentObject(invoice))),
    },
    {
      method: 'POST',
      path: '/v1/payment/resend',
      handle: ({ body }) => withInvoice(store, body, resendPayment),
    },
    {
      method: 'POST',
      path: '/v1/payment/list',
      // Cryptomus documents the cursor as a query parameter; the PHP SDK sends it in the body.
      handle: ({ body, query }) => listPayments(body, query.cursor ?? body.cursor),
    },
    { method: 'POST', path: '/v1/payment/services', handle: () => ok(paymentServices()) },
    { method: 'POST', path: '/v1/payment/qr', handle: ({ body }) => paymentQr(body) },
    deps.staticWalletRoute,
    { method: 'POST', path: '/v1/balance', handle: balance },
    {
      method: 'GET',
      path: '/v1/exchange-rate/:currency/list',
      public: true,
      handle: ({ params }) => exchangeRateList(params.currency),
    },
    { method: 'POST', path: '/v1/test-webhook/payment', handle: ({ body }) => testWebhook(body) },
  ];
}
