import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import type { CallBudget } from './lib/call-budget';
import type { Clock } from './lib/clock';
import { createUserEventBus, type UserEventBus } from './lib/events';
import { Loopback } from './lib/loopback';
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
import { type AuthService, createAuthService } from './modules/auth/service';
import { createSessionsRepository } from './modules/auth/sessions';
import { createTokenService, type TokenService } from './modules/auth/tokens';
import { parseMarkupOverrides } from './modules/catalog/pricing';
import { createCatalogRepository } from './modules/catalog/repository';
import { type CatalogService, createCatalogService } from './modules/catalog/service';
import { createRentalService, type RentalService } from './modules/rentals/service';
import { smsWebhookPath } from './modules/upstream/routes';
import { createUsersRepository } from './modules/users/repository';
import { createCryptomusProvider } from './providers/payments/cryptomus/provider';
import { createPaymentSandbox } from './providers/payments/sandbox/sandbox';
import type { PaymentProvider } from './providers/payments/types';
import { createSimulator, type Simulator } from './providers/sms/simulator';
import { createSimStateStore } from './providers/sms/simulator/state-store';
import { createSmsActivateProvider } from './providers/sms/sms-activate';
import type { SmsProvider } from './providers/sms/types';

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
  captcha: CaptchaVerifier;
  /** Present when ALTCHA is the captcha provider (the default). */
  altcha?: AltchaCaptcha;
  auth: AuthService;
  /** The account page: password and e-mail changes, resets, two-factor, sessions, preferences. */
  account: AccountService;
  events: UserEventBus;
  sms: SmsProvider;
  /** The built-in SMS-Activate simulator, when it is the configured upstream. */
  simulator?: Simulator;
  payments: PaymentProvider;
  /** The built-in Cryptomus sandbox, when it is the configured payment provider. */
  paymentSandbox?: PaymentSandbox;
  /** Upstream calls the background sync may make per minute, shared by every sync job. */
  upstreamBudget: CallBudget;
  catalog: CatalogService;
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

/** The built-in supplier's name in the simulator's tables (it speaks the SMS-Activate protocol). */
export const SIMULATOR_INSTANCE = 'sim-a';

function createSmsUpstream(
  config: Config,
  database: DatabaseHandle,
  loopback: Loopback,
  clock: Clock,
  log: FastifyBaseLogger,
) {
  const simulator = config.simulatorEnabled
    ? createSimulator({
        apiKey: config.SMS_PROVIDER_KEY,
        seed: config.SIMULATOR_SEED,
        smsDelayMinMs: config.SIMULATOR_SMS_DELAY_MIN_MS,
        smsDelayMaxMs: config.SIMULATOR_SMS_DELAY_MAX_MS,
        noSmsRate: config.SIMULATOR_NO_SMS_RATE,
        earlyCancelMs: config.SIMULATOR_EARLY_CANCEL_MS,
        store: createSimStateStore(database.db, SIMULATOR_INSTANCE),
        clock,
        // Like an account-wide webhook set in a provider's dashboard: pointed at our own endpoint.
        activationWebhookUrl: () => `${loopback.origin}${smsWebhookPath(config.SMS_WEBHOOK_SECRET)}`,
        logger: log,
      })
    : undefined;
  const sms = createSmsActivateProvider({
    name: config.SMS_PROVIDER,
    baseUrl: simulator
      ? () => `${loopback.origin}/simulator/stubs/handler_api.php`
      : config.SMS_PROVIDER_URL!,
    apiKey: config.SMS_PROVIDER_KEY,
    timeoutMs: config.SMS_PROVIDER_TIMEOUT_MS,
    logger: log,
  });
  return { sms, simulator };
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
  const users = createUsersRepository(db);
  const sessions = createSessionsRepository(db);
  const secondFactor = createSecondFactorCheck(database, clock);
  const auth = createAuthService({ users, sessions, tokens, captcha, clock, events, secondFactor });
  const account = createAccountService({
    database,
    users,
    sessions,
    auth,
    secondFactor,
    captcha,
    clock,
    appName: config.APP_NAME,
    publicUrl: config.PUBLIC_URL,
  });
  const { sms, simulator } = createSmsUpstream(config, database, loopback, clock, log);
  const { payments, paymentSandbox } = createPayments(config, database, loopback, clock, log);
  // One-time numbers and rents are priced by the same rules.
  const pricing = {
    markup: {
      defaultPercent: config.PRICE_MARKUP_PERCENT,
      overrides: parseMarkupOverrides(config.PRICE_MARKUP_OVERRIDES),
    },
    usdRate: config.SMS_PROVIDER_USD_RATE,
  };
  const catalog = createCatalogService({
    provider: sms,
    repository: createCatalogRepository(db),
    ...pricing,
    clock,
    log,
  });
  const activations = createActivationService({ db, provider: sms, catalog, events, clock, log });
  const rentals = createRentalService({
    db,
    provider: sms,
    pricing,
    events,
    clock,
    log,
    // Each rent's SMS are pushed here: to ourselves when the simulator is the upstream, else to the public URL.
    webhookUrl: () =>
      `${simulator ? loopback.origin : config.PUBLIC_URL}${smsWebhookPath(config.SMS_WEBHOOK_SECRET)}`,
  });
  return {
    config,
    database,
    clock,
    log,
    loopback,
    tokens,
    captcha,
    altcha,
    auth,
    account,
    events,
    sms,
    simulator,
    payments,
    paymentSandbox,
    upstreamBudget: createUpstreamBudget(config.UPSTREAM_SYNC_BUDGET_PER_MINUTE, clock),
    catalog,
    activations,
    rentals,
    apiKeys: createApiKeyService({
      db,
      clock,
      events,
      allowPrivateCallbacks: config.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    }),
  };
}
