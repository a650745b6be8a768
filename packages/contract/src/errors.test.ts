import { afterEach, describe, expect, it } from 'vitest';
import { type ErrorCode, errorCatalogue, errorText } from './errors';
import { loadSharedMessages, setLanguageSource } from './i18n/instance';
import type { Language } from './i18n/languages';

let language: Language = 'en';
setLanguageSource(() => language);
afterEach(() => {
  language = 'en';
});

const codes = Object.keys(errorCatalogue) as ErrorCode[];

describe('the error catalogue', () => {
  it.each(['en', 'ru', 'zh'] as const)(
    'gives every code a whole text in %s, with no value left to fill',
    async (each) => {
      await loadSharedMessages(each);
      language = each;
      for (const code of codes) {
        const text = errorText(code);
        // A missing key reads as the key itself; a value the entry does not give stays in braces.
        expect(text, code).not.toMatch(/\{\{|^[a-z]+\.[a-zA-Z]+$/);
      }
    },
  );

  it('keeps 5xx for the product’s or a supplier’s trouble, never for what a client sent', () => {
    for (const code of codes) {
      const { status } = errorCatalogue[code];
      expect(status >= 400 && status < 600, code).toBe(true);
      if (status >= 500) {
        expect(code).toMatch(
          /^(internal_error|upstream_|invoice_failed|deposit_address_failed|catalog_not_loaded|rent_catalog_busy|renewal_outcome_unknown|purchase_|rent_)/,
        );
      }
    }
  });
});
