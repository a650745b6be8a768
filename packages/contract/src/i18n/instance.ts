import i18next, { type TOptions } from 'i18next';
import { DEFAULT_LANGUAGE, type Language } from './languages';
import english from './locales/en.json';

/** The shared catalogue's English, the spec's texts: for sentences written down in English (stored reasons). */
export { english };

/**
 * The process's one i18next instance. It holds the messages both apps share (namespace `messages`: the
 * server's answers, which the web app shows too) in English from the start, and whatever each app adds:
 * the web app its pages' catalogues, the server its e-mails.
 */
export const i18n = i18next.createInstance();
void i18n.init({
  lng: DEFAULT_LANGUAGE,
  fallbackLng: DEFAULT_LANGUAGE,
  ns: ['messages'],
  defaultNS: 'messages',
  resources: { en: { messages: english } },
  // React escapes what it renders, and e-mails escape their own HTML: escaping here would do it twice.
  interpolation: { escapeValue: false },
  returnEmptyString: false,
  initAsync: false,
});

let languageSource: () => Language = () => i18n.language as Language;

/**
 * Where the current language comes from: the server answers each request in its own (an async-local
 * store), the web app in the one the visitor chose.
 */
export function setLanguageSource(source: () => Language): void {
  languageSource = source;
}

export function currentLanguage(): Language {
  return languageSource();
}

/** A text of a catalogue in the current language ('messages' is the default namespace). */
export function translate(key: string, values?: TOptions): string {
  return i18n.t(key, { ...values, lng: languageSource() }) as string;
}

const sharedCatalogues: Record<Exclude<Language, 'en'>, () => Promise<{ default: object }>> = {
  ru: () => import('./locales/ru.json'),
  zh: () => import('./locales/zh.json'),
};

/** Loads the shared messages of a language (English is always there). */
export async function loadSharedMessages(language: Language): Promise<void> {
  if (language === 'en' || i18n.hasResourceBundle(language, 'messages')) return;
  const catalogue = await sharedCatalogues[language]();
  i18n.addResourceBundle(language, 'messages', catalogue.default, true, true);
}
