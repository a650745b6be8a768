import { afterEach, describe, expect, it } from 'vitest';
import { defineMessages } from './define-messages';
import { i18n, setLanguageSource } from './instance';
import type { Language } from './languages';

const english = {
  saved: 'Saved.',
  attempts_one: 'Try again in {{count}} second.',
  attempts_other: 'Try again in {{count}} seconds.',
  greeting: 'Hello, {{name}}.',
  limit: 'At most {{max}}.',
};
i18n.addResourceBundle('en', 'messages', { test: english }, true, true);
i18n.addResourceBundle(
  'ru',
  'messages',
  {
    test: {
      saved: 'Сохранено.',
      attempts_one: 'Повторите через {{count}} секунду.',
      attempts_few: 'Повторите через {{count}} секунды.',
      attempts_many: 'Повторите через {{count}} секунд.',
      greeting: 'Здравствуйте, {{name}}.',
      limit: 'Не больше {{max}}.',
    },
  },
  true,
  true,
);

const messages = defineMessages('test', english, (t) => ({
  attempts: (seconds: number) => t('attempts', { count: seconds }),
  greeting: (name: string) => t('greeting', { name }),
  get limit() {
    return t('limit', { max: 5 });
  },
}));

let language: Language = 'en';
setLanguageSource(() => language);
afterEach(() => {
  language = 'en';
});

describe('defineMessages', () => {
  it('reads each text in the current language when it is read', () => {
    expect(messages.saved).toBe('Saved.');
    language = 'ru';
    expect(messages.saved).toBe('Сохранено.');
    expect(messages.limit).toBe('Не больше 5.');
    expect(messages.greeting('Анна')).toBe('Здравствуйте, Анна.');
  });

  it("uses each language's plural forms, Russian's three included", () => {
    expect([1, 2].map(messages.attempts)).toEqual(['Try again in 1 second.', 'Try again in 2 seconds.']);
    language = 'ru';
    expect([1, 3, 5, 21, 22, 25].map(messages.attempts)).toEqual([
      'Повторите через 1 секунду.',
      'Повторите через 3 секунды.',
      'Повторите через 5 секунд.',
      'Повторите через 21 секунду.',
      'Повторите через 22 секунды.',
      'Повторите через 25 секунд.',
    ]);
  });

  it('falls back to English for a language that lacks a text', () => {
    language = 'zh';
    expect(messages.saved).toBe('Saved.');
  });
});
