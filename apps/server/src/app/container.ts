import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  createNowPaymentsSandbox,
  createPaymentSandbox,
  createSimulator,
  createTelegramStandIn,
  type Simulator,
} from '@simcode/stand-ins';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import { createUserEventBus } from '../db/user-events';
import type { CallBudget } from '../lib/call-budget';
import type { Clock } from '../lib/clock';
import { Loopback } from '../lib/loopback';
import { createMetrics, type Metrics } from '../lib/metrics';
import { createRateLimitCounters } from '../lib/rate-limit-store';
import type { RunningJobs } from '../lib/scheduler';
import { createSecretBox, parseSecretBoxKey } from '../lib/secret-box';
import { createAccountService, createSecondFactorCheck } from '../modules/account/service';
import { createMoneyService } from '../modules/accounts/money-service';
import { createAdminOrdersService } from '../modules/admin/orders/service';
import { createAdminOverviewService } from '../modules/admin/overview/service';
import { createAdminPaymentsService } from '../modules/admin/payments/service';
import { createAdminPricingService } from '../modules/admin/pricing/service';
import { createAdminProvidersService } from '../modules/admin/providers/service';
import { createAdminRentsService } from '../modules/admin/rents/service';
import { createAdminUsersService } from '../modules/admin/users/service';
import { createAlertsService } from '../modules/alerts/service';
import { createApiKeyService } from '../modules/api-keys/service';
import { WaitSlots } from '../modules/api-keys/wait-slots';
import { createAltchaCaptcha } from '../modules/auth/captcha/altcha';
import { createSiteverifyCaptcha } from '../modules/auth/captcha/siteverify';
import { createCredentialRevocation } from '../modules/auth/revocation';
import { createAuthService } from '../modules/auth/service';
import { createSessionsRepository } from '../modules/auth/sessions';
import { createTokenService } from '../modules/auth/tokens';
import { parseMarkupOverrides } from '../modules/catalog/pricing';
import { PricingRulesStore } from '../modules/catalog/pricing-rules';
import { createCatalogRepository } from '../modules/catalog/repository';
import { createCatalogService } from '../modules/catalog/service';
import { createFavouritesService } from '../modules/favourites/service';
import type { ActivationDeps } from '../modules/orders/activations/deps';
import { createActivationsRepository } from '../modules/orders/activations/repository';
import { createActivationService } from '../modules/orders/activations/service';
import { createUpstreamBudget } from '../modules/orders/budget';
import { customerRefs } from '../modules/orders/customer-ref';
import { createOrderHistory } from '../modules/orders/history';
import { createRentCatalog } from '../modules/orders/rents/catalog';
import type { RentDeps } from '../modules/orders/rents/deps';
import { createRentalsRepository } from '../modules/orders/rents/repository';
import { createRentalService } from '../modules/orders/rents/service';
import { createPaymentHealth } from '../modules/payments/health';
import { createTopupService } from '../modules/payments/service';
import { createReconciliationService } from '../modules/reconciliation/service';
import { createDeliveryIndex } from '../modules/stats/delivery-index';
import { statusComponents } from '../modules/status/components';
import { createStatusService } from '../modules/status/service';
import { createTicketsRepository } from '../modules/tickets/repository';
import { createTicketsService } from '../modules/tickets/service';
import { createUsersRepository } from '../modules/users/repository';
import { webDistDir } from '../modules/web/plugin';
import { createCryptomusProvider } from '../providers/payments/cryptomus/provider';
import { createNowPaymentsProvider } from '../providers/payments/nowpayments/provider';
import type { PaymentProvider } from '../providers/payments/types';
import { createFiveSimProvider, FIVESIM_DEFAULT_URL } from '../providers/sms/fivesim';
import { ProviderHealth } from '../providers/sms/health';
import { type PoolMember, ProviderPool } from '../providers/sms/pool';
import { parseRoutingPins } from '../providers/sms/routing';
import { createSmsActivateProvider } from '../providers/sms/sms-activate';
import { smsWebhookPath } from '../providers/sms/webhook-path';
import {
  createSandboxStore,
  createSandboxWalletStore,
  createSimStateStore,
} from '../providers/stand-in-stores';

/** Long waits for codes and event streams one API key may hold open at once, over MCP and the JSON API. */
const WAITS_PER_KEY = 20;

/**
 * The composition root: every service of the process, built once, over one database, clock and logger.
 * Nothing under modules/ imports it: build-app.ts hands each route plugin the few services it uses, and
 * jobs.ts each job. Tests build the same graph against their own database and clock.
 */
export type Container = Awaited<ReturnType<typeof createContainer>>;

function createCaptcha(config: Config, database: DatabaseHandle, clock: Clock) {
  if (config.CAPTCHA_PROVIDER === 'altcha') {
    const altcha = createAltchaCaptcha({
      hmacKey: config.ALTCHA_HMAC_KEY,
      cost: config.ALTCHA_COST,
      maxCounter: config.ALTCHA_MAX_COUNTER,
      db: database.db,
      clock,
    });
    return { altcha, captcha: altcha.verifier };
  }
  return {
    altcha: undefined,
    captcha: createSiteverifyCaptcha(config.CAPTCHA_PROVIDER, config.CAPTCHA_SECRET_KEY!),
  };
}

/** The SMS-Activate family's no-cancel window after a purchase (EARLY_CANCEL_DENIED before it). */
const SMS_ACTIVATE_EARLY_CANCEL_MS = 120_000;

/**
 * A supplier's no-cancel window after a purchase: the SMS-Activate family documents two minutes (Hero's
 * `minActivationTime` of 120 s); 5sim names none, its answer says. The built-in simulator applies the window
 * it is set to now, which its control API changes.
 */
function earlyCancelWindow(protocol: 'smsactivate' | 'fivesim', simulator: Simulator | undefined) {
  if (simulator) return () => simulator.earlyCancelMs();
  return protocol === 'smsactivate' ? () => SMS_ACTIVATE_EARLY_CANCEL_MS : () => 0;
}

/** A built-in simulated supplier and where this server serves it. */
export interface MountedSimulator {
  name: string;
  /** `/simulator` for the first one (where it always was), `/simulator/<name>` for the others. */
  prefix: string;
  simulator: Simulator;
}

function createSmsUpstreams(
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
  metrics: Metrics,
) {
  const simulators: MountedSimulator[] = [];
  const members: PoolMember[] = config.smsProviders.map((settings) => {
    // A simulator is served by this process and reached over HTTP like the real kind it imitates.
    let protocol: 'smsactivate' | 'fivesim' = settings.kind === 'fivesim' ? 'fivesim' : 'smsactivate';
    let baseUrl: string | (() => string) =
      settings.url ?? (settings.kind === 'fivesim' ? FIVESIM_DEFAULT_URL : '');
    let simulator: Simulator | undefined;
    if (settings.kind === 'simulator') {
      protocol = settings.protocol ?? 'smsactivate';
      const prefix = simulators.length === 0 ? '/simulator' : `/simulator/${settings.name}`;
      simulator = createSimulator({
        apiKey: settings.key!,
        protocol,
        seed: settings.seed,
        smsDelayMinMs: config.SIMULATOR_SMS_DELAY_MIN_MS,
        smsDelayMaxMs: config.SIMULATOR_SMS_DELAY_MAX_MS,
        noSmsRate: settings.noSmsRate ?? config.SIMULATOR_NO_SMS_RATE,
        earlyCancelMs: config.SIMULATOR_EARLY_CANCEL_MS,
        errorStyle: settings.errorStyle,
        // The single simulator of before the pool kept its state as `sim-a`.
        store: createSimStateStore(database.db, settings.name === 'simulator' ? 'sim-a' : settings.name),
        clock,
        // Like an account-wide webhook set in a provider's dashboard: pointed at our own endpoint. 5sim
        // pushes nothing: its orders are read by the sync.
        activationWebhookUrl:
          protocol === 'smsactivate'
            ? () => `${loopback.origin}${smsWebhookPath(config.SMS_WEBHOOK_SECRET, settings.name)}`
            : undefined,
        logger: log,
      });
      simulators.push({ name: settings.name, prefix, simulator });
      baseUrl =
        protocol === 'fivesim'
          ? () => `${loopback.origin}${prefix}/v1`
          : () => `${loopback.origin}${prefix}/stubs/handler_api.php`;
    }
    const common = {
      name: settings.name,
      kind: settings.kind,
      usdRate: settings.usdRate,
      earlyCancelMs: earlyCancelWindow(protocol, simulator),
    };
    if (protocol === 'fivesim') {
      const provider = createFiveSimProvider({
        name: settings.name,
        baseUrl,
        token: settings.key!,
        timeoutMs: settings.timeoutMs,
        logger: log,
      });
      // 5sim sells rents as fixed products of its own: not the rent this product offers.
      return { ...common, provider };
    }
    const provider = createSmsActivateProvider({
      name: settings.name,
      baseUrl,
      apiKey: settings.key!,
      timeoutMs: settings.timeoutMs,
      timeZone: settings.timeZone,
      idMap: settings.idMap,
      logger: log,
      sendsResellerUserId: settings.resellerUserId,
    });
    return { ...common, provider, rents: provider };
  });
  const pool = new ProviderPool(
    members,
    new ProviderHealth({
      clock,
      failuresToCool: config.SMS_PROVIDER_FAILURES_TO_COOL,
      cooldownMs: config.SMS_PROVIDER_COOLDOWN_MS,
      onCall: (provider, outcome, latencyMs) => {
        metrics.upstreamCalls.inc({ provider, outcome });
        metrics.upstreamDuration.observe({ provider }, latencyMs / 1000);
      },
    }),
    parseRoutingPins(
      config.SMS_ROUTING_PINS,
      members.map((member) => member.name),
    ),
  );
  return { pool, simulators };
}

/**
 * The payment pool: one adapter per provider of PAYMENT_PROVIDERS, in order. In the sandbox every
 * Cryptomus-kind provider talks to the built-in Cryptomus sandbox and NOWPayments to its own, all through
 * the same adapters as the real processors.
 */
function createPayments(
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
) {
  const sandboxed = (kind: string) =>
    config.sandboxEnabled && config.paymentProviders.some((provider) => provider.kind === kind);
  const cryptomusSettings = config.paymentProviders.find((provider) => provider.kind === 'cryptomus');
  const paymentSandbox =
    sandboxed('cryptomus') && cryptomusSettings?.kind === 'cryptomus'
      ? createPaymentSandbox({
          merchantId: cryptomusSettings.merchantId,
          apiKey: cryptomusSettings.apiKey,
          publicUrl: () => config.PUBLIC_URL,
          store: createSandboxStore(database.db),
          walletStore: createSandboxWalletStore(database.db),
          clock,
          logger: log,
        })
      : undefined;
  const nowPaymentsSettings = config.paymentProviders.find((provider) => provider.kind === 'nowpayments');
  const nowPaymentsSandbox =
    sandboxed('nowpayments') && nowPaymentsSettings?.kind === 'nowpayments'
      ? createNowPaymentsSandbox({
          apiKey: nowPaymentsSettings.apiKey,
          ipnSecret: nowPaymentsSettings.ipnSecret,
          email: nowPaymentsSettings.email,
          password: nowPaymentsSettings.password,
          publicUrl: () => config.PUBLIC_URL,
          clock,
          logger: log,
        })
      : undefined;
  const paymentProviders: PaymentProvider[] = config.paymentProviders.map((settings) =>
    settings.kind === 'nowpayments'
      ? createNowPaymentsProvider({
          name: settings.name,
          baseUrl: settings.baseUrl ?? (() => `${loopback.origin}${NOWPAYMENTS_SANDBOX_PREFIX}`),
          apiKey: settings.apiKey,
          ipnSecret: settings.ipnSecret,
          email: settings.email,
          password: settings.password,
          timeoutMs: 10_000,
          clock,
        })
      : createCryptomusProvider({
          name: settings.name,
          baseUrl: settings.baseUrl ?? (() => `${loopback.origin}/sandbox/cryptomus`),
          merchantId: settings.merchantId,
          apiKey: settings.apiKey,
          timeoutMs: 10_000,
          webhookIps: settings.webhookIps,
        }),
  );
  return { paymentProviders, paymentSandbox, nowPaymentsSandbox };
}

/** Where the built-in Telegram Bot API stand-in is mounted: the default base URL of Telegram alert channels. */
export const TELEGRAM_STAND_IN_PREFIX = '/stand-ins/telegram';

/** Where the built-in NOWPayments sandbox is mounted. */
export const NOWPAYMENTS_SANDBOX_PREFIX = '/sandbox/nowpayments';

export async function createContainer(
  config: Config,
  database: DatabaseHandle,
  clock: Clock,
  log: FastifyBaseLogger,
) {
  const { db } = database;
  const loopback = new Loopback();
  const tokens = createTokenService(config.JWT_SECRET);
  const { altcha, captcha } = createCaptcha(config, database, clock);
  const events = await createUserEventBus(database, log);
  const secretBox = createSecretBox(parseSecretBoxKey(config.DATA_ENCRYPTION_KEY)!);
  const revocation = createCredentialRevocation({ db, events, clock });
  const users = createUsersRepository(db);
  const sessions = createSessionsRepository(db);
  const secondFactor = createSecondFactorCheck(database, clock, secretBox);
  const auth = createAuthService({
    database,
    revocation,
    users,
    sessions,
    tokens,
    captcha,
    clock,
    events,
    secondFactor,
  });
  const account = createAccountService({
    database,
    revocation,
    secretBox,
    log,
    users,
    sessions,
    auth,
    secondFactor,
    captcha,
    clock,
    appName: config.APP_NAME,
    publicUrl: config.PUBLIC_URL,
  });
  const metrics = createMetrics({ served: Boolean(config.METRICS_TOKEN || config.METRICS_PORT) });
  const { pool, simulators } = createSmsUpstreams(config, database, loopback, clock, log, metrics);
  if (pool.rentMembers().length === 0) throw new Error('no SMS provider in SMS_PROVIDERS rents numbers');
  // One budget per provider: each provider's limits are its own, and one slow provider must not starve another's sync.
  const upstreamBudgets: ReadonlyMap<string, CallBudget> = new Map(
    pool.names.map((name) => [name, createUpstreamBudget(config.UPSTREAM_SYNC_BUDGET_PER_MINUTE, clock)]),
  );
  const { paymentProviders, paymentSandbox, nowPaymentsSandbox } = createPayments(
    config,
    database,
    loopback,
    clock,
    log,
  );
  const paymentHealth = createPaymentHealth(clock, log);
  const topups = createTopupService({
    config,
    database,
    paymentProviders,
    paymentHealth,
    events,
    clock,
    log,
  });
  // One-time numbers and rents are priced by the same rules.
  const pricing = new PricingRulesStore({
    defaultPercent: config.PRICE_MARKUP_PERCENT,
    overrides: parseMarkupOverrides(config.PRICE_MARKUP_OVERRIDES),
  });
  const catalog = createCatalogService({
    providers: pool,
    repository: createCatalogRepository(db),
    pricing,
    clock,
    log,
  });
  const history = createOrderHistory(db);
  const alerts = createAlertsService({
    db,
    clock,
    log,
    secretBox,
    providers: pool,
    upstreamBudgets,
    paymentProviders: () =>
      paymentProviders.map((provider) => ({ name: provider.name, ...paymentHealth.view(provider.name) })),
    // The status page is built below; the alerts read its delivery band only once the jobs run.
    deliveryOutOfBand: () => status.deliveryOutOfBand(),
    // The reconciliation is built with the console below; the alerts read it only once the jobs run.
    reconciledDays: async (range) => (await admin.reconciliation.report(range)).days,
  });
  const orders = {
    activations: {
      db,
      providers: pool,
      catalog,
      events,
      clock,
      log,
      history,
      repository: createActivationsRepository(db),
      refunds: metrics.refunds,
      customerRef: customerRefs(config.DATA_ENCRYPTION_KEY),
      buyers: alerts.buyers,
    } satisfies ActivationDeps,
    rents: {
      db,
      providers: pool,
      catalog: createRentCatalog({ providers: pool, pricing, clock, log }),
      events,
      clock,
      log,
      history,
      repository: createRentalsRepository(db),
      // Each rent's SMS are pushed here: to ourselves when a simulator is the upstream, else to the public URL.
      webhookUrl: (provider: string) =>
        `${pool.member(provider).kind === 'simulator' ? loopback.origin : config.PUBLIC_URL}${smsWebhookPath(config.SMS_WEBHOOK_SECRET, provider)}`,
      refunds: metrics.refunds,
      buyers: alerts.buyers,
    } satisfies RentDeps,
  };
  const tickets = createTicketsService({ db, clock, events });
  const activations = createActivationService(orders.activations, createTicketsRepository(db));
  const rentals = createRentalService(orders.rents);
  const apiKeys = createApiKeyService({
    db,
    clock,
    events,
    secretBox,
    allowPrivateCallbacks: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  });
  const consoleDeps = { db, events, clock };
  const admin = {
    overview: createAdminOverviewService({ ...consoleDeps, providers: pool }),
    users: createAdminUsersService(consoleDeps),
    orders: createAdminOrdersService({ ...consoleDeps, activations, providers: pool }),
    rents: createAdminRentsService({ ...consoleDeps, rentals }),
    payments: createAdminPaymentsService({ ...consoleDeps, topups }),
    providers: createAdminProvidersService({ ...consoleDeps, providers: pool, catalog }),
    pricing: createAdminPricingService({ ...consoleDeps, pricing, catalog, providers: pool }),
    reconciliation: createReconciliationService({
      db,
      clock,
      log,
      providers: pool,
      upstreamBudgets,
      history,
    }),
  };
  const status = createStatusService({
    db,
    clock,
    log,
    components: statusComponents(
      pool.names,
      config.STATUS_SUPPLIER_NAMES,
      existsSync(path.join(webDistDir(config), 'index.html')),
    ),
    origin: () => loopback.origin,
    publicUrl: config.PUBLIC_URL,
    providers: pool,
    upstreamBudgets,
    paymentProviders,
    paymentHealth,
    openAfterMinutes: config.STATUS_OPEN_AFTER_MINUTES,
    closeAfterMinutes: config.STATUS_CLOSE_AFTER_MINUTES,
  });
  return {
    config,
    database,
    clock,
    log,
    loopback,
    /** Prometheus metrics, served at /metrics with METRICS_TOKEN or on METRICS_PORT. */
    metrics,
    /** `draining` from SIGTERM on (readiness 503, connections closed); `jobs` once the scheduler runs. */
    lifecycle: { draining: false, jobs: undefined as RunningJobs | undefined },
    /** Where the rate limiters count: Redis when set and reachable, this process otherwise. */
    rateLimitCounters: createRateLimitCounters({
      redisUrl: config.REDIS_URL,
      keyPrefix: config.REDIS_PREFIX,
      log,
    }),
    events,
    /** Present when ALTCHA is the captcha provider (the default). */
    altcha,
    /** Seals the secrets the server reads back (two-factor, customer webhooks) with DATA_ENCRYPTION_KEY. */
    secretBox,
    auth,
    account,
    /** The SMS suppliers by name, with their health record and routing settings. */
    providers: pool,
    /** Upstream calls the background syncs may make per minute at each provider. */
    upstreamBudgets,
    /** The built-in simulated suppliers in the pool, each mounted on this server. */
    simulators,
    /** The built-in Cryptomus sandbox, when a Cryptomus-kind provider runs in the sandbox. */
    paymentSandbox,
    /** The built-in NOWPayments sandbox, when NOWPayments runs in the sandbox. */
    nowPaymentsSandbox,
    topups,
    /** The markup rules in force: the console's once saved, else the environment's. */
    pricing,
    catalog,
    /** What the order operations and their background syncs share. */
    orders,
    activations,
    rentals,
    money: createMoneyService(db, clock),
    favourites: createFavouritesService(db, clock),
    tickets,
    /** Reseller API keys: their check on every API call, caps and settings. */
    apiKeys,
    /** What each API key holds open: waits for codes and event streams. */
    waits: new WaitSlots(WAITS_PER_KEY),
    admin,
    /** Operator alerts: supplier balances, their sources and channels, and abusive-buyer isolation. */
    alerts,
    /** The built-in Telegram Bot API stand-in: where Telegram alert channels send unless they name a base URL. */
    telegram: createTelegramStandIn({ clock }),
    /** The public SMS Delivery Index: frozen days plus today's orders, cached per window. */
    deliveryIndex: createDeliveryIndex({ db, clock }),
    /** The status page: synthetic checks, incidents and their notices. */
    status,
  };
}
