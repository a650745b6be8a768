import { afterEach, describe, expect, it } from 'vitest';
import { loadSharedMessages, setLanguageSource } from './instance';
import type { Language } from './languages';
import english from './locales/en.json';
import { localizeEnglish } from './localize-english';

let language: Language = 'en';
setLanguageSource(() => language);
afterEach(() => {
  language = 'en';
});

describe('localizeEnglish', () => {
  it('reads an English sentence of the catalogue in the current language, anything else as it is', async () => {
    await loadSharedMessages('ru');
    language = 'ru';
    expect(localizeEnglish(english.activationReasons.expired)).toBe(
      'За 20 минут SMS не пришло. Стоимость возвращена на баланс.',
    );
    expect(localizeEnglish(english.upstream.noNumbers)).toMatch(/^Сейчас нет свободных номеров/);
    expect(localizeEnglish('Something a provider said.')).toBe('Something a provider said.');
    expect(localizeEnglish(null)).toBeNull();
    language = 'en';
    expect(localizeEnglish(english.activationReasons.expired)).toBe(english.activationReasons.expired);
  });
});
