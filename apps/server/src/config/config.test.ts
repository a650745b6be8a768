import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, environmentSchema, loadConfig } from '.';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'simcode-config-'));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig({ DATA_DIR: dataDir(), ...env });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('configuration', () => {
  it('starts on embedded defaults with generated secrets that persist', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir });
    expect(first).toMatchObject({
      PORT: 3000,
      HOST: '127.0.0.1',
      APP_NAME: 'SimCode',
      PAYMENT_PROVIDER: 'sandbox',
    });
    // Two simulated suppliers that differ, so that routing and failover work out of the box.
    expect(first.smsProviders.map(({ name, kind }) => ({ name, kind }))).toEqual([
      { name: 'sim-a', kind: 'simulator' },
      { name: 'sim-b', kind: 'simulator' },
    ]);
    expect(first.smsProviders[0]!.seed).not.toBe(first.smsProviders[1]!.seed);
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).JWT_SECRET).toBe(first.JWT_SECRET);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, 'CAPTCHA_SITE_KEY'],
    [{ SMS_PROVIDER: 'smsactivate' }, 'SMS_PROVIDER_URL'],
    [{ SMS_PROVIDERS: 'Hero!' }, 'SMS_PROVIDERS'],
    [
      { SMS_PROVIDERS: 'hero,hero', HERO_KIND: 'smsactivate', HERO_URL: 'https://h.test/', HERO_KEY: 'k' },
      'twice',
    ],
    [{ SMS_PROVIDERS: 'hero' }, 'HERO_KIND'],
    [{ SMS_PROVIDERS: 'hero', HERO_KIND: 'carrier-pigeon' }, 'HERO_KIND'],
    [{ SMS_PROVIDERS: 'hero', HERO_KIND: 'smsactivate' }, 'HERO_URL'],
    [{ SMS_PROVIDERS: 'sim-b', SIM_B_USD_RATE: '-1' }, 'SIM_B_USD_RATE'],
    [{ SMS_PROVIDERS: 'five', FIVE_KIND: 'fivesim' }, 'FIVE_KEY'],
    [{ SMS_PROVIDERS: 'sim-a', SIM_A_TIME_ZONE: 'Moscow' }, 'SIM_A_TIME_ZONE'],
    [{ SMS_PROVIDERS: 'sim-a', SIM_A_ERROR_STYLE: 'loud' }, 'SIM_A_ERROR_STYLE'],
    ...(
      [
        ['COUNTRY_IDS', 'US:187'],
        ['COUNTRY_IDS', 'XX=1'],
        ['COUNTRY_IDS', 'US=usa'],
        ['COUNTRY_IDS', 'US=187,us=12'],
        ['COUNTRY_IDS', 'US=187,GB=187'],
        ['COUNTRY_IDS', 'US=187,'],
        ['SERVICE_CODES', 'nope=tg'],
        ['SERVICE_CODES', 'tg=tele gram'],
      ] as const
    ).map(([variable, value]): [Record<string, string>, string] => [
      {
        SMS_PROVIDERS: 'hero',
        HERO_KIND: 'smsactivate',
        HERO_URL: 'https://h.test/',
        HERO_KEY: 'k',
        [`HERO_${variable}`]: value,
      },
      `HERO_${variable}: must be pairs such as`,
    ]),
    // A simulator answers with the built-in ids.
    [{ SMS_PROVIDERS: 'sim-a', SIM_A_COUNTRY_IDS: 'US=12' }, 'SIM_A_COUNTRY_IDS'],
    // 5sim's refusals are sentences of its own; a real provider has the style it has.
    [{ SMS_PROVIDERS: 'sim-b', SIM_B_ERROR_STYLE: 'hero' }, 'SIM_B_ERROR_STYLE'],
    [
      {
        SMS_PROVIDERS: 'hero',
        HERO_KIND: 'smsactivate',
        HERO_URL: 'https://h.test/',
        HERO_KEY: 'k',
        HERO_ERROR_STYLE: 'hero',
      },
      'HERO_ERROR_STYLE',
    ],
    [{ PAYMENT_PROVIDER: 'cryptomus' }, 'CRYPTOMUS_MERCHANT_ID'],
    [{ PAYMENT_PROVIDERS: 'cryptomus,paypal' }, 'PAYMENT_PROVIDERS'],
    [{ PAYMENT_PROVIDERS: 'nowpayments,nowpayments' }, 'PAYMENT_PROVIDERS'],
    [{ PAYMENT_PROVIDER: 'live', PAYMENT_PROVIDERS: 'nowpayments' }, 'NOWPAYMENTS_IPN_SECRET'],
    [{ PAYMENT_PROVIDER: 'live', PAYMENT_PROVIDERS: 'heleket' }, 'HELEKET_API_KEY'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ SIMULATOR_SMS_DELAY_MIN_MS: '9000', SIMULATOR_SMS_DELAY_MAX_MS: '100' }, 'SIMULATOR_SMS_DELAY_MIN_MS'],
  ])('names the variable of a bad value: %j', (env, variable) => {
    expect(problemsOf(env).join('\n')).toContain(variable);
  });

  it('reads the payment pool: both sandboxes by default, live providers from their prefixed variables', () => {
    expect(
      loadConfig({ DATA_DIR: dataDir() }).paymentProviders.map((provider) => [
        provider.name,
        provider.kind,
        provider.baseUrl,
      ]),
    ).toEqual([
      ['cryptomus', 'cryptomus', undefined],
      ['nowpayments', 'nowpayments', undefined],
    ]);
    const live = loadConfig({
      DATA_DIR: dataDir(),
      PAYMENT_PROVIDER: 'live',
      PAYMENT_PROVIDERS: 'heleket, nowpayments',
      HELEKET_MERCHANT_ID: 'hm',
      HELEKET_API_KEY: 'hk',
      HELEKET_WEBHOOK_IPS: '203.0.113.7',
      NOWPAYMENTS_API_KEY: 'nk',
      NOWPAYMENTS_IPN_SECRET: 'ns',
      NOWPAYMENTS_EMAIL: 'shop@example.test',
      NOWPAYMENTS_PASSWORD: 'pw',
    });
    expect(live.paymentProviders).toEqual([
      {
        name: 'heleket',
        kind: 'cryptomus',
        baseUrl: 'https://api.heleket.com',
        merchantId: 'hm',
        apiKey: 'hk',
        webhookIps: ['203.0.113.7'],
      },
      {
        name: 'nowpayments',
        kind: 'nowpayments',
        baseUrl: 'https://api.nowpayments.io',
        apiKey: 'nk',
        ipnSecret: 'ns',
        email: 'shop@example.test',
        password: 'pw',
      },
    ]);
    expect(live.sandboxEnabled).toBe(false);
  });

  it('reads a pool by name, each provider from its own prefixed variables', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SMS_PROVIDERS: 'hero, bower,sim-b',
      HERO_KIND: 'smsactivate',
      HERO_URL: 'https://hero.test/stubs/handler_api.php',
      HERO_KEY: 'hero-key',
      HERO_USD_RATE: '0.011',
      HERO_TIMEOUT_MS: '4000',
      BOWER_KIND: 'smsactivate',
      BOWER_URL: 'https://bower.test/stubs/handler_api.php',
      BOWER_KEY: 'bower-key',
      SMS_PROVIDER_TIMEOUT_MS: '7000',
      SIM_B_SEED: '9',
    });
    expect(config.smsProviders).toMatchObject([
      { name: 'hero', kind: 'smsactivate', key: 'hero-key', usdRate: 0.011, timeoutMs: 4000 },
      // Unset per-provider values fall back to the global SMS_PROVIDER_* ones.
      { name: 'bower', kind: 'smsactivate', key: 'bower-key', usdRate: 1, timeoutMs: 7000 },
      { name: 'sim-b', kind: 'simulator', seed: 9 },
    ]);
  });

  it("reads a provider's own country ids and service codes", () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SMS_PROVIDERS: 'hero,bower',
      HERO_KIND: 'smsactivate',
      HERO_URL: 'https://hero.test/stubs/handler_api.php',
      HERO_KEY: 'hero-key',
      HERO_COUNTRY_IDS: ' us = 12 , GB=16',
      HERO_SERVICE_CODES: 'tg=telegram,wa=wa',
      BOWER_KIND: 'smsactivate',
      BOWER_URL: 'https://bower.test/stubs/handler_api.php',
      BOWER_KEY: 'bower-key',
    });
    expect(config.smsProviders.map((provider) => provider.idMap)).toEqual([
      { countries: { '12': 'US', '16': 'GB' }, services: { telegram: 'tg', wa: 'wa' } },
      undefined,
    ]);
  });

  it('keeps the single-provider settings working as a pool of one', () => {
    const config = loadConfig({
      DATA_DIR: dataDir(),
      SMS_PROVIDER: 'smsactivate',
      SMS_PROVIDER_URL: 'https://hero.test/stubs/handler_api.php',
      SMS_PROVIDER_KEY: 'key',
      SMS_PROVIDER_USD_RATE: '0.011',
    });
    expect(config.smsProviders).toMatchObject([
      { name: 'smsactivate', kind: 'smsactivate', key: 'key', usdRate: 0.011 },
    ]);
  });

  it('requires secrets and real providers in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' }).join('\n');
    for (const variable of [
      'JWT_SECRET',
      'ALTCHA_HMAC_KEY',
      'SMS_WEBHOOK_SECRET',
      'DATA_ENCRYPTION_KEY',
      'SMS_PROVIDER',
      'PAYMENT_PROVIDER',
      'PUBLIC_URL',
      'MAIL_TRANSPORT',
    ]) {
      expect(problems).toContain(variable);
    }
  });

  /** A production configuration that passes, but for what a test changes. */
  const production = {
    NODE_ENV: 'production',
    PUBLIC_URL: 'https://simcode.example',
    DATABASE_URL: 'postgres://app@db/simcode',
    TRUST_PROXY: '1',
    JWT_SECRET: 'j'.repeat(40),
    ALTCHA_HMAC_KEY: 'a'.repeat(40),
    SMS_WEBHOOK_SECRET: 's'.repeat(40),
    DATA_ENCRYPTION_KEY: 'ab'.repeat(32),
    SMS_PROVIDERS: 'hero',
    HERO_KIND: 'smsactivate',
    HERO_URL: 'https://hero.test/stubs/handler_api.php',
    HERO_KEY: 'k',
    PAYMENT_PROVIDER: 'cryptomus',
    CRYPTOMUS_MERCHANT_ID: 'm',
    CRYPTOMUS_API_KEY: 'k',
    MAIL_TRANSPORT: 'smtp',
    SMTP_URL: 'smtp://mail.example:587',
  };

  it('refuses the certain mistakes of production and says the doubtful ones at start', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), ...production }).warnings).toEqual([]);
    const { PUBLIC_URL: _url, ...noPublicUrl } = production;
    expect(problemsOf(noPublicUrl).join('\n')).toContain('PUBLIC_URL');
    expect(problemsOf({ ...production, MAIL_TRANSPORT: 'outbox' }).join('\n')).toContain('MAIL_TRANSPORT');
    expect(
      problemsOf({ ...production, MAIL_TRANSPORT: 'outbox', MAIL_OUTBOX_ALLOW_IN_PRODUCTION: 'true' }),
    ).toEqual([]);
    expect(problemsOf({ ...production, DATABASE_URL: 'mysql://app@db/simcode' }).join('\n')).toContain(
      'DATABASE_URL',
    );
    expect(problemsOf({ ...production, DATA_ENCRYPTION_KEY: 'too-short' }).join('\n')).toContain(
      'DATA_ENCRYPTION_KEY',
    );
    const { DATABASE_URL: _database, TRUST_PROXY: _proxy, ...embedded } = production;
    const warnings = loadConfig({
      DATA_DIR: dataDir(),
      ...embedded,
      BACKUP_INTERVAL_MINUTES: '60',
    }).warnings.join('\n');
    expect(warnings).toContain('DATABASE_URL');
    expect(warnings).toContain('TRUST_PROXY');
    expect(
      loadConfig({ DATA_DIR: dataDir(), ...production, BACKUP_INTERVAL_MINUTES: '60' }).warnings.join('\n'),
    ).toContain('BACKUP_INTERVAL_MINUTES is for the embedded database');
  });

  it('keeps deployments sharing one Redis apart by their public address unless told', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), PUBLIC_URL: 'https://shop.example.com/' }).REDIS_PREFIX).toBe(
      'simcode:shop.example.com:',
    );
    expect(loadConfig({ DATA_DIR: dataDir(), REDIS_PREFIX: 'staging:' }).REDIS_PREFIX).toBe('staging:');
  });

  it('is documented: the README lists every variable and no other', () => {
    const readme = readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../README.md'),
      'utf8',
    );
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Project layout'));
    const documented = [...table.matchAll(/^\| `([A-Z_]+)`\s+\|/gm)].map((match) => match[1]).sort();
    expect(documented).toEqual(Object.keys(environmentSchema.shape).sort());
  });
});
