import { z } from 'zod';
import { currentLanguage } from './i18n/instance';
import { LANGUAGE_TAGS, type Language } from './i18n/languages';

/** Every error answer of the API has this body, with the HTTP status telling the class of error. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  /** A sentence for people. */
  error: z.string(),
  /** A stable machine-readable code (`invalid_request`, `not_found`, `rate_limited`, …) for clients and translations. */
  code: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const successResponseSchema = z.object({
  success: z.literal(true),
});

/** Dollars with two decimals on the wire; the server and database work in integer cents. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

const usdFormats = new Map<Language, Intl.NumberFormat>();

/**
 * Money as people of the current language read it, from integer cents: 1000000 → '$10,000.00' in English,
 * '10 000,00 $' in Russian, 'US$10,000.00' in Chinese. Every price and balance shown goes through here.
 */
export function formatCents(cents: number): string {
  const language = currentLanguage();
  let usd = usdFormats.get(language);
  if (!usd) {
    // English keeps the spec's '$1,234.50' (en-US); the others write dollars their own way.
    const locale = language === 'en' ? 'en-US' : LANGUAGE_TAGS[language];
    usd = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
    usdFormats.set(language, usd);
  }
  return usd.format(Math.round(cents) / 100);
}
