import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import i18next, { type TOptions } from 'i18next';

type Language = 'en' | 'ru' | 'zh';

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The product's own catalogues of a language, read as the app reads them, so a test finds a control by the
 * words a visitor of that language sees: `t('numbers:card.cancel')`, `t('messages:auth.usernameTaken')`.
 */
export function catalogue(language: Language): (key: string, values?: TOptions) => string {
  const webDir = path.join(repository, 'apps/web/src/locales', language);
  const namespaces = Object.fromEntries(
    readdirSync(webDir).map((file) => [
      path.basename(file, '.json'),
      JSON.parse(readFileSync(path.join(webDir, file), 'utf8')),
    ]),
  );
  const messages = JSON.parse(
    readFileSync(path.join(repository, 'packages/contract/src/i18n/locales', `${language}.json`), 'utf8'),
  );
  const instance = i18next.createInstance();
  void instance.init({
    lng: language,
    resources: { [language]: { ...namespaces, messages } },
    defaultNS: 'messages',
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  return (key, values = {}) => instance.t(key, values) as string;
}

/** Every service's name (brands, the same in every language), as the contract's catalogue lists them. */
export function serviceNames(): string[] {
  const source = readFileSync(path.join(repository, 'packages/contract/src/catalog/services.ts'), 'utf8');
  return [...source.matchAll(/name: '((?:[^'\\]|\\.)+)'/g)].map((match) => match[1]!.replaceAll("\\'", "'"));
}

/** A control's accessible name from a catalogue text with values, any value where `ANY` stands. */
export const ANY = '\u0000';
export function namePattern(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replaceAll(ANY, '.+')}$`);
}

/** Words that read the same in every language: brands, units and protocol names. */
const SAME_IN_EVERY_LANGUAGE = new Set([
  'SimCode',
  'SMS',
  'API',
  'MCP',
  'USD',
  'USDT',
  'PDF',
  'CSV',
  'VoIP',
  'SIM',
  'ALTCHA',
  'Cryptomus',
  'NOWPayments',
  // Coins and networks are written by their tickers in every language.
  'BTC',
  'ETH',
  'LTC',
  'TRX',
  'TRON',
  'BSC',
  'USDC',
  'UTC',
  'VPN',
  // The language switch names each language in itself.
  'English',
]);

/**
 * Fails when the page shows a word of English (three Latin letters or more) other than brands, service
 * names and what the test typed itself (`allow`), listing the words found.
 */
export async function expectNoEnglish(page: Page, allow: readonly string[] = []): Promise<void> {
  const allowed = new Set([
    ...SAME_IN_EVERY_LANGUAGE,
    ...allow.flatMap((phrase) => phrase.split(/[^A-Za-z]+/)).filter(Boolean),
  ]);
  await expect
    .poll(async () => {
      const text = await page.evaluate(() => document.body.innerText);
      const words = text.match(/[A-Za-z]{3,}/g) ?? [];
      return [...new Set(words.filter((word) => !allowed.has(word)))];
    })
    .toEqual([]);
}
