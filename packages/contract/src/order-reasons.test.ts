import { afterEach, describe, expect, it } from 'vitest';
import { errorText } from './errors';
import { loadSharedMessages, setLanguageSource } from './i18n/instance';
import type { Language } from './i18n/languages';
import english from './i18n/locales/en.json';
import russian from './i18n/locales/ru.json';
import chinese from './i18n/locales/zh.json';
import { activationReasonCodes, orderReasonText, rentReasonCodes } from './order-reasons';

let language: Language = 'en';
setLanguageSource(() => language);
afterEach(() => {
  language = 'en';
});

describe('order reasons', () => {
  it('words every code in every language', async () => {
    for (const catalogue of [english, russian, chinese]) {
      expect(Object.keys(catalogue.activationReasons).length).toBe(activationReasonCodes.length);
      expect(Object.keys(catalogue.rentReasons).length).toBe(rentReasonCodes.length);
    }
    for (const code of activationReasonCodes) expect(orderReasonText('activation', code)).not.toContain('_');
    for (const code of rentReasonCodes) expect(orderReasonText('rent', code)).not.toContain('_');
    await loadSharedMessages('ru');
    language = 'ru';
    expect(orderReasonText('activation', 'refunded_by_support')).toBe(
      russian.activationReasons.refundedBySupport,
    );
  });

  it('words the same code by what ended, and reads a sentence stored before codes as it was written', () => {
    expect(orderReasonText('activation', 'withdrawn')).toBe(english.activationReasons.withdrawn);
    expect(orderReasonText('rent', 'withdrawn')).toBe(english.rentReasons.withdrawn);
    expect(orderReasonText('rent', 'An old sentence.')).toBe('An old sentence.');
    expect(orderReasonText('activation', 'upstream_no_numbers')).toBe(errorText('upstream_no_numbers'));
    expect(orderReasonText('activation', null)).toBeNull();
  });
});
