import { createPaymentSandbox, createSimulator, type Simulator } from '@simcode/stand-ins';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config';
import type { DatabaseHandle } from '../db/client';
import { createUserEventBus } from '../db/user-events';
import type { CallBudget } from '../lib/call-budget';
import type { Clock } from '../lib/clock';
import { Loopback } from '../lib/loopback';
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
import { createOrderHistory } from '../modules/orders/history';
import { createRentCatalog } from '../modules/orders/rents/catalog';
import type { RentDeps } from '../modules/orders/rents/deps';
import { createRentalsRepository } from '../modules/orders/rents/repository';
import { createRentalService } from '../modules/orders/rents/service';
import { createTopupService } from '../modules/payments/service';
import { createTicketsRepository } from '../modules/tickets/repository';
import { createTicketsService } from '../modules/tickets/service';
import { createUsersRepository } from '../modules/users/repository';
import { createCryptomusProvider } from '../providers/payments/cryptomus/provider';
import { createFiveSimProvider, FIVESIM_DEFAULT_URL } from '../providers/sms/fivesim';
import { ProviderHealth } from '../providers/sms/health';
import { type PoolMember, ProviderPool } from '../providers/sms/pool';
import { parseRoutingPins } from '../providers/sms/routing';
import { createSmsActivateProvider } from '../providers/sms/sms-activate';
import { smsWebhookPath } from '../providers/sms/webhook-path';
import { createSandboxStore, createSimStateStore } from '../providers/stand-in-stores';

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
) {
  const simulators: MountedSimulator[] = [];
  const members: PoolMember[] = config.smsProviders.map((settings) => {
    // A simulator is served by this process and reached over HTTP like the real kind it imitates.
    let protocol: 'smsactivate' | 'fivesim' = settings.kind === 'fivesim' ? 'fivesim' : 'smsactivate';
    let baseUrl: string | (() => string) =
      settings.url ?? (settings.kind === 'fivesim' ? FIVESIM_DEFAULT_URL : '');
    if (settings.kind === 'simulator') {
      protocol = settings.protocol ?? 'smsactivate';
      const prefix = simulators.length === 0 ? '/simulator' : `/simulator/${settings.name}`;
      simulators.push({
        name: settings.name,
        prefix,
        simulator: createSimulator({
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
        }),
      });
      baseUrl =
        protocol === 'fivesim'
          ? () => `${loopback.origin}${prefix}/v1`
          : () => `${loopback.origin}${prefix}/stubs/handler_api.php`;
    }
    const common = { name: settings.name, kind: settings.kind, usdRate: settings.usdRate };
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
    });
    return { ...common, provider, rents: provider };
  });
  const pool = new ProviderPool(
    members,
    new ProviderHealth({
      clock,
      failuresToCool: config.SMS_PROVIDER_FAILURES_TO_COOL,
      cooldownMs: config.SMS_PROVIDER_COOLDOWN_MS,
    }),
    parseRoutingPins(
      config.SMS_ROUTING_PINS,
      members.map((member) => member.name),
    ),
  );
  return { pool, simulators };
}

function createPayments(
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
) {
  const paymentSandbox = config.sandboxEnabled
    ? createPaymentSandbox({
        merchantId: config.CRYPTOMUS_MERCHANT_ID,
        apiKey: config.CRYPTOMUS_API_KEY,
        publicUrl: () => config.PUBLIC_URL,
        store: createSandboxStore(database.db),
        clock,
        logger: log,
      })
    : undefined;
  const payments = createCryptomusProvider({
    baseUrl: paymentSandbox
      ? () => `${loopback.origin}/sandbox/cryptomus`
      : (config.CRYPTOMUS_BASE_URL ?? 'https://api.cryptomus.com'),
    merchantId: config.CRYPTOMUS_MERCHANT_ID,
    apiKey: config.CRYPTOMUS_API_KEY,
    timeoutMs: 10_000,
    webhookIps: config.CRYPTOMUS_WEBHOOK_IPS.split(',')
      .map((ip) => ip.trim())
      .filter(Boolean),
  });
  return { payments, paymentSandbox };
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
    appName: config.APP_NAME,
    publicUrl: config.PUBLIC_URL,
  });
  const { pool, simulators } = createSmsUpstreams(config, database, loopback, clock, log);
  if (pool.rentMembers().length === 0) throw new Error('no SMS provider in SMS_PROVIDERS rents numbers');
  // One budget per provider: each provider's limits are its own, and one slow provider must not starve another's sync.
  const upstreamBudgets: ReadonlyMap<string, CallBudget> = new Map(
    pool.names.map((name) => [name, createUpstreamBudget(config.UPSTREAM_SYNC_BUDGET_PER_MINUTE, clock)]),
  );
  const { payments, paymentSandbox } = createPayments(config, database, loopback, clock, log);
  const topups = createTopupService({ config, database, payments, events, clock, log });
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
  };
  return {
    config,
    database,
    clock,
    log,
    loopback,
    events,
    captcha,
    /** Present when ALTCHA is the captcha provider (the default). */
    altcha,
    tokens,
    /** Seals the secrets the server reads back (two-factor, customer webhooks) with DATA_ENCRYPTION_KEY. */
    secretBox,
    /** The one way a user's credentials are revoked (sessions, mailed links, challenges, API keys). */
    revocation,
    auth,
    account,
    /** The SMS suppliers by name, with their health record and routing settings. */
    providers: pool,
    /** Upstream calls the background syncs may make per minute at each provider. */
    upstreamBudgets,
    /** The built-in simulated suppliers in the pool, each mounted on this server. */
    simulators,
    payments,
    /** The built-in Cryptomus sandbox, when it is the configured payment provider. */
    paymentSandbox,
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
  };
}
