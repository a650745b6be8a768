import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createTelegramStandIn } from '@simcode/stand-ins';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import { createUserEventBus } from '../db/user-events';
import type { CallBudget } from '../lib/call-budget';
import type { Clock } from '../lib/clock';
import { Loopback } from '../lib/loopback';
import { createMetrics } from '../lib/metrics';
import { createRateLimitCounters } from '../lib/rate-limit-store';
import type { RunningJobs } from '../lib/scheduler';
import { createSecretBox, parseSecretBoxKey } from '../lib/secret-box';
import { createAccountService, createSecondFactorCheck } from '../modules/account/service';
import { createMoneyService } from '../modules/accounts/money-service';
import { createAdminOrdersService } from '../modules/admin/orders/service';
import { createAdminOverviewService } from '../modules/admin/overview/service';
import { createAdminPaymentsService } from '../modules/admin/payments/service';
import { createAdminPricingService } from '../modules/admin/pricing/service';
import { createHealthReports } from '../modules/admin/providers/health-reports';
import { createAdminProvidersService } from '../modules/admin/providers/service';
import { createAdminRentsService } from '../modules/admin/rents/service';
import { createAdminUsersService } from '../modules/admin/users/service';
import { createAlertsService } from '../modules/alerts/service';
import { createApiKeyService } from '../modules/api-keys/service';
import { WAITS_PER_KEY, WaitSlots } from '../modules/api-keys/wait-slots';
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
import { smsWebhookPath } from '../providers/sms/webhook-path';
import { createPayments, createSmsUpstreams } from './upstreams';

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
    events,
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
  // Each process counts its own calls to the suppliers; the console combines every instance's reports.
  const healthReports = createHealthReports({ db, providers: pool, clock, instance: randomUUID() });
  const admin = {
    overview: createAdminOverviewService({ ...consoleDeps, providers: pool }),
    users: createAdminUsersService(consoleDeps),
    orders: createAdminOrdersService({ ...consoleDeps, activations, providers: pool }),
    rents: createAdminRentsService({ ...consoleDeps, rentals }),
    payments: createAdminPaymentsService({ ...consoleDeps, topups }),
    providers: createAdminProvidersService({ ...consoleDeps, providers: pool, catalog, healthReports }),
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
    /** This instance's record of its supplier calls, published for the console of every instance. */
    healthReports,
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
