import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGE_COOKIE,
  type Language,
  localizedPublicPath,
  negotiateLanguage,
  publicPageOf,
} from '@simcode/contract';

const COOKIE_MAX_AGE_SECONDS = 365 * 24 * 3600;

export interface LanguageRedirect {
  location: string;
  /** A choice made with a `lang` link, remembered for the visitor's next pages. */
  setCookie?: string;
}

function cookieLanguage(cookieHeader: string | undefined): Language | null {
  for (const pair of (cookieHeader ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === LANGUAGE_COOKIE && isLanguage(value)) return value;
  }
  return null;
}

/**
 * Where a visitor of a public page belongs. A `lang` query (the language switch's links, which work before
 * any script runs) is a choice: remembered in the cookie, and the page sent to its address in that language.
 * Otherwise a page at its English address goes to the language chosen before (the cookie), else the best of
 * the browser's `Accept-Language`; null to serve it. A page at another language's address is served as it
 * is: that address is a choice already.
 */
export function languageRedirect(
  pathname: string,
  search: string,
  headers: { cookie?: string; 'accept-language'?: string },
): LanguageRedirect | null {
  const publicPage = publicPageOf(pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);
  if (!publicPage) return null;
  const query = new URLSearchParams(search);
  const asked = query.get('lang');
  query.delete('lang');
  const rest = query.size > 0 ? `?${query}` : '';
  if (isLanguage(asked)) {
    return {
      location: `${localizedPublicPath(publicPage.page, asked)}${rest}`,
      setCookie: `${LANGUAGE_COOKIE}=${asked}; Path=/; Max-Age=${COOKIE_MAX_AGE_SECONDS}; SameSite=Lax`,
    };
  }
  if (publicPage.language !== DEFAULT_LANGUAGE) return null;
  const language = cookieLanguage(headers.cookie) ?? negotiateLanguage(headers['accept-language']);
  if (language === DEFAULT_LANGUAGE) return null;
  return { location: `${localizedPublicPath(publicPage.page, language)}${rest}` };
}
