import { z } from 'zod';
import { defineMessages } from '../i18n/define-messages';
import en from '../i18n/locales/en.json';
import { DATABASE_ID_MAX, decimalInteger, plainText, validationMessages as say } from '../wire';

/**
 * The operator console (`/admin`) and its API under `/api/admin`. Administrators only: the server answers
 * 401 to a visitor and 403 to a user, and the web app shows them its 404 page, so the console is not
 * advertised. Every action names a reason, is recorded in the audit log in the transaction of the change, and answers the object after it.
 * Lists are newest first, paginated by keyset: pass the last row's id as `before` for the next page.
 */

/** The console's pages. */
export const adminRoutes = {
  overview: '/admin',
  users: '/admin/users',
  user: (id: number | string) => `/admin/users/${id}`,
  orders: '/admin/orders',
  order: (id: number | string) => `/admin/orders/${id}`,
  rents: '/admin/rents',
  rent: (id: number | string) => `/admin/rents/${id}`,
  payments: '/admin/payments',
  payment: (id: number | string) => `/admin/payments/${id}`,
  paymentProviders: '/admin/payment-providers',
  pricing: '/admin/pricing',
  providers: '/admin/providers',
  reconciliation: '/admin/reconciliation',
  alerts: '/admin/alerts',
  audit: '/admin/audit',
  incidents: '/admin/incidents',
} as const;

/** Whether a path is one of the console's pages (the server serves the app for these, 200). */
export function isAdminPath(pathname: string): boolean {
  return /^\/admin(\/(users|orders|rents|payments)(\/[1-9][0-9]{0,9})?|\/(payment-providers|pricing|providers|reconciliation|alerts|audit|incidents))?$/.test(
    pathname,
  );
}

export const ADMIN_PAGE_SIZE_MAX = 100;
export const ADMIN_PAGE_SIZE_DEFAULT = 50;
/** The largest single balance adjustment, either way: far above any real compensation, far below overflow. */
export const ADJUSTMENT_MAX_DOLLARS = 1_000_000;

export const adminMessages = defineMessages('admin', en.admin, (t) => ({
  credited: (amount: string, username: string) => t('credited', { amount, username }),
  debited: (amount: string, username: string) => t('debited', { amount, username }),
  blocked: (username: string) => t('blocked', { username }),
  unblocked: (username: string) => t('unblocked', { username }),
  promoted: (username: string) => t('promoted', { username }),
  demoted: (username: string) => t('demoted', { username }),
  twoFactorReset: (username: string) => t('twoFactorReset', { username }),
  signedOut: (username: string) => t('signedOut', { username }),
  refunded: (amount: string) => t('refunded', { amount }),
  rentRefunded: (amount: string) => t('rentRefunded', { amount }),
  paymentReconciled: (status: string) => t('paymentReconciled', { status }),
  paymentCredited: (amount: string) => t('paymentCredited', { amount }),
  providerDisabled: (name: string) => t('providerDisabled', { name }),
  providerEnabled: (name: string) => t('providerEnabled', { name }),
  noSuchCountry: (code: string) => t('noSuchCountry', { code }),
  noSuchService: (code: string) => t('noSuchService', { code }),
}));

/** Why an administrator acts: required on every action, recorded in the audit log. */
export const reasonField = plainText(500).pipe(
  z
    .string()
    .trim()
    .min(3, { error: () => say.reasonRequired }),
);

export const dollars = z
  .number({ error: (issue) => (issue.input === undefined ? say.isRequired : say.mustBeNumber) })
  .min(-ADJUSTMENT_MAX_DOLLARS, { error: () => say.atLeast(-ADJUSTMENT_MAX_DOLLARS) })
  .max(ADJUSTMENT_MAX_DOLLARS, { error: () => say.atMost(ADJUSTMENT_MAX_DOLLARS) })
  .refine((value) => value !== 0, { error: () => say.notZero })
  .refine((value) => Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    error: () => say.twoDecimals,
  });

const pageSize = decimalInteger(1, ADMIN_PAGE_SIZE_MAX).optional().default(ADMIN_PAGE_SIZE_DEFAULT);

/** `before` and `limit` of a list of rows with integer ids (users, orders, payments). */
export const pageQuerySchema = z.object({
  before: decimalInteger(1, DATABASE_ID_MAX).optional(),
  limit: pageSize,
});

/** The same for rows with 64-bit ids (ledger entries, audit entries). */
export const longPageQuerySchema = z.object({
  before: decimalInteger(1, Number.MAX_SAFE_INTEGER).optional(),
  limit: pageSize,
});

export const isoDate = z.iso.date({ error: () => say.dateIso });
