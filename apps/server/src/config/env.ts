import { isIP } from 'node:net';
import { z } from 'zod';
import { parseSecretBoxKey } from '../lib/secret-box';

export const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

const port = z.coerce.number({ error: 'must be a number' }).int().min(0).max(65535);
export const positiveInt = z.coerce.number({ error: 'must be a number' }).int().positive();
export const optionalUrl = z.url({ error: 'must be a URL' }).optional();

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
  /**
   * On SIGTERM, readiness answers 503 this long before the server stops taking requests, so a load balancer
   * stops routing here first (set it above the balancer's probe interval times its failure threshold).
   */
  SHUTDOWN_DELAY_MS: z.coerce.number({ error: 'must be a number' }).int().min(0).max(120_000).default(0),
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
  /** Serves Prometheus metrics at /metrics to `Authorization: Bearer <token>` (unset: not on the main port). */
  METRICS_TOKEN: z.string().min(16, { error: 'must be at least 16 characters' }).optional(),
  /** Serves Prometheus metrics without a token on this port of HOST (keep it off the public network). */
  METRICS_PORT: port.optional(),
  /**
   * Exports OpenTelemetry traces over OTLP/HTTP to this collector (`<endpoint>/v1/traces`, as the
   * OpenTelemetry specification reads it); unset, nothing is traced.
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ error: 'must be a URL' }).optional(),
  /** The traces' full URL when it is not `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`; enables tracing too. */
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ error: 'must be a URL' }).optional(),
  /** The traces' `service.name`. */
  OTEL_SERVICE_NAME: z.string().min(1).default('simcode'),
  /** Put before every Redis key, so deployments sharing one Redis share no limits; from PUBLIC_URL unless told. */
  REDIS_PREFIX: z.string().min(1).max(100).optional(),
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
  /** Status page (issue 30): minutes of failed checks in a row that open an incident by themselves. */
  STATUS_OPEN_AFTER_MINUTES: positiveInt.default(3),
  /** Minutes of passing checks in a row that close an automatic incident. */
  STATUS_CLOSE_AFTER_MINUTES: positiveInt.default(5),
  /** Public names of the suppliers on /status: `sim-a=Acme,sim-b=Globex`; unnamed ones are "Supplier A", "B"... */
  STATUS_SUPPLIER_NAMES: z.string().default(''),
  SIMULATOR_ALLOW_IN_PRODUCTION: booleanFromString.default(false),
  /**
   * On PostgreSQL, the built-in simulators and sandboxes take turns with other instances serving them from
   * the same database (a transaction per request to them). `false` when this instance serves them alone.
   */
  STAND_INS_SHARED: booleanFromString.default(true),
  /**
   * Where the built-in simulators run: `worker`, a thread of their own, so their timers and requests leave
   * the customers' event loop alone (ADR 0037); `main`, the server's own loop, where tests tick them.
   */
  SIMULATORS_THREAD: z.enum(['worker', 'main']).default('worker'),
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
  /**
   * `sandbox`: the providers of PAYMENT_PROVIDERS talk to the built-in sandboxes (Cryptomus's serves
   * Heleket too); `live`: to the real processors. `cryptomus` is the older name of `live` with Cryptomus alone.
   */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'live', 'cryptomus']).default('sandbox'),
  /**
   * The payment providers in order of preference, comma-separated: `cryptomus`, `heleket`, `nowpayments`.
   * By default both sandboxes (`cryptomus,nowpayments`); with PAYMENT_PROVIDER=cryptomus, Cryptomus alone.
   */
  PAYMENT_PROVIDERS: z.string().optional(),
  CRYPTOMUS_MERCHANT_ID: z.string().min(1).optional(),
  CRYPTOMUS_API_KEY: z.string().min(1).optional(),
  /** https://api.cryptomus.com by default; Heleket's identical API works with its own URL. */
  CRYPTOMUS_BASE_URL: optionalUrl,
  /** Comma-separated source addresses allowed to deliver payment webhooks; empty allows any (signature still required). */
  CRYPTOMUS_WEBHOOK_IPS: z.string().default(''),
  /** Heleket: a Cryptomus-kind provider with its own merchant, key and API origin. */
  HELEKET_MERCHANT_ID: z.string().min(1).optional(),
  HELEKET_API_KEY: z.string().min(1).optional(),
  HELEKET_BASE_URL: optionalUrl,
  HELEKET_WEBHOOK_IPS: z.string().default(''),
  /** NOWPayments: the API key, the IPN secret and the dashboard login (its payment list needs a token). */
  NOWPAYMENTS_API_KEY: z.string().min(1).optional(),
  NOWPAYMENTS_IPN_SECRET: z.string().min(1).optional(),
  NOWPAYMENTS_EMAIL: z.string().min(1).optional(),
  NOWPAYMENTS_PASSWORD: z.string().min(1).optional(),
  /** https://api.nowpayments.io by default (https://api-sandbox.nowpayments.io is its own test system). */
  NOWPAYMENTS_BASE_URL: optionalUrl,
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
