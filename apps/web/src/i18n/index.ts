import {
  currentLanguage,
  i18n,
  isPublicPath,
  LANGUAGE_TAGS,
  type Language,
  loadSharedMessages,
  localizedPublicPath,
} from '@simcode/contract';
import { setI18n } from 'react-i18next';

export { currentLanguage, i18n } from '@simcode/contract';

/**
 * The web app's catalogues: one file per namespace and language (`locales/ru/numbers.json`), each its own
 * chunk, so a visitor downloads the texts of their language only.
 */
// useTranslation reads the one instance; every catalogue of a language is loaded before the app renders
// in it, so nothing waits on a Suspense.
i18n.options.react = { ...i18n.options.react, useSuspense: false };
setI18n(i18n);

const catalogues = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json');

function catalogueFiles(language: Language) {
  return Object.entries(catalogues)
    .map(([file, load]) => ({ file, load, match: file.match(/\/locales\/(\w+)\/([\w-]+)\.json$/) }))
    .filter(({ match }) => match?.[1] === language)
    .map(({ load, match }) => ({ namespace: match![2]!, load }));
}

/** Loads a language's catalogues (the shared messages and the app's) and makes it the current one. */
export async function loadLanguage(language: Language): Promise<void> {
  await Promise.all([
    loadSharedMessages(language),
    ...catalogueFiles(language).map(async ({ namespace, load }) => {
      i18n.addResourceBundle(language, namespace, (await load()).default, true, true);
    }),
  ]);
  await i18n.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = LANGUAGE_TAGS[language];
}

/** The `Intl` locale of the current language. */
export function locale(): string {
  return LANGUAGE_TAGS[currentLanguage()];
}

/**
 * A link target in the current language: a public page gets its language's address ('/faq' → '/ru/faq'),
 * an anchor on the home page too ('/#features' → '/ru/#features'); any other path is the same in every
 * language.
 */
export function publicPath(target: string): string {
  const [pathname = '/', hash] = target.split('#');
  if (!isPublicPath(pathname)) return target;
  const localized = localizedPublicPath(pathname, currentLanguage());
  return hash === undefined ? localized : `${localized}#${hash}`;
}
