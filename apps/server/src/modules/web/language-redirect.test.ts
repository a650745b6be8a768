import { describe, expect, it } from 'vitest';
import { languageRedirect } from './language-redirect';

describe('languageRedirect', () => {
  it("sends a visitor of an English public address to their browser's language", () => {
    expect(languageRedirect('/', '', { 'accept-language': 'ru-RU,ru;q=0.9,en;q=0.8' })).toEqual({
      location: '/ru/',
    });
    expect(languageRedirect('/faq/', '?x=1', { 'accept-language': 'zh-CN' })).toEqual({
      location: '/zh/faq?x=1',
    });
    expect(languageRedirect('/login', '', { 'accept-language': 'en-US,ru;q=0.5' })).toBeNull();
    expect(languageRedirect('/login', '', {})).toBeNull();
  });

  it('follows a choice made before over the browser, and a lang link over both, remembering it', () => {
    expect(languageRedirect('/', '', { cookie: 'a=b; simcode_lang=en', 'accept-language': 'ru' })).toBeNull();
    expect(languageRedirect('/faq', '', { cookie: 'simcode_lang=zh', 'accept-language': 'ru' })).toEqual({
      location: '/zh/faq',
    });
    expect(languageRedirect('/register', '?lang=en&ref=1', { cookie: 'simcode_lang=ru' })).toEqual({
      location: '/register?ref=1',
      setCookie: 'simcode_lang=en; Path=/; Max-Age=31536000; SameSite=Lax',
    });
    expect(languageRedirect('/', '?lang=xx', { cookie: 'simcode_lang=xx' })).toBeNull();
  });

  it("leaves pages at another language's address and every other page alone", () => {
    expect(languageRedirect('/ru/faq', '', { 'accept-language': 'zh' })).toBeNull();
    expect(languageRedirect('/dashboard', '?lang=ru', { 'accept-language': 'zh' })).toBeNull();
  });
});
