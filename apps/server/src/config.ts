import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { countryById, serviceByCode } from '@simcode/contract';
import { z } from 'zod';
import { parseSecretBoxKey } from './lib/secret-box';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535);
const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();
const optionalUrl = z.url({ error: 'must be a URL' }).optional();

/** An address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrRange(value: string): boolean {
  const [address = '', bits, ...rest] = value.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

/**
 * Which `X-Forwarded-For` entries to believe: none (`false`), the last N added by our own proxies (a hop
 * count), or those added by the listed proxy addresses. `true` is refused: it believes the leftmost entry,
 * which the client writes itself.
 */
const trustProxy = z
  .string()
  .trim()
  .transform((value, context): false | number | string[] => {
    if (['false', 'no', '0'].includes(value)) return false;
    if (/^[1-9]\d{0,1}$/.test(value)) return Number(value);
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.every(isAddressOrRange)) return entries;
    context.addIssue({
      code: 'custom',
      message:
        'must be false, a number of proxy hops (1 to 99), or a comma-separated list of proxy addresses or CIDR ranges (true is not accepted: it trusts an address the client writes)',
    });
    return z.NEVER;
  });

/**
 * Every environment variable the product reads. The README's configuration table mirrors this schema;
 * a bad value stops the start with a message that names the variable.
 */
export const environmentSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(3000),
  HOST: z.string().min(1).optional(),
  PUBLIC_URL: optionalUrl,
  APP_NAME: z.string().trim().min(1).max(40).default('SimCode'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, {
      error: 'must be a PostgreSQL URL (postgres://user:password@host/database)',
    })
    .optional(),
  JWT_SECRET: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  /**
   * The AES-256-GCM key that seals two-factor and customer webhook secrets in the database: 64 hexadecimal
   * digits or 43 base64url characters.
   */
  DATA_ENCRYPTION_KEY: z
    .string()
    .refine((value) => parseSecretBoxKey(value) !== null, {
      error: 'must be 32 bytes as 64 hexadecimal digits or 43 base64url characters',
    })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy.default(false),
  WEB_DIST_DIR: z.string().min(1).optional(),
  /** How long a client may take to send a whole request (headers and body); then 408 and the socket closes. */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(30_000),
  /** How long a client may take to send the request's headers. */
  HTTP_HEADERS_TIMEOUT_MS: positiveInt.default(10_000),
  /** How long an idle keep-alive connection stays open between requests. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.default(5_000),
  /** Open connections the server accepts in all; more are refused. */
  HTTP_MAX_CONNECTIONS: positiveInt.default(2_000),
  /** Open connections from one address (not applied behind a trusted proxy, where every one has its address). */
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: positiveInt.default(100),
  /** Live-update streams (server-sent events) one user may hold; a new one closes their oldest. */
  SSE_MAX_STREAMS_PER_USER: positiveInt.default(5),
  /** Live-update streams in all; a new one past it closes the oldest. */
  SSE_MAX_STREAMS: positiveInt.default(1_000),

  CAPTCHA_PROVIDER: z.enum(['altcha', 'recaptcha', 'hcaptcha', 'turnstile']).default('altcha'),
  CAPTCHA_SITE_KEY: z.string().min(1).optional(),
  CAPTCHA_SECRET_KEY: z.string().min(1).optional(),
  ALTCHA_HMAC_KEY: z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  /** Proof-of-work cost of an ALTCHA challenge (PBKDF2 iterations per attempt). */
  ALTCHA_COST: positiveInt.default(5000),
  /** Upper bound of the secret counter the browser must find; the work grows with it. */
  ALTCHA_MAX_COUNTER: positiveInt.default(1000),

  RATE_LIMIT_AUTH_PER_MINUTE: positiveInt.default(10),
  /** Purchases, repeats, rents and renewals a user may start in a minute. */
  RATE_LIMIT_PURCHASES_PER_MINUTE: positiveInt.default(30),
  REDIS_URL: z.string().min(1).optional(),
  /** Reseller API (handler_api.php and MCP) calls per minute for one key, and for one user's keys together. */
  RATE_LIMIT_API_KEY_PER_MINUTE: positiveInt.default(1200),
  RATE_LIMIT_API_USER_PER_MINUTE: positiveInt.default(3000),
  /** Lookups of API keys this process does not know that one address may cause in a minute. */
  RATE_LIMIT_API_KEY_LOOKUPS_PER_MINUTE: positiveInt.default(60),
  /** Let customer webhooks reach loopback and private addresses (tests, closed networks only). */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: booleanFromString.default(false),
  /** Limit of one customer webhook delivery. */
  WEBHOOK_TIMEOUT_MS: positiveInt.default(5000),

  SUPPORT_CHAT_URL: z.url({ error: 'must be a URL' }).default('https://t.me/simcode_support'),
  /** The landing page's figures: SMS delivered, satisfied users, countries, services. */
  LANDING_STATS: z
    .string()
    .regex(/^\s*\d{1,12}\s*(,\s*\d{1,12}\s*){3}$/, {
      error: 'must be four non-negative integers separated by commas',
    })
    .default('148763,24585,180,1000')
    .transform((value) => value.split(',').map(Number))
    .pipe(z.tuple([z.number(), z.number(), z.number(), z.number()])),

  // SMS upstreams (one-time activations and rents).
  /**
   * The supplier pool, by name in priority order (`hero,bower`); each takes `<NAME>_KIND`, `<NAME>_URL`,
   * `<NAME>_KEY` ... (see providerEnvironmentSchema). Unset: the single provider below, or when that is
   * unset too, the two built-in simulated suppliers `sim-a` and `sim-b`.
   */
  SMS_PROVIDERS: z
    .string()
    .trim()
    .regex(/^[a-z][a-z0-9-]{0,30}(\s*,\s*[a-z][a-z0-9-]{0,30})*$/, {
      error: 'must be provider names (lower-case letters, digits and dashes) separated by commas',
    })
    .optional(),
  /** A pool of one (the settings of installations from before the pool); SMS_PROVIDERS wins when both are set. */
  SMS_PROVIDER: z.enum(['simulator', 'smsactivate']).optional(),
  /** handler_api.php URL of an SMS-Activate-compatible provider; the simulator's own URL by default. */
  SMS_PROVIDER_URL: optionalUrl,
  SMS_PROVIDER_KEY: z.string().min(1).optional(),
  /** The provider's price currency, for display in logs; prices are converted with the rate below. */
  SMS_PROVIDER_CURRENCY: z.string().trim().min(3).max(3).default('USD'),
  /** US dollars per one unit of the provider's currency (1 for USD, about 0.011 for RUB). */
  SMS_PROVIDER_USD_RATE: z.coerce.number({ error: 'must be a number' }).positive().default(1),
  SMS_PROVIDER_TIMEOUT_MS: positiveInt.default(10_000),
  /** Secret path segment of the URL the provider pushes incoming SMS to. */
  SMS_WEBHOOK_SECRET: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /** Our margin over the upstream cost, in percent, and per service, country or pair: `tg=50,US=20,tg:US=80`. */
  PRICE_MARKUP_PERCENT: z.coerce.number({ error: 'must be a number' }).min(0).max(1000).default(30),
  PRICE_MARKUP_OVERRIDES: z.string().default(''),
  CATALOG_REFRESH_MS: positiveInt.default(60_000),
  /** Most upstream calls the background sync may make in a minute at each provider, whatever the number of orders. */
  UPSTREAM_SYNC_BUDGET_PER_MINUTE: positiveInt.default(20),
  /** Failed calls in a row (errors, timeouts; not "no numbers") that take a provider out of routing. */
  SMS_PROVIDER_FAILURES_TO_COOL: positiveInt.default(3),
  /** How long a failing provider stays out of routing before a purchase probes it again. */
  SMS_PROVIDER_COOLDOWN_MS: positiveInt.default(60_000),
  /** Pins that override the routing score: `tg=hero,US=bower,tg:US=hero` (the most specific wins). */
  SMS_ROUTING_PINS: z.string().default(''),
  SIMULATOR_ALLOW_IN_PRODUCTION: booleanFromString.default(false),
  SIMULATOR_SEED: z.coerce.number({ error: 'must be a number' }).int().optional(),
  SIMULATOR_SMS_DELAY_MIN_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(5000),
  SIMULATOR_SMS_DELAY_MAX_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(40_000),
  /** Share of simulated activations that never receive an SMS (so automatic refunds happen). */
  SIMULATOR_NO_SMS_RATE: z.coerce.number({ error: 'must be a number' }).min(0).max(1).default(0.15),
  /** How long after purchase the simulator refuses a cancel, like real providers (2 minutes). */
  SIMULATOR_EARLY_CANCEL_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).default(120_000),

  // Mail (password reset, e-mail change, receipts, code alerts).
  /** `outbox` writes each message as an .eml file under DATA_DIR/outbox (listed at /dev/outbox outside production). */
  MAIL_TRANSPORT: z.enum(['outbox', 'smtp']).default('outbox'),
  /** smtp://user:pass@host:587 or smtps://…:465; read by nodemailer. */
  SMTP_URL: z.url({ error: 'must be a URL' }).optional(),
  MAIL_FROM: z.string().trim().min(3).max(200).default('SimCode <no-reply@simcode.local>'),
  /** Allow the outbox transport with NODE_ENV=production (a demo whose mail nobody reads). */
  MAIL_OUTBOX_ALLOW_IN_PRODUCTION: booleanFromString.default(false),

  // Payments (balance top-ups).
  PAYMENT_PROVIDER: z.enum(['sandbox', 'cryptomus']).default('sandbox'),
  CRYPTOMUS_MERCHANT_ID: z.string().min(1).optional(),
  CRYPTOMUS_API_KEY: z.string().min(1).optional(),
  /** https://api.cryptomus.com by default; Heleket's identical API works with its own URL. */
  CRYPTOMUS_BASE_URL: optionalUrl,
  /** Comma-separated source addresses allowed to deliver payment webhooks; empty allows any (signature still required). */
  CRYPTOMUS_WEBHOOK_IPS: z.string().default(''),
  TOPUP_MAX_USD: z.coerce.number({ error: 'must be a number' }).positive().default(10_000),
  TOPUP_INVOICE_LIFETIME_SECONDS: z.coerce
    .number({ error: 'must be a number' })
    .int()
    .min(300)
    .max(43_200)
    .default(3600),
  SANDBOX_ALLOW_IN_PRODUCTION: booleanFromString.default(false),
  /** Embedded database only: minutes between scheduled snapshots; 0 turns them off. */
  BACKUP_INTERVAL_MINUTES: z.coerce.number({ error: 'must be a number' }).int().min(0).default(0),
  /** How many scheduled snapshots are kept (the oldest go first). */
  BACKUP_KEEP: positiveInt.default(7),
  /** Where scheduled snapshots go; DATA_DIR/backups unless told. */
  BACKUP_DIR: z.string().min(1).optional(),
});

export type Environment = z.infer<typeof environmentSchema>;

export interface Config
  extends Omit<
    Environment,
    | 'HOST'
    | 'PUBLIC_URL'
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
  /** True when the built-in Cryptomus sandbox is mounted at /sandbox. */
  sandboxEnabled: boolean;
  /** Where the outbox transport writes messages. */
  mailOutboxDir: string;
  /** True when /dev/outbox lists the outbox (the outbox transport, outside production). */
  devOutboxEnabled: boolean;
  /** Settings that work but are probably not what a production operator wants: said loudly at start. */
  warnings: string[];
}

function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * `<ours>=<the provider's>` pairs separated by commas (`US=187,GB=16`, `tg=telegram`), read into the
 * provider's id → ours: each side names one id, so that translating either way is unambiguous.
 */
function idOverrides(example: string, ours: (key: string) => string | undefined, providerId: RegExp) {
  return z
    .string()
    .trim()
    .transform((value, context) => {
      const fail = (problem: string) => {
        context.addIssue({ code: 'custom', message: `must be pairs such as ${example}: ${problem}` });
        return z.NEVER;
      };
      const map: Record<string, string> = {};
      for (const entry of value.split(',').map((pair) => pair.trim())) {
        const [key = '', id = '', ...rest] = entry.split('=').map((part) => part.trim());
        const own = ours(key);
        if (rest.length > 0 || key === '' || id === '') return fail(`"${entry}" is not one`);
        if (own === undefined) return fail(`"${key}" is not one of ours`);
        if (!providerId.test(id)) return fail(`"${id}" is not an id of the provider`);
        if (Object.values(map).includes(own)) return fail(`"${key}" is named twice`);
        if (id in map) return fail(`"${id}" is given twice`);
        map[id] = own;
      }
      return map;
    });
}

export const providerKinds = ['smsactivate', 'fivesim', 'simulator'] as const;
export type ProviderKind = (typeof providerKinds)[number];

/**
 * One supplier's variables, read with its name's prefix: `HERO_KIND` for `hero`, `SIM_B_SEED` for `sim-b`.
 * The simulator-only settings default to the global SIMULATOR_* ones.
 */
export const providerEnvironmentSchema = z.object({
  KIND: z.enum(providerKinds, { error: `must be one of ${providerKinds.join(', ')}` }),
  /** handler_api.php URL (smsactivate), API root (fivesim: https://5sim.net/v1 unless told); built in for simulators. */
  URL: optionalUrl,
  KEY: z.string().min(1).optional(),
  /** SMS_PROVIDER_USD_RATE unless told. */
  USD_RATE: z.coerce.number({ error: 'must be a number' }).positive().optional(),
  /** SMS_PROVIDER_TIMEOUT_MS unless told. */
  TIMEOUT_MS: positiveInt.optional(),
  SEED: z.coerce.number({ error: 'must be a number' }).int().optional(),
  /** The IANA zone its zone-less dates are in (`Europe/Moscow` for some of the SMS-Activate family). */
  TIME_ZONE: z
    .string()
    .refine(isTimeZone, { error: 'must be an IANA time zone such as UTC or Europe/Moscow' })
    .default('UTC'),
  /** Simulators only: the protocol it speaks; `sim-b` speaks 5sim's unless told. */
  PROTOCOL: z.enum(['smsactivate', 'fivesim'], { error: 'must be smsactivate or fivesim' }).optional(),
  NO_SMS_RATE: z.coerce.number({ error: 'must be a number' }).min(0).max(1).optional(),
  /** smsactivate only: countries whose id at this provider is not SMS-Activate's, `US=187,GB=16`. */
  COUNTRY_IDS: idOverrides(
    'US=187,GB=16 (an ISO country code, then the numeric id the provider gives it)',
    (key) => countryById(key)?.id,
    /^\d{1,5}$/,
  ).optional(),
  /** smsactivate only: services whose code at this provider is not ours, `tg=tg,wa=wa`. */
  SERVICE_CODES: idOverrides(
    "tg=tg,wa=wa (a service code of ours, then the provider's)",
    (key) => serviceByCode(key.toLowerCase())?.code,
    /^[A-Za-z0-9_-]{1,40}$/,
  ).optional(),
  /**
   * Simulators speaking SMS-Activate's protocol only: how they tell refusals, `classic` (HTTP 200 and a
   * token) or `hero` (Hero-SMS's HTTP statuses and JSON); their answers stay SMS-Activate's.
   */
  ERROR_STYLE: z.enum(['classic', 'hero'], { error: 'must be classic or hero' }).optional(),
});

export interface ProviderSettings {
  /** How orders, snapshots, logs and the webhook's path name this provider; never shown to users. */
  name: string;
  kind: ProviderKind;
  /** The provider's API URL; undefined for simulators, which are served by this process. */
  url?: string;
  /** Undefined for simulators until the generated key is filled in. */
  key?: string;
  /** US dollars per unit of the provider's currency. */
  usdRate: number;
  timeoutMs: number;
  /** The IANA zone of its zone-less dates. */
  timeZone: string;
  /** Simulators only: the protocol it speaks, its catalog's seed and share of numbers that never get an SMS. */
  protocol?: 'smsactivate' | 'fivesim';
  seed?: number;
  noSmsRate?: number;
  /** Simulators speaking SMS-Activate's protocol: how they tell refusals. */
  errorStyle?: 'classic' | 'hero';
  /** smsactivate providers: their ids where they differ from SMS-Activate's (provider id → ours). */
  idMap?: { countries?: Record<string, string>; services?: Record<string, string> };
}

/** `sim-b` reads `SIM_B_*`. */
export function providerEnvPrefix(name: string): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_`;
}

/**
 * The built-in pool of a fresh clone: two simulated suppliers that differ in catalog, prices and stock
 * (their seeds) and in reliability, so that routing and failover can be watched without any account.
 */
const DEFAULT_POOL = ['sim-a', 'sim-b'];

function readProviderPool(values: Environment, env: Record<string, string>, problems: string[]) {
  const legacy = (): ProviderSettings => ({
    name: values.SMS_PROVIDER ?? 'simulator',
    kind: values.SMS_PROVIDER ?? 'simulator',
    url: values.SMS_PROVIDER_URL,
    key: values.SMS_PROVIDER_KEY,
    usdRate: values.SMS_PROVIDER_USD_RATE,
    timeoutMs: values.SMS_PROVIDER_TIMEOUT_MS,
    timeZone: 'UTC',
    protocol: (values.SMS_PROVIDER ?? 'simulator') === 'simulator' ? 'smsactivate' : undefined,
    seed: values.SIMULATOR_SEED,
    noSmsRate: values.SIMULATOR_NO_SMS_RATE,
  });
  if (!values.SMS_PROVIDERS && values.SMS_PROVIDER) return [legacy()];
  const names = values.SMS_PROVIDERS?.split(',').map((name) => name.trim()) ?? DEFAULT_POOL;
  if (new Set(names).size !== names.length) problems.push('SMS_PROVIDERS: names a provider twice');
  const baseSeed = values.SIMULATOR_SEED ?? 1;
  return names.flatMap((name, index): ProviderSettings[] => {
    const prefix = providerEnvPrefix(name);
    const own = Object.fromEntries(
      Object.entries(env)
        .filter(([key]) => key.startsWith(prefix))
        .map(([key, value]) => [key.slice(prefix.length), value]),
    );
    // The built-in suppliers' names need no variables: they are simulators unless told otherwise.
    const parsed = providerEnvironmentSchema.safeParse(
      DEFAULT_POOL.includes(name) ? { KIND: 'simulator', ...own } : own,
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push(
          `${prefix}${issue.path.join('.')}: ${issue.message} (provider ${name} of SMS_PROVIDERS)`,
        );
      return [];
    }
    const settings = parsed.data;
    if (settings.KIND === 'smsactivate' && (!settings.URL || !settings.KEY)) {
      problems.push(`${prefix}URL and ${prefix}KEY: are required when ${prefix}KIND is smsactivate`);
    }
    if (settings.KIND === 'fivesim' && !settings.KEY) {
      problems.push(`${prefix}KEY: is required when ${prefix}KIND is fivesim (the API token)`);
    }
    // The built-in pool shows both protocols: sim-a speaks SMS-Activate's, sim-b 5sim's.
    const protocol =
      settings.KIND === 'simulator'
        ? (settings.PROTOCOL ?? (name === 'sim-b' ? 'fivesim' : 'smsactivate'))
        : undefined;
    for (const variable of ['COUNTRY_IDS', 'SERVICE_CODES'] as const) {
      // A simulator answers with the built-in ids, and 5sim names countries and products in words.
      if (settings[variable] && settings.KIND !== 'smsactivate')
        problems.push(`${prefix}${variable}: only an smsactivate provider takes it`);
    }
    if (settings.ERROR_STYLE && protocol !== 'smsactivate') {
      problems.push(
        `${prefix}ERROR_STYLE: only a simulator speaking SMS-Activate's protocol takes it (real providers have their own)`,
      );
    }
    return [
      {
        name,
        kind: settings.KIND,
        url: settings.URL,
        key: settings.KEY ?? (settings.KIND === 'simulator' ? values.SMS_PROVIDER_KEY : undefined),
        usdRate: settings.USD_RATE ?? values.SMS_PROVIDER_USD_RATE,
        timeoutMs: settings.TIMEOUT_MS ?? values.SMS_PROVIDER_TIMEOUT_MS,
        timeZone: settings.TIME_ZONE,
        protocol,
        // Each simulator its own catalog; the later ones less reliable, so that the difference shows.
        seed: settings.SEED ?? baseSeed + index,
        noSmsRate: settings.NO_SMS_RATE ?? Math.min(1, values.SIMULATOR_NO_SMS_RATE * (index + 1)),
        errorStyle: settings.ERROR_STYLE,
        idMap:
          settings.COUNTRY_IDS || settings.SERVICE_CODES
            ? { countries: settings.COUNTRY_IDS, services: settings.SERVICE_CODES }
            : undefined,
      },
    ];
  });
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Secrets that development generates once and keeps under DATA_DIR; production must provide them. */
const REQUIRED_SECRETS = [
  'JWT_SECRET',
  'ALTCHA_HMAC_KEY',
  'SMS_WEBHOOK_SECRET',
  'DATA_ENCRYPTION_KEY',
] as const;
/** Keys of the built-in simulator and sandbox: demo features, so they are generated in every mode. */
const DEMO_SECRETS = ['SIMULATOR_API_KEY', 'SANDBOX_API_KEY'] as const;
type GeneratedSecret = (typeof REQUIRED_SECRETS)[number] | (typeof DEMO_SECRETS)[number];

function readOrCreateSecrets(dataDir: string, missing: GeneratedSecret[]): Record<GeneratedSecret, string> {
  const file = path.join(dataDir, 'secrets.json');
  let stored: Partial<Record<GeneratedSecret, string>> = {};
  try {
    stored = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    // No secrets file yet: it is written below.
  }
  let changed = false;
  for (const name of missing) {
    if (!stored[name]) {
      stored[name] = randomBytes(32).toString('base64url');
      changed = true;
    }
  }
  if (changed) {
    // The data folder is its owner's alone (see db/data-dir.ts, which also fixes an older folder's modes).
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  }
  return stored as Record<GeneratedSecret, string>;
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
      'PAYMENT_PROVIDER: is sandbox in production; choose cryptomus or set SANDBOX_ALLOW_IN_PRODUCTION=true',
    );
  }
  if (
    values.PAYMENT_PROVIDER === 'cryptomus' &&
    (!values.CRYPTOMUS_MERCHANT_ID || !values.CRYPTOMUS_API_KEY)
  ) {
    problems.push(
      'CRYPTOMUS_MERCHANT_ID and CRYPTOMUS_API_KEY: are required when PAYMENT_PROVIDER is cryptomus',
    );
  }
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

  return {
    ...values,
    DATA_DIR: dataDir,
    HOST: host,
    PUBLIC_URL: (values.PUBLIC_URL ?? `http://localhost:${values.PORT}`).replace(/\/+$/, ''),
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
    mailOutboxDir: path.join(dataDir, 'outbox'),
    devOutboxEnabled: values.MAIL_TRANSPORT === 'outbox' && !isProduction,
    warnings,
  };
}
