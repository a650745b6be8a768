import { isAdminPath } from './admin';
import { DEFAULT_LANGUAGE, isLanguage, LANGUAGES, type Language } from './i18n/languages';
/** Every route of the web app (spec section 2). The server answers 200 for these and 404 for any other page. */
export const appRoutes = {
  home: '/',
  login: '/login',
  register: '/register',
  faq: '/faq',
  stats: '/stats',
  status: '/status',
  dashboard: '/dashboard',
  numbers: '/dashboard/numbers',
  longterm: '/dashboard/longterm',
  longtermNumbers: '/dashboard/longterm/numbers',
  renewable: '/dashboard/renewable',
  topup: '/dashboard/topup',
  tickets: '/dashboard/tickets',
  api: '/dashboard/api',
  balance: '/dashboard/balance',
  account: '/dashboard/account',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  confirmEmail: '/confirm-email',
  revertEmail: '/revert-email',
  apiDocs: '/docs/api',
} as const;

export const knownAppPaths: ReadonlySet<string> = new Set(Object.values(appRoutes));

/** Whether the app has a page at this path: one of appRoutes, a public page in a language, or one of the operator console's. */
export function isAppPath(pathname: string): boolean {
  return (
    knownAppPaths.has(pathname) ||
    publicPageOf(pathname) !== null ||
    isAdminPath(pathname) ||
    statsServiceOf(pathname) !== null ||
    statsCountryOf(pathname) !== null
  );
}

/** A service's page of the Delivery Index ('/stats/tg', '/ru/stats/tg'): its code and language, or null. */
export function statsServiceOf(pathname: string): { service: string; language: Language } | null {
  const match = /^(?:\/([a-z]{2}))?\/stats\/([a-z0-9_]{1,20})$/.exec(pathname);
  if (!match) return null;
  const [, prefix, service] = match;
  if (prefix === undefined) return { service: service!, language: DEFAULT_LANGUAGE };
  return isLanguage(prefix) && prefix !== DEFAULT_LANGUAGE ? { service: service!, language: prefix } : null;
}

/** A service's page of the index in a language: '/stats/tg', '/ru/stats/tg'. */
export function statsServicePath(service: string, language: Language): string {
  return `${localizedPublicPath('/stats', language)}/${service}`;
}

/** A country's page of the Delivery Index ('/stats/country/gb', '/ru/stats/country/gb'), or null. */
export function statsCountryOf(pathname: string): { country: string; language: Language } | null {
  const match = /^(?:\/([a-z]{2}))?\/stats\/country\/([a-z]{2})$/.exec(pathname);
  if (!match) return null;
  const [, prefix, country] = match;
  if (prefix === undefined) return { country: country!, language: DEFAULT_LANGUAGE };
  return isLanguage(prefix) && prefix !== DEFAULT_LANGUAGE ? { country: country!, language: prefix } : null;
}

/** A country's page of the index in a language, by its ISO code: '/stats/country/gb', '/ru/stats/country/gb'. */
export function statsCountryPath(countryId: string, language: Language): string {
  return `${localizedPublicPath('/stats', language)}/country/${countryId.toLowerCase()}`;
}

/** The status page's Atom feed in a language: '/status/feed.atom', '/ru/status/feed.atom'. */
export function statusFeedPath(language: Language): string {
  return `${localizedPublicPath('/status', language)}/feed.atom`;
}

/** Public pages rendered to HTML at build time; the file name is what the server looks for in dist/pages. */
export const prerenderedPages = {
  '/': 'home',
  '/faq': 'faq',
  '/stats': 'stats',
  '/status': 'status',
  '/login': 'login',
  '/register': 'register',
} as const satisfies Record<string, string>;

export type PublicPath = keyof typeof prerenderedPages;

/** The app's shell (its frame as skeletons) for every route not prerendered, in dist: the build writes it, the server serves it. */
export const APP_SHELL_FILE = 'pages/app-shell.html';

export function isPublicPath(pathname: string): pathname is PublicPath {
  return Object.hasOwn(prerenderedPages, pathname);
}

/**
 * A public page's address in a language. English keeps the spec's addresses; the others live under their
 * language: '/faq' → '/ru/faq', '/' → '/ru/'.
 */
export function localizedPublicPath(page: PublicPath, language: Language): string {
  if (language === DEFAULT_LANGUAGE) return page;
  return `/${language}${page === '/' ? '/' : page}`;
}

/** The page and language of a public page's address ('/zh/login' → login in Chinese), or null. */
export function publicPageOf(pathname: string): { page: PublicPath; language: Language } | null {
  if (isPublicPath(pathname)) return { page: pathname, language: DEFAULT_LANGUAGE };
  const [, prefix, ...rest] = pathname.split('/');
  if (!isLanguage(prefix) || prefix === DEFAULT_LANGUAGE) return null;
  const page = rest.length === 0 || (rest.length === 1 && rest[0] === '') ? '/' : `/${rest.join('/')}`;
  return isPublicPath(page) ? { page, language: prefix } : null;
}

/** Every public page in every language, as the sitemap and the prerender list them. */
export const localizedPublicPages: readonly { page: PublicPath; language: Language; path: string }[] =
  LANGUAGES.flatMap((language) =>
    (Object.keys(prerenderedPages) as PublicPath[]).map((page) => ({
      page,
      language,
      path: localizedPublicPath(page, language),
    })),
  );
