/** The languages of the product: English (the spec's texts), Russian and Simplified Chinese. */
export const LANGUAGES = ['en', 'ru', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];

export const DEFAULT_LANGUAGE: Language = 'en';

/** Each language's name in itself, as the language switch lists it. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ru: 'Русский', zh: '中文' };

/** The BCP 47 tag for `Intl` and `<html lang>`; `hreflang` uses the same. */
export const LANGUAGE_TAGS: Record<Language, string> = { en: 'en', ru: 'ru', zh: 'zh-CN' };

/**
 * The cookie holding a visitor's chosen language, so the server can send a prerendered public page in it;
 * the web app sets it from the switch and from the account's saved preference.
 */
export const LANGUAGE_COOKIE = 'simcode_lang';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The product language of a BCP 47 tag ('ru-RU' → 'ru'; every Chinese tag → 'zh'), or null. */
export function languageOfTag(tag: string): Language | null {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isLanguage(primary) ? primary : null;
}

/**
 * The best product language for an `Accept-Language` header: the supported language with the highest
 * quality, the header's order breaking ties; English when none is supported.
 */
export function negotiateLanguage(acceptLanguage: string | undefined | null): Language {
  if (!acceptLanguage) return DEFAULT_LANGUAGE;
  let best: { language: Language; quality: number } | null = null;
  for (const range of acceptLanguage.slice(0, 500).split(',')) {
    const [tag = '', ...parameters] = range.split(';');
    const language = languageOfTag(tag);
    if (!language) continue;
    const q = parameters.map((part) => part.trim()).find((part) => part.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    if (!Number.isFinite(quality) || quality <= 0) continue;
    if (!best || quality > best.quality) best = { language, quality };
  }
  return best?.language ?? DEFAULT_LANGUAGE;
}

/** The first product language among the browser's preferred languages (`navigator.languages`). */
export function firstSupportedLanguage(tags: readonly string[]): Language | null {
  for (const tag of tags) {
    const language = languageOfTag(tag);
    if (language) return language;
  }
  return null;
}
