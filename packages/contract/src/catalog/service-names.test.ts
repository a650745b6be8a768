import { afterEach, describe, expect, it } from 'vitest';
import { loadSharedMessages, setLanguageSource } from '../i18n/instance';
import type { Language } from '../i18n/languages';
import { serviceDisplayName } from './services';

let language: Language = 'en';
setLanguageSource(() => language);
afterEach(() => {
  language = 'en';
});

describe('service names', () => {
  it('write the brands of the Russian-speaking market in Cyrillic for Russian readers, and as brands elsewhere', async () => {
    await loadSharedMessages('ru');
    expect(['vk', 'ok', 'av', 'wa'].map((code) => serviceDisplayName(code))).toEqual([
      'VKontakte',
      'Odnoklassniki',
      'Avito',
      'WhatsApp',
    ]);
    language = 'ru';
    expect(['vk', 'ok', 'av', 'wa'].map((code) => serviceDisplayName(code))).toEqual([
      'ВКонтакте',
      'Одноклассники',
      'Авито',
      'WhatsApp',
    ]);
    expect(serviceDisplayName('ot')).toBe('Любой другой');
  });
});
