import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, environmentSchema, loadConfig } from './config';

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
      SMS_PROVIDER: 'simulator',
      PAYMENT_PROVIDER: 'sandbox',
    });
    expect(first.JWT_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: dir }).JWT_SECRET).toBe(first.JWT_SECRET);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET'],
    [{ CAPTCHA_PROVIDER: 'recaptcha' }, 'CAPTCHA_SITE_KEY'],
    [{ SMS_PROVIDER: 'smsactivate' }, 'SMS_PROVIDER_URL'],
    [{ PAYMENT_PROVIDER: 'cryptomus' }, 'CRYPTOMUS_MERCHANT_ID'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    [{ SIMULATOR_SMS_DELAY_MIN_MS: '9000', SIMULATOR_SMS_DELAY_MAX_MS: '100' }, 'SIMULATOR_SMS_DELAY_MIN_MS'],
  ])('names the variable of a bad value: %j', (env, variable) => {
    expect(problemsOf(env).join('\n')).toContain(variable);
  });

  it('requires secrets and real providers in production', () => {
    const problems = problemsOf({ NODE_ENV: 'production' }).join('\n');
    for (const variable of [
      'JWT_SECRET',
      'ALTCHA_HMAC_KEY',
      'SMS_WEBHOOK_SECRET',
      'SMS_PROVIDER',
      'PAYMENT_PROVIDER',
    ]) {
      expect(problems).toContain(variable);
    }
  });

  it('is documented: the README lists every variable and no other', () => {
    const readme = readFileSync(
      path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../README.md'),
      'utf8',
    );
    const table = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Project layout'));
    const documented = [...table.matchAll(/^\| `([A-Z_]+)`\s+\|/gm)].map((match) => match[1]).sort();
    expect(documented).toEqual(Object.keys(environmentSchema.shape).sort());
  });
});
