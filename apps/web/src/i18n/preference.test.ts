import { afterEach, describe, expect, it } from 'vitest';
import { addressIn, rememberLanguage, savedLanguage, startLanguage } from './preference';

afterEach(() => {
  window.localStorage.clear();
  // biome-ignore lint/suspicious/noDocumentCookie: clears what rememberLanguage wrote the same way.
  document.cookie = 'simcode_lang=; Path=/; Max-Age=0';
});

describe('startLanguage', () => {
  it("takes a public page's language from its address, whatever else says", () => {
    rememberLanguage('zh');
    expect(startLanguage({ pathname: '/ru/faq', search: '' }, ['en'])).toBe('ru');
    expect(startLanguage({ pathname: '/login', search: '?lang=zh' }, ['ru'])).toBe('en');
  });

  it('elsewhere takes the lang query, then the saved choice, then the browser, then English', () => {
    expect(startLanguage({ pathname: '/dashboard', search: '' }, ['de', 'ru-RU'])).toBe('ru');
    expect(startLanguage({ pathname: '/dashboard', search: '' }, ['de'])).toBe('en');
    rememberLanguage('zh');
    expect(savedLanguage()).toBe('zh');
    expect(document.cookie).toContain('simcode_lang=zh');
    expect(startLanguage({ pathname: '/dashboard', search: '' }, ['ru'])).toBe('zh');
    expect(startLanguage({ pathname: '/dashboard', search: '?lang=ru' }, ['en'])).toBe('ru');
  });
});

describe('addressIn', () => {
  it('links a public page at its address in the language, and every page with the lang query that saves it', () => {
    expect(addressIn('ru', { pathname: '/faq', search: '', hash: '#refunds' })).toBe(
      '/ru/faq?lang=ru#refunds',
    );
    expect(addressIn('en', { pathname: '/zh/', search: '?lang=zh', hash: '' })).toBe('/?lang=en');
    expect(addressIn('zh', { pathname: '/dashboard/numbers', search: '?page=2', hash: '' })).toBe(
      '/dashboard/numbers?page=2&lang=zh',
    );
  });
});
