import { afterEach, describe, expect, it } from 'vitest';
import { loadSharedMessages, setLanguageSource } from '../i18n/instance';
import type { Language } from '../i18n/languages';
import { rentServiceDisplayName } from './rent-services';

let language: Language = 'en';
setLanguageSource(() => language);
afterEach(() => {
  language = 'en';
});

describe('a rent option’s name', () => {
  it('reads "Any other" in the reader’s language and keeps brands as written', async () => {
    await loadSharedMessages('ru');
    language = 'ru';
    expect(rentServiceDisplayName('opt19', 'Any other')).toBe('Любой другой');
    expect(rentServiceDisplayName('opt29', 'Telegram')).toBe('Telegram');
  });
});
