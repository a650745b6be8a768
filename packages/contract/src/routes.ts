import { isAdminPath } from './admin';
/** Every route of the web app (spec section 2). The server answers 200 for these and 404 for any other page. */
export const appRoutes = {
  home: '/',
  login: '/login',
  register: '/register',
  faq: '/faq',
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
  apiDocs: '/docs/api',
} as const;

export const knownAppPaths: ReadonlySet<string> = new Set(Object.values(appRoutes));

/** Whether the app has a page at this path: one of appRoutes, or one of the operator console's. */
export function isAppPath(pathname: string): boolean {
  return knownAppPaths.has(pathname) || isAdminPath(pathname);
}

/** Public pages rendered to HTML at build time; the file name is what the server looks for in dist/pages. */
export const prerenderedPages = {
  '/': 'home',
  '/faq': 'faq',
  '/login': 'login',
  '/register': 'register',
} as const satisfies Record<string, string>;
