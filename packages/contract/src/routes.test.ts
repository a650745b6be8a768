import { describe, expect, it } from 'vitest';
import { isAppPath, localizedPublicPath, publicPageOf } from './routes';

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
});
