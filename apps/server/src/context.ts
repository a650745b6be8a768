import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import type { CallBudget } from './lib/call-budget';
import type { Clock } from './lib/clock';
import { createUserEventBus, type UserEventBus } from './lib/events';
import { Loopback } from './lib/loopback';
import { createSecretBox, parseSecretBoxKey, type SecretBox } from './lib/secret-box';
import {
  type AccountService,
  createAccountService,
  createSecondFactorCheck,
} from './modules/account/service';
import { type ActivationService, createActivationService } from './modules/activations/service';
import { createUpstreamBudget } from './modules/activations/sync';
import { type ApiKeyService, createApiKeyService } from './modules/api-keys/service';
import { type AltchaCaptcha, createAltchaCaptcha } from './modules/auth/captcha/altcha';
import { createSiteverifyCaptcha } from './modules/auth/captcha/siteverify';
import type { CaptchaVerifier } from './modules/auth/captcha/types';
import { type CredentialRevocation, createCredentialRevocation } from './modules/auth/revocation';
import { type AuthService, createAuthService } from './modules/auth/service';
import { createSessionsRepository } from './modules/auth/sessions';
import { createTokenService, type TokenService } from './modules/auth/tokens';
import { parseMarkupOverrides } from './modules/catalog/pricing';
import { PricingRulesStore } from './modules/catalog/pricing-rules';
import { createCatalogRepository } from './modules/catalog/repository';
import { type CatalogService, createCatalogService } from './modules/catalog/service';
import { createRentalService, type RentalService } from './modules/rentals/service';
import { smsWebhookPath } from './modules/upstream/routes';
import { createUsersRepository } from './modules/users/repository';
import { createCryptomusProvider } from './providers/payments/cryptomus/provider';
import { createPaymentSandbox } from './providers/payments/sandbox/sandbox';
import type { PaymentProvider } from './providers/payments/types';
import { createFiveSimProvider, FIVESIM_DEFAULT_URL } from './providers/sms/fivesim';
import { ProviderHealth } from './providers/sms/health';
import { type PoolMember, ProviderPool } from './providers/sms/pool';
import { parseRoutingPins } from './providers/sms/routing';
import { createSimulator, type Simulator } from './providers/sms/simulator';
import { createSimStateStore } from './providers/sms/simulator/state-store';
import { createSmsActivateProvider } from './providers/sms/sms-activate';
import type { ActivationProvider, RentProvider } from './providers/sms/types';

type PaymentSandbox = ReturnType<typeof createPaymentSandbox>;

/**
 * Everything a route or job needs, built once per process. Routes receive it as a plugin option, so
 * dependencies stay explicit and tests can build the same graph against their own database and clock.
 */
export interface AppContext {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  log: FastifyBaseLogger;
  /** This process's own HTTP origin, known once it listens (for the built-in upstreams). */
  loopback: Loopback;
  tokens: TokenService;
  /** Seals the secrets the server reads back (two-factor, customer webhooks) with DATA_ENCRYPTION_KEY. */
  secretBox: SecretBox;
  /** The one way a user's credentials are revoked (sessions, mailed links, challenges, API keys). */
  revocation: CredentialRevocation;
  captcha: CaptchaVerifier;
  /** Present when ALTCHA is the captcha provider (the default). */
  altcha?: AltchaCaptcha;
  auth: AuthService;
  /** The account page: password and e-mail changes, resets, two-factor, sessions, preferences. */
  account: AccountService;
  events: UserEventBus;
  /** The SMS suppliers by name, with their health record and routing settings. */
  providers: ProviderPool;
  /** The first provider of the pool (tests and tools that speak to one upstream). */
  sms: ActivationProvider;
  /** The first provider of the pool that rents numbers (tests and tools that speak to one upstream). */
  rents: RentProvider;
  /** The built-in simulated suppliers in the pool, each mounted on this server. */
  simulators: MountedSimulator[];
  /** The first of them, when there is one (mounted at /simulator). */
  simulator?: Simulator;
  payments: PaymentProvider;
  /** The built-in Cryptomus sandbox, when it is the configured payment provider. */
  paymentSandbox?: PaymentSandbox;
  /** Upstream calls the background sync may make per minute at each provider, shared by its sync jobs. */
  upstreamBudgets: ReadonlyMap<string, CallBudget>;
  /** The first provider's budget (that of the rentals' provider when it is the first). */
  upstreamBudget: CallBudget;
  catalog: CatalogService;
  /** The markup rules in force: the console's once saved, else the environment's. */
  pricing: PricingRulesStore;
  activations: ActivationService;
  rentals: RentalService;
  /** Reseller API keys: their check on every API call, caps and settings. */
  apiKeys: ApiKeyService;
}

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
        db: database.db,
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

export async function createContext(
  config: Config,
  database: DatabaseHandle,
  clock: Clock,
  log: FastifyBaseLogger,
): Promise<AppContext> {
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
  const rentMember = pool.rentMembers()[0];
  // One budget per provider: each provider's limits are its own, and one slow provider must not starve another's sync.
  const upstreamBudgets = new Map(
    pool.names.map((name) => [name, createUpstreamBudget(config.UPSTREAM_SYNC_BUDGET_PER_MINUTE, clock)]),
  );
  const { payments, paymentSandbox } = createPayments(config, database, loopback, clock, log);
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
  const activations = createActivationService({ db, providers: pool, catalog, events, clock, log });
  if (!rentMember) throw new Error('no SMS provider in SMS_PROVIDERS rents numbers');
  const rentals = createRentalService({
    db,
    providers: pool,
    pricing,
    events,
    clock,
    log,
    // Each rent's SMS are pushed here: to ourselves when a simulator is the upstream, else to the public URL.
    webhookUrl: (provider) =>
      `${pool.member(provider).kind === 'simulator' ? loopback.origin : config.PUBLIC_URL}${smsWebhookPath(config.SMS_WEBHOOK_SECRET, provider)}`,
  });
  return {
    config,
    database,
    clock,
    log,
    loopback,
    tokens,
    secretBox,
    revocation,
    captcha,
    altcha,
    auth,
    account,
    events,
    providers: pool,
    sms: pool.members[0]!.provider,
    rents: rentMember.rents,
    simulators,
    simulator: simulators[0]?.simulator,
    payments,
    paymentSandbox,
    upstreamBudgets,
    upstreamBudget: upstreamBudgets.get(pool.names[0]!)!,
    catalog,
    pricing,
    activations,
    rentals,
    apiKeys: createApiKeyService({
      db,
      clock,
      events,
      secretBox,
      allowPrivateCallbacks: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    }),
  };
}
