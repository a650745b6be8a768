import { describe, expect, it } from 'vitest';
import { firstSupportedLanguage, languageOfTag, negotiateLanguage } from './languages';

describe('negotiateLanguage', () => {
  it('picks the supported language of highest quality, English when none is supported', () => {
    expect(negotiateLanguage('ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7')).toBe('ru');
    expect(negotiateLanguage('de-DE, en;q=0.5, zh-CN;q=0.8')).toBe('zh');
    expect(negotiateLanguage('zh-Hans-CN')).toBe('zh');
    expect(negotiateLanguage('fr, de;q=0.9')).toBe('en');
    expect(negotiateLanguage('')).toBe('en');
    expect(negotiateLanguage(undefined)).toBe('en');
  });

  it('keeps the header order between equal qualities and ignores refused or malformed ranges', () => {
    expect(negotiateLanguage('en, ru')).toBe('en');
    expect(negotiateLanguage('ru;q=0, zh;q=0.1')).toBe('zh');
    expect(negotiateLanguage('ru;q=abc, zh')).toBe('zh');
    expect(negotiateLanguage(';;;,,,')).toBe('en');
  });
});

describe('languageOfTag and firstSupportedLanguage', () => {
  it('read the primary subtag', () => {
    expect(languageOfTag('RU_ru')).toBe('ru');
    expect(languageOfTag('zh-TW')).toBe('zh');
    expect(languageOfTag('english')).toBeNull();
    expect(firstSupportedLanguage(['de-DE', 'ru-RU', 'en'])).toBe('ru');
    expect(firstSupportedLanguage(['de'])).toBeNull();
  });
});
