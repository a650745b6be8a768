import path from 'node:path';
import { type Environment, environmentSchema } from './env';
import { type PaymentProviderSettings, paymentProviderSettings, readPaymentProviderNames } from './payments';
import { type ProviderSettings, readProviderPool } from './providers';
import { DEMO_SECRETS, REQUIRED_SECRETS, readOrCreateSecrets } from './secrets';

export { booleanFromString, type Environment, environmentSchema } from './env';
export type { PaymentProviderSettings } from './payments';
export {
  type ProviderKind,
  type ProviderSettings,
  providerEnvironmentSchema,
  providerEnvPrefix,
  providerKinds,
} from './providers';

export interface Config
  extends Omit<
    Environment,
    | 'HOST'
    | 'PUBLIC_URL'
    | 'REDIS_PREFIX'
    | 'JWT_SECRET'
    | 'DATA_ENCRYPTION_KEY'
    | 'ALTCHA_HMAC_KEY'
    | 'SMS_WEBHOOK_SECRET'
    | 'SMS_PROVIDER_KEY'
    | 'CRYPTOMUS_MERCHANT_ID'
    | 'CRYPTOMUS_API_KEY'
  > {
  HOST: string;
  PUBLIC_URL: string;
  REDIS_PREFIX: string;
  JWT_SECRET: string;
  DATA_ENCRYPTION_KEY: string;
  ALTCHA_HMAC_KEY: string;
  SMS_WEBHOOK_SECRET: string;
  SMS_PROVIDER_KEY: string;
  CRYPTOMUS_MERCHANT_ID: string;
  CRYPTOMUS_API_KEY: string;
  isProduction: boolean;
  /** The SMS supplier pool in priority order, from SMS_PROVIDERS or the single-provider settings. */
  smsProviders: ProviderSettings[];
  /** True when a built-in SMS simulator is in the pool (mounted under /simulator). */
  simulatorEnabled: boolean;
  /** True when the built-in payment sandboxes are mounted at /sandbox (Cryptomus) and /sandbox/nowpayments. */
  sandboxEnabled: boolean;
  /** The payment pool in order of preference, with each provider's settings. */
  paymentProviders: PaymentProviderSettings[];
  /** Where the outbox transport writes messages. */
  mailOutboxDir: string;
  /** True when /dev/outbox lists the outbox (the outbox transport, outside production). */
  devOutboxEnabled: boolean;
  /** Settings that work but are probably not what a production operator wants: said loudly at start. */
  warnings: string[];
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** `simcode:shop.example.com:` for https://shop.example.com: staging and production keep apart by default. */
function defaultRedisPrefix(publicUrl: string): string {
  return `simcode:${new URL(publicUrl).host}:`;
}

/**
 * Reads and validates the environment. Empty strings count as unset, so `FOO=` in a .env file means default.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  );
  const parsed = environmentSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`),
    );
  }
  const values = parsed.data;
  const isProduction = values.NODE_ENV === 'production';
  const problems: string[] = [];

  const missingSecrets = REQUIRED_SECRETS.filter((name) => !values[name]);
  if (isProduction && missingSecrets.length > 0) {
    for (const name of missingSecrets) problems.push(`${name}: is required in production`);
  }
  if (values.CAPTCHA_PROVIDER !== 'altcha' && (!values.CAPTCHA_SITE_KEY || !values.CAPTCHA_SECRET_KEY)) {
    problems.push(
      `CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY: are required when CAPTCHA_PROVIDER is ${values.CAPTCHA_PROVIDER}`,
    );
  }
  const smsProviders = readProviderPool(values, cleaned as Record<string, string>, problems);
  const simulatorEnabled = smsProviders.some((provider) => provider.kind === 'simulator');
  if (simulatorEnabled && isProduction && !values.SIMULATOR_ALLOW_IN_PRODUCTION) {
    problems.push(
      'SMS_PROVIDER / SMS_PROVIDERS: a simulator is a supplier in production; choose real providers or set SIMULATOR_ALLOW_IN_PRODUCTION=true',
    );
  }
  if (values.SMS_PROVIDER === 'smsactivate' && (!values.SMS_PROVIDER_URL || !values.SMS_PROVIDER_KEY)) {
    problems.push('SMS_PROVIDER_URL and SMS_PROVIDER_KEY: are required when SMS_PROVIDER is smsactivate');
  }
  if (values.MAIL_TRANSPORT === 'smtp' && !values.SMTP_URL) {
    problems.push('SMTP_URL: is required when MAIL_TRANSPORT is smtp');
  }
  if (isProduction && values.MAIL_TRANSPORT === 'outbox' && !values.MAIL_OUTBOX_ALLOW_IN_PRODUCTION) {
    problems.push(
      'MAIL_TRANSPORT: is outbox in production, so no reset or receipt would ever leave; set smtp, or MAIL_OUTBOX_ALLOW_IN_PRODUCTION=true',
    );
  }
  if (isProduction && !values.PUBLIC_URL) {
    problems.push('PUBLIC_URL: is required in production (payment callbacks and mail links lead there)');
  }
  const sandboxEnabled = values.PAYMENT_PROVIDER === 'sandbox';
  if (sandboxEnabled && isProduction && !values.SANDBOX_ALLOW_IN_PRODUCTION) {
    problems.push(
      'PAYMENT_PROVIDER: is sandbox in production; choose live or set SANDBOX_ALLOW_IN_PRODUCTION=true',
    );
  }
  const paymentProviderNames = readPaymentProviderNames(values, problems);
  if (values.HTTP_HEADERS_TIMEOUT_MS > values.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push('HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  if (values.SIMULATOR_SMS_DELAY_MIN_MS > values.SIMULATOR_SMS_DELAY_MAX_MS) {
    problems.push('SIMULATOR_SMS_DELAY_MIN_MS: must not exceed SIMULATOR_SMS_DELAY_MAX_MS');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const warnings: string[] = [];
  if (isProduction && !values.DATABASE_URL) {
    warnings.push(
      'DATABASE_URL is not set: production runs on the embedded database (one process, one machine, backups by snapshot). Use PostgreSQL for anything that matters.',
    );
  }
  if (isProduction && values.TRUST_PROXY === false) {
    warnings.push(
      "TRUST_PROXY is not set: behind a reverse proxy every client has the proxy's address, and the per-address limits then throttle the whole site.",
    );
  }
  if (values.DATABASE_URL && values.BACKUP_INTERVAL_MINUTES > 0) {
    warnings.push(
      'BACKUP_INTERVAL_MINUTES is for the embedded database and does nothing on PostgreSQL: back up with pg_dump (see the README).',
    );
  }

  const dataDir = path.resolve(values.DATA_DIR);
  const secrets = readOrCreateSecrets(dataDir, [...missingSecrets, ...DEMO_SECRETS]);
  // Binding to every interface is what a production server wants; a development machine keeps the
  // simulator and the payment sandbox to itself.
  const host = values.HOST ?? (isProduction ? '0.0.0.0' : '127.0.0.1');

  const publicUrl = (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');

  return {
    ...values,
    DATA_DIR: dataDir,
    HOST: host,
    PUBLIC_URL: publicUrl,
    REDIS_PREFIX: values.REDIS_PREFIX ?? defaultRedisPrefix(publicUrl),
    JWT_SECRET: values.JWT_SECRET ?? secrets.JWT_SECRET,
    DATA_ENCRYPTION_KEY: values.DATA_ENCRYPTION_KEY ?? secrets.DATA_ENCRYPTION_KEY,
    ALTCHA_HMAC_KEY: values.ALTCHA_HMAC_KEY ?? secrets.ALTCHA_HMAC_KEY,
    SMS_WEBHOOK_SECRET: values.SMS_WEBHOOK_SECRET ?? secrets.SMS_WEBHOOK_SECRET,
    SMS_PROVIDER_KEY: values.SMS_PROVIDER_KEY ?? secrets.SIMULATOR_API_KEY,
    CRYPTOMUS_MERCHANT_ID: values.CRYPTOMUS_MERCHANT_ID ?? 'sandbox-merchant',
    CRYPTOMUS_API_KEY: values.CRYPTOMUS_API_KEY ?? secrets.SANDBOX_API_KEY,
    isProduction,
    // Simulators check the generated key when none was given.
    smsProviders: smsProviders.map((provider) => ({
      ...provider,
      key: provider.key ?? (provider.kind === 'simulator' ? secrets.SIMULATOR_API_KEY : undefined),
    })),
    simulatorEnabled,
    sandboxEnabled,
    paymentProviders: paymentProviderSettings(paymentProviderNames, values, sandboxEnabled, secrets),
    mailOutboxDir: path.join(dataDir, 'outbox'),
    devOutboxEnabled: values.MAIL_TRANSPORT === 'outbox' && !isProduction,
    warnings,
  };
}
