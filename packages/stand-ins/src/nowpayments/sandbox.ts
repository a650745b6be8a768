import { randomBytes } from 'node:crypto';
import { amountToCents, amountToUnits, COIN_DECIMALS, unitsToAmount } from '@simcode/nowpayments-protocol';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type Clock, systemClock } from '../clock';
import { type StandInLogger, silentLogger } from '../logger';
import { sameSecret } from '../sandbox/merchant-api';
import { type SharedTurnPort, SharedTurns, turnPerRequest } from '../shared-turns';
import {
  centsToUnits,
  coinByCode,
  DEFAULT_IPN_RETRY_DELAYS_MS,
  DEFAULT_PAYMENT_LIFETIME_MS,
  type Invoice,
  JWT_LIFETIME_MS,
  NOWPAYMENTS_SANDBOX_COINS,
} from './model';
import { nowPaymentsPayPage, nowPaymentsResultPage } from './page';
import { createNowPaymentsState, defaultPaidUnits, type NowPaymentsStore } from './state';
import { balanceObject, invoiceObject, paymentObject } from './views';

export interface NowPaymentsSandboxOptions {
  /** The `x-api-key` the merchant API wants; also authorises the control API (`x-sandbox-key`). */
  apiKey: string;
  /** Signs IPN callbacks. */
  ipnSecret: string;
  /** The dashboard login that `POST /v1/auth` exchanges for a token (the payment list needs one). */
  email: string;
  password: string;
  /** The site's public origin; invoice urls point at its `<prefix>/payment/?iid=<id>`. */
  publicUrl: () => string;
  clock?: Clock;
  logger?: StandInLogger;
  /** A payment still `waiting` this long after it was created expires (NOWPayments: 7 days). */
  paymentLifetimeMs?: number;
  /** Waits between the attempts of a refused IPN. */
  ipnRetryDelaysMs?: number[];
  /** Where invoices and payments survive a restart (the product's database); memory only without it. */
  store?: NowPaymentsStore;
  /** When other processes serve this sandbox from the same store: they take turns (see SharedTurns). */
  sharedTurns?: SharedTurnPort;
}

export interface NowPaymentsSandbox {
  /** Mount with `{ prefix: '/sandbox/nowpayments' }`. */
  plugin: FastifyPluginAsync;
  /** Reads the stored state; before the plugin serves anything. */
  load(): Promise<void>;
  /** Stops IPN retries and waits for the last writes. */
  stop(): Promise<void>;
}

/** NOWPayments' error answers: `{status:false, statusCode, code, message}`. */
const apiError = (reply: FastifyReply, statusCode: number, code: string, message: string) =>
  reply.code(statusCode).send({ status: false, statusCode, code, message });

/**
 * A built-in stand-in for NOWPayments (docs/payment-protocols.md): the merchant API under `/v1` with
 * `x-api-key` (status, auth, merchant coins, minimum amounts, invoices, payment status, the JWT-guarded
 * payment list), a hosted invoice page (`/payment/?iid=`), IPN callbacks signed with HMAC-SHA512 over the
 * sorted JSON, partial and over-payments, expiry, and a control API for tests with fault injection
 * (`/control/fault`: every merchant call answers 503 until cleared). State lives in memory, and in the
 * store when one is given.
 */
export function createNowPaymentsSandbox(options: NowPaymentsSandboxOptions): NowPaymentsSandbox {
  const logger = options.logger ?? silentLogger;
  const retryDelaysMs = options.ipnRetryDelaysMs ?? DEFAULT_IPN_RETRY_DELAYS_MS;
  const state = createNowPaymentsState({
    clock: options.clock ?? systemClock,
    logger,
    ipnSecret: options.ipnSecret,
    lifetimeMs: options.paymentLifetimeMs ?? DEFAULT_PAYMENT_LIFETIME_MS,
    retryDelaysMs,
    store: options.store,
  });
  const { invoices, payments, tokens, nowMs, expireDue, openPayment, setStatus } = state;
  const turns = new SharedTurns(options.sharedTurns, state.load, state.save);

  const plugin: FastifyPluginAsync = async (app) => {
    // What an answer acknowledges (an invoice, a payment, a token) is stored before the answer leaves.
    turnPerRequest(app, turns);
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string' },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    const prefix = app.prefix;
    const invoiceUrl = (invoice: Invoice) =>
      `${options.publicUrl().replace(/\/+$/, '')}${prefix}/payment/?iid=${invoice.id}`;

    /** The merchant API's guard: fault injection first, then the API key. */
    const merchant = async (request: FastifyRequest, reply: FastifyReply) => {
      expireDue();
      if (state.faulty) {
        return reply
          .code(503)
          .type('text/html')
          .send('<html><body>503 Service Temporarily Unavailable</body></html>');
      }
      if (!sameSecret(request.headers['x-api-key'], options.apiKey)) {
        return apiError(reply, 403, 'INVALID_API_KEY', 'Invalid api key');
      }
    };
    const body = (request: FastifyRequest) =>
      (request.body !== null && typeof request.body === 'object' ? request.body : {}) as Record<
        string,
        unknown
      >;

    app.get('/v1/status', async (_request, reply) =>
      state.faulty ? reply.code(503).send({ message: 'Service Unavailable' }) : { message: 'OK' },
    );

    app.post('/v1/auth', async (request, reply) => {
      if (state.faulty) return reply.code(503).send({ message: 'Service Unavailable' });
      const { email, password } = body(request);
      if (!sameSecret(email, options.email) || !sameSecret(password, options.password)) {
        return apiError(reply, 401, 'AUTH_REQUIRED', 'Authorization failed');
      }
      const token = randomBytes(32).toString('base64url');
      state.addToken(token, nowMs() + JWT_LIFETIME_MS);
      return { token };
    });

    app.get('/v1/merchant/coins', { preHandler: merchant }, async () => ({
      selectedCurrencies: NOWPAYMENTS_SANDBOX_COINS.map((coin) => coin.code),
    }));

    app.get('/v1/min-amount', { preHandler: merchant }, async (request, reply) => {
      const query = request.query as Record<string, string | undefined>;
      const coin = coinByCode(query.currency_from);
      if (!coin) return apiError(reply, 400, 'INVALID_REQUEST_PARAMS', 'currency_from is invalid');
      return {
        currency_from: coin.code,
        currency_to: query.currency_to ?? coin.code,
        min_amount: unitsToAmount(centsToUnits(coin.minCents, coin), COIN_DECIMALS),
        ...(query.fiat_equivalent ? { fiat_equivalent: unitsToAmount(coin.minCents, 2) } : {}),
      };
    });

    app.post('/v1/invoice', { preHandler: merchant }, async (request, reply) => {
      const input = body(request);
      const priceCents = amountToCents(input.price_amount);
      const priceCurrency =
        typeof input.price_currency === 'string' ? input.price_currency.toLowerCase() : '';
      if (priceCents === null || priceCents <= 0) {
        return apiError(reply, 400, 'INVALID_REQUEST_PARAMS', '"price_amount" must be a positive number');
      }
      if (priceCurrency !== 'usd') {
        return apiError(
          reply,
          400,
          'INVALID_REQUEST_PARAMS',
          '"price_currency" is not supported by the sandbox',
        );
      }
      const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
      const now = nowMs();
      const invoice = state.addInvoice({
        tokenId: randomBytes(6).toString('base64url'),
        orderId: text(input.order_id),
        orderDescription: text(input.order_description),
        priceCents,
        priceCurrency,
        payCurrency: coinByCode(input.pay_currency)?.code ?? null,
        ipnCallbackUrl: text(input.ipn_callback_url),
        successUrl: text(input.success_url),
        cancelUrl: text(input.cancel_url),
        createdAtMs: now,
        updatedAtMs: now,
      });
      logger.info({ id: invoice.id, orderId: invoice.orderId }, 'nowpayments sandbox invoice created');
      return invoiceObject(invoice, invoiceUrl(invoice));
    });

    app.get('/v1/payment/:paymentId', { preHandler: merchant }, async (request, reply) => {
      const payment = payments.get(Number((request.params as { paymentId: string }).paymentId));
      if (!payment) return apiError(reply, 404, 'PAYMENT_NOT_FOUND', 'Payment not found');
      return paymentObject(payment);
    });

    app.get('/v1/balance', { preHandler: merchant }, async () => balanceObject(payments.values()));

    // The list needs the dashboard's JWT besides the API key, as the real one does. Its documentation
    // writes `/v1/payment/`, the official client `/v1/payment`: both are answered.
    const listPayments = async (request: FastifyRequest, reply: FastifyReply) => {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      const expiresAtMs = token ? tokens.get(token) : undefined;
      if (expiresAtMs === undefined || expiresAtMs <= nowMs()) {
        return apiError(reply, 401, 'AUTH_REQUIRED', 'Authorization header is empty or invalid');
      }
      const query = request.query as Record<string, string | undefined>;
      const limit = Math.min(Math.max(Number(query.limit ?? 10) || 10, 1), 500);
      const page = Math.max(Number(query.page ?? 0) || 0, 0);
      const fromMs = query.dateFrom ? Date.parse(query.dateFrom) : Number.NEGATIVE_INFINITY;
      const toMs = query.dateTo ? Date.parse(query.dateTo) : Number.POSITIVE_INFINITY;
      const matching = [...payments.values()]
        .filter(
          (payment) =>
            (!query.invoiceId || payment.invoice.id === query.invoiceId) &&
            payment.createdAtMs >= fromMs &&
            payment.createdAtMs <= toMs,
        )
        .sort((a, b) =>
          query.orderBy === 'asc' ? a.createdAtMs - b.createdAtMs : b.createdAtMs - a.createdAtMs,
        );
      return {
        data: matching.slice(page * limit, (page + 1) * limit).map(paymentObject),
        limit,
        page,
        pagesCount: Math.ceil(matching.length / limit),
        total: matching.length,
      };
    };
    app.get('/v1/payment/', { preHandler: merchant }, listPayments);
    // A server that ignores trailing slashes already answers the second form with the first.
    if (!app.hasRoute({ method: 'GET', url: `${prefix}/v1/payment` })) {
      app.get('/v1/payment', { preHandler: merchant }, listPayments);
    }

    /** The hosted invoice page: pick a coin, pay (exactly, in part, or too much), or cancel. */
    const invoiceOf = (request: FastifyRequest) =>
      invoices.get(String((request.query as Record<string, unknown>).iid ?? ''));
    const html = (reply: FastifyReply, status: number, page: string) =>
      reply.code(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);

    app.get('/payment/', async (request, reply) => {
      expireDue();
      const invoice = invoiceOf(request);
      if (!invoice) return html(reply, 404, nowPaymentsResultPage({ title: 'Invoice not found' }));
      const paid = [...payments.values()].find(
        (payment) => payment.invoice === invoice && payment.status !== 'waiting',
      );
      if (paid) {
        return html(
          reply,
          200,
          nowPaymentsResultPage({ title: `Payment ${paid.status}`, backUrl: invoice.successUrl }),
        );
      }
      return html(
        reply,
        200,
        nowPaymentsPayPage({
          invoiceId: invoice.id,
          priceCents: invoice.priceCents,
          orderDescription: invoice.orderDescription,
          coins: NOWPAYMENTS_SANDBOX_COINS.filter(
            (coin) => invoice.payCurrency === null || coin.code === invoice.payCurrency,
          ).map((coin) => ({
            code: coin.code,
            label: `${coin.code.toUpperCase()} (${coin.network})`,
            amount: unitsToAmount(centsToUnits(invoice.priceCents, coin), COIN_DECIMALS).toString(),
          })),
          action: `${prefix}/payment/pay`,
          cancelUrl: invoice.cancelUrl,
        }),
      );
    });

    app.post('/payment/pay', async (request, reply) => {
      expireDue();
      const form = body(request);
      const invoice = invoices.get(String(form.iid ?? ''));
      const coin = coinByCode(form.coin);
      if (!invoice || !coin) return html(reply, 404, nowPaymentsResultPage({ title: 'Invoice not found' }));
      const payment = openPayment(invoice, coin);
      if (payment.status === 'waiting') {
        const status = form.amount === 'partial' ? 'partially_paid' : 'finished';
        const paidUnits =
          form.amount === 'over'
            ? payment.payUnits + Math.ceil(payment.payUnits / 10)
            : defaultPaidUnits(payment, status);
        setStatus(payment, status, paidUnits);
      }
      return reply.redirect(`${prefix}/payment/?iid=${invoice.id}`, 303);
    });

    /** The control API for tests: `x-sandbox-key: <apiKey>`, JSON in and out. */
    const control = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!sameSecret(request.headers['x-sandbox-key'], options.apiKey)) {
        return apiError(reply, 401, 'INVALID_SANDBOX_KEY', 'Invalid sandbox key');
      }
    };

    /**
     * `{invoice_id, status, pay_currency?, actually_paid?, send_ipn?}`: the invoice's payer pays (or not) in
     * the coin (the first one by default); the payment moves to `status` and its IPN is sent, unless
     * `send_ipn` is false (a lost IPN, for the merchant's reconciliation to find the change).
     */
    app.post('/control/payment', { preHandler: control }, async (request, reply) => {
      expireDue();
      const input = body(request);
      const invoice = invoices.get(String(input.invoice_id ?? ''));
      if (!invoice) return apiError(reply, 404, 'INVOICE_NOT_FOUND', 'Invoice not found');
      const status = String(input.status ?? '');
      if (
        ![
          'waiting',
          'confirming',
          'confirmed',
          'sending',
          'partially_paid',
          'finished',
          'failed',
          'refunded',
          'expired',
        ].includes(status)
      ) {
        return apiError(reply, 400, 'INVALID_REQUEST_PARAMS', 'unknown status');
      }
      const coin = coinByCode(
        input.pay_currency ?? invoice.payCurrency ?? NOWPAYMENTS_SANDBOX_COINS[0]!.code,
      );
      if (!coin) return apiError(reply, 400, 'INVALID_REQUEST_PARAMS', 'unknown pay_currency');
      const payment = openPayment(invoice, coin);
      const given =
        input.actually_paid === undefined ? null : amountToUnits(input.actually_paid, COIN_DECIMALS);
      setStatus(payment, status, given ?? defaultPaidUnits(payment, status), input.send_ipn !== false);
      return paymentObject(payment);
    });

    /** `{payment_id}`: sends the payment's current IPN again (a replay, as a retry would). */
    app.post('/control/resend', { preHandler: control }, async (request, reply) => {
      const payment = payments.get(Number(body(request).payment_id));
      if (!payment) return apiError(reply, 404, 'PAYMENT_NOT_FOUND', 'Payment not found');
      state.sendIpn(payment, retryDelaysMs.length);
      return paymentObject(payment);
    });

    /** `{down: true|false}`: while down, every merchant call answers 503 with an HTML page. */
    app.post('/control/fault', { preHandler: control }, async (request) => {
      state.faulty = body(request).down === true;
      logger.warn({ down: state.faulty }, 'nowpayments sandbox fault injection changed');
      return { down: state.faulty };
    });
  };

  return {
    plugin,
    // Shared, the first turn reads the state.
    load: () => (turns.shared ? turns.run(() => {}) : state.load()),
    async stop() {
      state.stop();
      await state.save();
    },
  };
}
