import { describe, expect, it } from 'vitest';
import {
  isAppPath,
  localizedPublicPath,
  publicPageOf,
  statsCountryOf,
  statsCountryPath,
  statsServiceOf,
  statsServicePath,
} from './routes';

describe('public pages in languages', () => {
  it('keeps English at the spec addresses and puts the others under their language', () => {
    expect(localizedPublicPath('/', 'en')).toBe('/');
    expect(localizedPublicPath('/', 'ru')).toBe('/ru/');
    expect(localizedPublicPath('/faq', 'zh')).toBe('/zh/faq');
  });

  it('reads the page and language back from an address, and only for public pages', () => {
    expect(publicPageOf('/ru/')).toEqual({ page: '/', language: 'ru' });
    expect(publicPageOf('/ru')).toEqual({ page: '/', language: 'ru' });
    expect(publicPageOf('/zh/register')).toEqual({ page: '/register', language: 'zh' });
    expect(publicPageOf('/login')).toEqual({ page: '/login', language: 'en' });
    expect(publicPageOf('/en/faq')).toBeNull();
    expect(publicPageOf('/ru/dashboard')).toBeNull();
    expect(publicPageOf('/de/faq')).toBeNull();
    expect(isAppPath('/zh/faq')).toBe(true);
    expect(isAppPath('/ru/nope')).toBe(false);
  });

  it("knows the Delivery Index's service pages in every language, and nothing deeper", () => {
    expect(statsServiceOf('/stats/tg')).toEqual({ service: 'tg', language: 'en' });
    expect(statsServiceOf('/zh/stats/wa')).toEqual({ service: 'wa', language: 'zh' });
    expect(statsServiceOf('/en/stats/tg')).toBeNull();
    expect(statsServiceOf('/stats/tg/x')).toBeNull();
    expect(statsServicePath('tg', 'ru')).toBe('/ru/stats/tg');
    expect(statsCountryOf('/stats/country/gb')).toEqual({ country: 'gb', language: 'en' });
    expect(statsCountryOf('/ru/stats/country/gb')).toEqual({ country: 'gb', language: 'ru' });
    expect(statsCountryOf('/en/stats/country/gb')).toBeNull();
    expect(statsCountryOf('/stats/country/gbr')).toBeNull();
    expect(statsCountryPath('GB', 'zh')).toBe('/zh/stats/country/gb');
    expect(isAppPath('/zh/stats/country/gb')).toBe(true);
    expect(isAppPath('/ru/stats/tg')).toBe(true);
    expect(isAppPath('/ru/stats')).toBe(true);
    expect(isAppPath('/stats/')).toBe(false);
  });
});
