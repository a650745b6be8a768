import { isFinalStatus } from '@simcode/cryptomus-protocol';
import type { FastifyPluginAsync } from 'fastify';
import { type Clock, systemClock } from '../clock';
import { type StandInLogger, silentLogger } from '../logger';
import { type SharedTurnPort, SharedTurns, turnPerRequest } from '../shared-turns';
import { currency, type PaymentMethod } from './currencies';
import {
  controlView,
  defaultMethod,
  defaultPaymentUnits,
  dueUnits,
  fakeTransfer,
  payerCoin,
  STATUS_AT_EXPIRY,
  UNPAID_STATUSES,
} from './invoice-views';
import {
  type ApiAnswer,
  failure,
  invalid,
  merchantApiPlugin,
  ok,
  parseJsonObject,
  rawBodyOf,
  sameSecret,
  sendAnswer,
} from './merchant-api';
import { merchantRoutes, withInvoice } from './merchant-routes';
import { registerPaymentPages } from './payment-page-routes';
import { InvoiceStore, type SandboxInvoice, type SandboxStore } from './state';
import { validateStatusChange } from './validation';
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
  /** When other processes serve this sandbox from the same stores: they take turns (see SharedTurns). */
  sharedTurns?: SharedTurnPort;
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
  const load = () => Promise.all([store.load(), wallets.load()]).then(() => undefined);
  const save = () => Promise.all([store.save(), wallets.save()]).then(() => undefined);
  const turns = new SharedTurns(options.sharedTurns, load, save);
  const webhooks = new WebhookSender({
    store,
    apiKey: options.apiKey,
    retryDelaysMs: options.webhookRetryDelaysMs ?? DEFAULT_WEBHOOK_RETRY_DELAYS_MS,
    logger,
    inTurn: (work) => turns.run(work),
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

  function controlStatus(body: Record<string, unknown>): ApiAnswer {
    return withInvoice(store, body, (invoice) => {
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
    turnPerRequest(app, turns);
    const prefix = app.prefix;
    const pagePath = (uuid: string) => `${prefix}/pay/${encodeURIComponent(uuid)}`;
    const invoiceUrl = (uuid: string) => `${options.publicUrl().replace(/\/+$/, '')}${pagePath(uuid)}`;

    await app.register(
      merchantApiPlugin({
        merchantId: options.merchantId,
        apiKey: options.apiKey,
        routes: merchantRoutes({
          merchantId: options.merchantId,
          store,
          webhooks,
          logger,
          nowMs,
          invoiceUrl,
          staticWalletRoute: staticWallets.merchantRoute(prefix),
        }),
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
    controlRoute('/control/resend', (body) => withInvoice(store, body, controlResend));
    controlRoute('/control/invoice', (body) =>
      withInvoice(store, body, (invoice) => ok(controlView(invoice))),
    );
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

    registerPaymentPages(app, { store, nowMs, expireDue, changeStatus, pagePath });
  };

  return {
    plugin,
    // Shared, the first turn reads the state.
    load: () => (turns.shared ? turns.run(() => {}) : load()),
    start() {
      if (sweepTimer) return;
      webhooks.resumePending();
      const sweep = () =>
        turns
          .run(expireDue)
          .catch((error: unknown) =>
            logger.error({ err: error }, 'payment sandbox state could not be saved'),
          );
      void sweep();
      sweepTimer = setInterval(sweep, EXPIRY_SWEEP_MS);
      sweepTimer.unref();
    },
    async stop() {
      if (sweepTimer) clearInterval(sweepTimer);
      sweepTimer = null;
      await webhooks.stop();
      await save();
    },
  };
}
