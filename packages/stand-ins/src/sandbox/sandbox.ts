import { randomUUID } from 'node:crypto';
import { isFinalStatus } from '@simcode/cryptomus-protocol';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import { type Clock, systemClock } from '../clock';
import { type StandInLogger, silentLogger } from '../logger';
import {
  CURRENCIES,
  commissionUnits,
  currency,
  exchangeRates,
  findCurrency,
  formatAmount,
  isCrypto,
  type PaymentMethod,
  paymentServices,
  type SandboxCurrency,
} from './currencies';
import {
  controlView,
  defaultMethod,
  defaultPaymentUnits,
  dueUnits,
  fakeTransfer,
  KEPT_STATUSES,
  methodsOf,
  payerCoin,
  paymentObject,
  RESENDABLE_STATUSES,
  STATUS_AT_EXPIRY,
  stableUuid,
  UNPAID_STATUSES,
} from './invoice-views';
import {
  type ApiAnswer,
  failure,
  invalid,
  type MerchantRoute,
  merchantApiPlugin,
  ok,
  parseJsonObject,
  rawBodyOf,
  sameSecret,
  sendAnswer,
  sendHtml,
} from './merchant-api';
import { checkoutPage, notFoundPage, outcomePage } from './pages';
import { decodeCursor, pageOf } from './payment-list';
import { InvoiceStore, type SandboxInvoice, type SandboxStore } from './state';
import {
  type InvoiceLookup,
  validateCreatePayment,
  validateLookup,
  validatePaymentList,
  validateQr,
  validateStatusChange,
  validateTestWebhook,
} from './validation';
import { createStaticWallets } from './wallet-routes';
import { type SandboxWalletStore, WalletStore } from './wallets';
import { DEFAULT_WEBHOOK_RETRY_DELAYS_MS, WebhookSender } from './webhooks';

export interface PaymentSandboxOptions {
  merchantId: string;
  /** Signs and verifies like a Cryptomus payment key; also authorises the control API. */
  apiKey: string;
  /** The site's public origin (e.g. http://localhost:3000); invoice urls point at its /sandbox/pay/<uuid>. */
  publicUrl: () => string;
  /** Where invoices survive a restart (the product's database); memory only without it. */
  store?: SandboxStore;
  /** Where static wallets survive a restart; memory only without it. */
  walletStore?: SandboxWalletStore;
  clock?: Clock;
  logger?: StandInLogger;
  /** Waits between the attempts of a failed webhook; five attempts over about six minutes by default. */
  webhookRetryDelaysMs?: number[];
}

export interface PaymentSandbox {
  /** Mount with `{ prefix: '/sandbox' }`; it parses its own request bodies, raw, inside its scope. */
  plugin: FastifyPluginAsync;
  /** Reads the stored invoices; before the plugin serves anything. */
  load(): Promise<void>;
  /**
   * Resumes unfinished webhooks and starts expiring invoices on time; once the receiver listens, so no
   * attempt is spent on a refused connection to our own server.
   */
  start(): void;
  /** Stops timers and deliveries and waits for the last writes. */
  stop(): Promise<void>;
}

/** Expiry is also applied on every request, so this only matters for webhooks of invoices nobody looks at. */
const EXPIRY_SWEEP_MS = 1000;
/** Cryptomus refuses the 11th resend of one invoice (protocols.md D.6). */
const MAX_RESENDS = 10;

/**
 * A built-in stand-in for Cryptomus: the merchant API (`/cryptomus/v1/...`, signed like the real one:
 * invoices in dollars or coins, their info, list, resend and QR code, services, balance, exchange rates and
 * test webhooks), a hosted payment page (`/pay/<uuid>`) with Pay and Cancel buttons, signed webhooks on
 * every status change, and a control API (`/control/...`) for tests, with fault injection (`/control/fault`
 * `{down: true}`: every merchant call answers 503 until cleared). The product talks to it through the
 * ordinary Cryptomus adapter, so a fresh install can be topped up end to end without real money.
 */
export function createPaymentSandbox(options: PaymentSandboxOptions): PaymentSandbox {
  const clock = options.clock ?? systemClock;
  const logger = options.logger ?? silentLogger;
  const store = new InvoiceStore(options.store, logger);
  const wallets = new WalletStore(options.walletStore, logger);
  const webhooks = new WebhookSender({
    store,
    apiKey: options.apiKey,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    logger,
  });
  let sweepTimer: NodeJS.Timeout | null = null;
  const nowMs = () => clock.now().getTime();
  const staticWallets = createStaticWallets({
    merchantId: options.merchantId,
    publicUrl: options.publicUrl,
    wallets,
    invoices: store,
    nowMs,
    logger,
    announce: (deposit, status) => changeStatus(deposit, status),
  });
  /** Fault injection (`/control/fault`): the merchant API answers 503 while set. */
  let down = false;

  function changeStatus(
    invoice: SandboxInvoice,
    status: string,
    change: { paymentUnits?: number; method?: PaymentMethod; sendWebhook?: boolean } = {},
  ): void {
    invoice.status = status;
    invoice.isFinal = isFinalStatus(status);
    invoice.updatedAtMs = nowMs();
    if (!UNPAID_STATUSES.has(status)) {
      const method = change.method ?? defaultMethod(invoice);
      const coin = invoice.payment ? payerCoin(invoice) : currency(method.currency);
      const amountUnits = change.paymentUnits ?? defaultPaymentUnits(status, invoice, coin);
      invoice.payment = invoice.payment
        ? { ...invoice.payment, amountUnits }
        : fakeTransfer(method, amountUnits);
    }
    store.changed(invoice.uuid);
    logger.info({ uuid: invoice.uuid, orderId: invoice.orderId, status }, 'payment sandbox invoice changed');
    if (change.sendWebhook !== false) webhooks.sendCurrentState(invoice);
  }

  function expireDue(): void {
    const now = nowMs();
    for (const invoice of store.all()) {
      const next = STATUS_AT_EXPIRY[invoice.status];
      if (next && invoice.expiresAtMs <= now) changeStatus(invoice, next);
    }
  }

  const isPayable = (invoice: SandboxInvoice) => invoice.status === 'check' && invoice.expiresAtMs > nowMs();

  const find = (lookup: InvoiceLookup) =>
    'uuid' in lookup ? store.get(lookup.uuid) : store.getByOrderId(lookup.orderId);

  function withInvoice(
    body: Record<string, unknown>,
    use: (invoice: SandboxInvoice) => ApiAnswer,
  ): ApiAnswer {
    const lookup = validateLookup(body);
    if ('errors' in lookup) return invalid(lookup.errors);
    const invoice = find(lookup.value);
    return invoice ? use(invoice) : failure(404, 'Payment not found');
  }

  function createPayment(body: Record<string, unknown>, invoiceUrl: (uuid: string) => string): ApiAnswer {
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
      url: invoiceUrl(uuid),
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
    const stored = 'value' in lookup ? find(lookup.value) : undefined;
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

  function controlStatus(body: Record<string, unknown>): ApiAnswer {
    return withInvoice(body, (invoice) => {
      const coin = payerCoin(invoice);
      const input = validateStatusChange(body, coin);
      if ('errors' in input) return invalid(input.errors);
      const { status, paymentUnits, sendWebhook } = input.value;
      const due = dueUnits(invoice, coin);
      const paid = paymentUnits ?? defaultPaymentUnits(status, invoice, coin);
      if (status === 'paid_over' && paid <= due) {
        return invalid({ payment_amount: ['validation.gt'] });
      }
      if ((status === 'wrong_amount' || status === 'wrong_amount_waiting') && paid >= due) {
        return invalid({ payment_amount: ['validation.lt'] });
      }
      changeStatus(invoice, status, { paymentUnits: paymentUnits ?? undefined, sendWebhook });
      return ok(controlView(invoice));
    });
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
        uuid: stableUuid(`${options.merchantId}:${owner}:${coin.code}`),
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

  function controlResend(invoice: SandboxInvoice): ApiAnswer {
    if (!invoice.urlCallback) return failure(409, 'The invoice has no url_callback');
    webhooks.resend(invoice);
    return ok(controlView(invoice));
  }

  const plugin: FastifyPluginAsync = async (app) => {
    // Signatures cover the exact bytes received, so this scope keeps bodies as text and parses them itself.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    // What an answer acknowledges (an invoice, a payment, a cancel) is stored before the answer leaves.
    app.addHook('onSend', async (_request, _reply, payload) => {
      await Promise.all([store.save(), wallets.save()]);
      return payload;
    });
    const prefix = app.prefix;
    const pagePath = (uuid: string) => `${prefix}/pay/${encodeURIComponent(uuid)}`;
    const invoiceUrl = (uuid: string) => `${options.publicUrl().replace(/\/+$/, '')}${pagePath(uuid)}`;

    const merchantRoutes: MerchantRoute[] = [
      { method: 'POST', path: '/v1/payment', handle: ({ body }) => createPayment(body, invoiceUrl) },
      {
        method: 'POST',
        path: '/v1/payment/info',
        handle: ({ body }) => withInvoice(body, (invoice) => ok(paymentObject(invoice))),
      },
      { method: 'POST', path: '/v1/payment/resend', handle: ({ body }) => withInvoice(body, resendPayment) },
      {
        method: 'POST',
        path: '/v1/payment/list',
        // Cryptomus documents the cursor as a query parameter; the PHP SDK sends it in the body.
        handle: ({ body, query }) => listPayments(body, query.cursor ?? body.cursor),
      },
      { method: 'POST', path: '/v1/payment/services', handle: () => ok(paymentServices()) },
      { method: 'POST', path: '/v1/payment/qr', handle: ({ body }) => paymentQr(body) },
      staticWallets.merchantRoute(prefix),
      { method: 'POST', path: '/v1/balance', handle: balance },
      {
        method: 'GET',
        path: '/v1/exchange-rate/:currency/list',
        public: true,
        handle: ({ params }) => exchangeRateList(params.currency),
      },
      { method: 'POST', path: '/v1/test-webhook/payment', handle: ({ body }) => testWebhook(body) },
    ];
    await app.register(
      merchantApiPlugin({
        merchantId: options.merchantId,
        apiKey: options.apiKey,
        routes: merchantRoutes,
        beforeEach: expireDue,
        isDown: () => down,
        logger,
      }),
      { prefix: '/cryptomus' },
    );

    /** The control API for tests: `x-sandbox-key: <apiKey>`, JSON bodies, Cryptomus-style answers. */
    const controlRoute = (path: string, handle: (body: Record<string, unknown>) => ApiAnswer) =>
      app.post(path, async (request, reply) => {
        if (!sameSecret(request.headers['x-sandbox-key'], options.apiKey)) {
          return sendAnswer(reply, failure(401, 'Invalid sandbox key'));
        }
        const body = parseJsonObject(rawBodyOf(request));
        if (!body) return sendAnswer(reply, failure(400, 'Invalid JSON body'));
        expireDue();
        return sendAnswer(reply, handle(body));
      });

    controlRoute('/control/status', controlStatus);
    controlRoute('/control/resend', (body) => withInvoice(body, controlResend));
    controlRoute('/control/invoice', (body) => withInvoice(body, (invoice) => ok(controlView(invoice))));
    controlRoute('/control/fault', (body) => {
      down = body.down === true;
      logger.warn({ down }, 'payment sandbox fault injection changed');
      return ok({ down });
    });
    controlRoute('/control/reset', () => {
      webhooks.cancelAll();
      wallets.clear();
      return ok({ removed: store.clear() });
    });
    staticWallets.register(app, controlRoute);

    /** The hosted payment page and its two buttons. */
    const renderInvoice = (reply: FastifyReply, status: number, invoice: SandboxInvoice, notice?: string) =>
      sendHtml(
        reply,
        status,
        isPayable(invoice)
          ? checkoutPage({
              invoice,
              methods: methodsOf(invoice),
              nowMs: nowMs(),
              pagePath: pagePath(invoice.uuid),
              notice,
            })
          : outcomePage({ invoice, notice }),
      );

    const pageRoute = (
      method: 'GET' | 'POST',
      path: string,
      handle: (invoice: SandboxInvoice, request: FastifyRequest, reply: FastifyReply) => unknown,
    ) =>
      app.route({
        method,
        url: path,
        handler: async (request, reply) => {
          expireDue();
          const invoice = store.get((request.params as { uuid: string }).uuid);
          if (!invoice) return sendHtml(reply, 404, notFoundPage());
          return handle(invoice, request, reply);
        },
      });

    const refusal = (invoice: SandboxInvoice, action: 'paid' | 'cancelled') =>
      invoice.status === 'paid' || invoice.status === 'paid_over'
        ? `This invoice is already paid, so it cannot be ${action} again. Nothing changed.`
        : `This invoice can no longer be ${action}: it is ${invoice.isFinal ? 'closed or expired' : 'already being processed'}. Nothing changed.`;

    pageRoute('GET', '/pay/:uuid', (invoice, _request, reply) => renderInvoice(reply, 200, invoice));
    pageRoute('POST', '/pay/:uuid/pay', (invoice, request, reply) => {
      if (!isPayable(invoice)) return renderInvoice(reply, 409, invoice, refusal(invoice, 'paid'));
      const chosen = new URLSearchParams(rawBodyOf(request)).get('method');
      const method = methodsOf(invoice).find((candidate) => candidate.id === chosen);
      changeStatus(invoice, 'paid', { method });
      // Post/redirect/get: reloading the outcome page must not submit the payment again.
      return reply.redirect(pagePath(invoice.uuid), 303);
    });
    pageRoute('POST', '/pay/:uuid/cancel', (invoice, _request, reply) => {
      if (!isPayable(invoice)) return renderInvoice(reply, 409, invoice, refusal(invoice, 'cancelled'));
      changeStatus(invoice, 'cancel');
      return reply.redirect(pagePath(invoice.uuid), 303);
    });
  };

  return {
    plugin,
    load: () => Promise.all([store.load(), wallets.load()]).then(() => undefined),
    start() {
      if (sweepTimer) return;
      webhooks.resumePending();
      expireDue();
      sweepTimer = setInterval(expireDue, EXPIRY_SWEEP_MS);
      sweepTimer.unref();
    },
    async stop() {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      await webhooks.stop();
      await Promise.all([store.save(), wallets.save()]);
    },
  };
}
