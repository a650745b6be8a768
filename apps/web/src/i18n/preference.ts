import {
  firstSupportedLanguage,
  isLanguage,
  LANGUAGE_COOKIE,
  type Language,
  localizedPublicPath,
  publicPageOf,
  statsCountryOf,
  statsCountryPath,
  statsServiceOf,
  statsServicePath,
} from '@simcode/contract';

const STORAGE_KEY = 'language';
const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

/** The language this browser chose last (the switch, or the signed-in account's preference), if any. */
export function savedLanguage(): Language | null {
  const saved = storage()?.getItem(STORAGE_KEY);
  return isLanguage(saved) ? saved : null;
}

/**
 * Remembers a choice in this browser: in local storage for the app, and in a cookie so the server sends
 * the prerendered public pages in it.
 */
export function rememberLanguage(language: Language): void {
  storage()?.setItem(STORAGE_KEY, language);
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing from Firefox and Safari before 2025.
  document.cookie = `${LANGUAGE_COOKIE}=${language}; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`;
}

/**
 * The language to start in. A public page's address names its language (the server has already sent the
 * visitor to the right one); elsewhere a `lang` query, then the saved choice, then the browser's languages.
 */
export function startLanguage(location: Pick<Location, 'pathname' | 'search'>, browser: readonly string[]) {
  const publicPage = publicPageOf(location.pathname);
  if (publicPage) return publicPage.language;
  const statsPage = statsServiceOf(location.pathname) ?? statsCountryOf(location.pathname);
  if (statsPage) return statsPage.language;
  const query = new URLSearchParams(location.search).get('lang');
  if (isLanguage(query)) return query;
  return savedLanguage() ?? firstSupportedLanguage(browser) ?? 'en';
}

/**
 * The current page in another language, as a plain link (the switch works before any script runs): with a
 * `lang` query, the server remembers the choice and sends a public page to its address in that language;
 * the app saves it for any other page when it starts.
 */
export function addressIn(language: Language, location: Pick<Location, 'pathname' | 'search' | 'hash'>) {
  const publicPage = publicPageOf(location.pathname);
  const search = new URLSearchParams(location.search);
  search.set('lang', language);
  const statsPage = statsServiceOf(location.pathname);
  const countryPage = statsCountryOf(location.pathname);
  const pathname = publicPage
    ? localizedPublicPath(publicPage.page, language)
    : statsPage
      ? statsServicePath(statsPage.service, language)
      : countryPage
        ? statsCountryPath(countryPage.country, language)
        : location.pathname;
  return `${pathname}?${search}${location.hash}`;
}
