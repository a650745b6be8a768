import { z } from 'zod';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { DATABASE_ID_MAX, decimalInteger, plainText, validationMessages as say } from './wire';

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
  pricing: '/admin/pricing',
  providers: '/admin/providers',
  audit: '/admin/audit',
} as const;

/** Whether a path is one of the console's pages (the server serves the app for these, 200). */
export function isAdminPath(pathname: string): boolean {
  return /^\/admin(\/(users|orders|rents|payments)(\/[1-9][0-9]{0,9})?|\/(pricing|providers|audit))?$/.test(
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
}));

/** Why an administrator acts: required on every action, recorded in the audit log. */
export const reasonField = plainText(500).pipe(
  z
    .string()
    .trim()
    .min(3, { error: () => say.reasonRequired }),
);

const dollars = z
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

const isoDate = z.iso.date({ error: () => say.dateIso });

// ---------------------------------------------------------------- users

export const adminUsersQuerySchema = pageQuerySchema.extend({
  /** A username or e-mail (part of it), or a user id. */
  q: plainText(200).optional(),
});

export const adminUserRowSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  balance: z.number(),
  created_at: z.string(),
  blocked: z.boolean(),
  two_factor: z.boolean(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersResponseSchema = z.object({
  success: z.literal(true),
  users: z.array(adminUserRowSchema),
  next_before: z.number().nullable(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const adminSessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

export const adminApiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const adminTicketRowSchema = z.object({
  id: z.number(),
  subject: z.string(),
  status: z.string(),
  created_at: z.string(),
});

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  admin: z.string(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminUserDetailResponseSchema = z.object({
  success: z.literal(true),
  user: adminUserRowSchema.extend({
    blocked_reason: z.string().nullable(),
    blocked_at: z.string().nullable(),
  }),
  sessions: z.array(adminSessionSchema),
  api_keys: z.array(adminApiKeySchema),
  tickets: z.array(adminTicketRowSchema),
  audit: z.array(auditEntrySchema),
});
export type AdminUserDetailResponse = z.infer<typeof adminUserDetailResponseSchema>;

export const adminLedgerEntrySchema = z.object({
  id: z.number(),
  created_at: z.string(),
  kind: z.string(),
  amount: z.number(),
  balance_after: z.number(),
  reference_type: z.string(),
  reference_id: z.string(),
  note: z.string().nullable(),
});
export type AdminLedgerEntry = z.infer<typeof adminLedgerEntrySchema>;

export const adminLedgerResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(adminLedgerEntrySchema),
  next_before: z.number().nullable(),
});

export const adjustmentRequestSchema = z.object({
  /** Dollars: positive credits, negative debits. */
  amount: dollars,
  reason: reasonField,
  /** The same key applies the adjustment once, however often it is sent (a double click, a retry). */
  idempotency_key: plainText(100).min(8, { error: () => say.minLength(8) }),
});
export type AdjustmentRequest = z.input<typeof adjustmentRequestSchema>;

export const adminReasonRequestSchema = z.object({ reason: reasonField });
/** An action that has a reason of its own unless one is given (support's Close button); no body at all too. */
export const optionalReasonRequestSchema = z.preprocess(
  (body) => body ?? {},
  z.object({ reason: reasonField.optional() }),
);
export type AdminReasonRequest = z.input<typeof adminReasonRequestSchema>;

export const roleRequestSchema = z.object({ role: z.enum(['user', 'admin']), reason: reasonField });
export type RoleRequest = z.input<typeof roleRequestSchema>;

export const adminUserActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user: adminUserRowSchema,
});
export type AdminUserActionResponse = z.infer<typeof adminUserActionResponseSchema>;

// ---------------------------------------------------------------- orders

export const adminOrderStatuses = [
  'pending',
  'waiting',
  'received',
  'completed',
  'canceled',
  'expired',
  'failed',
] as const;

export const adminOrdersQuerySchema = pageQuerySchema.extend({
  status: z.enum(adminOrderStatuses).optional(),
  service: plainText(20).optional(),
  country: plainText(2).optional(),
  provider: plainText(40).optional(),
  user_id: decimalInteger(1, DATABASE_ID_MAX).optional(),
  /** Bought on or after this day (UTC). */
  from: isoDate.optional(),
  /** Bought on or before this day (UTC). */
  to: isoDate.optional(),
  /** Only orders marked as a problem. */
  problem: z.enum(['true']).optional(),
  /** A phone number (part of it) or an order id. */
  q: plainText(40).optional(),
});

export const adminOrderRowSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  username: z.string(),
  provider: z.string(),
  provider_order_id: z.string().nullable(),
  country_id: z.string(),
  operator: z.string(),
  service: z.string(),
  phone: z.string().nullable(),
  price: z.number(),
  status: z.enum(adminOrderStatuses),
  status_reason: z.string().nullable(),
  created_at: z.string(),
  code: z.string().nullable(),
  problem_note: z.string().nullable(),
});
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;

export const adminOrdersResponseSchema = z.object({
  success: z.literal(true),
  orders: z.array(adminOrderRowSchema),
  next_before: z.number().nullable(),
});
export type AdminOrdersResponse = z.infer<typeof adminOrdersResponseSchema>;

export const adminOrderDetailResponseSchema = z.object({
  success: z.literal(true),
  order: adminOrderRowSchema,
  /** Every call made to a provider about the order, with its answer, oldest first. */
  upstream: z.array(
    z.object({
      at: z.string(),
      provider: z.string(),
      action: z.string(),
      outcome: z.string(),
      detail: z.string().nullable(),
      latency_ms: z.number().nullable(),
    }),
  ),
  messages: z.array(
    z.object({ received_at: z.string(), code: z.string().nullable(), text: z.string(), late: z.boolean() }),
  ),
  ledger: z.array(adminLedgerEntrySchema),
  audit: z.array(auditEntrySchema),
});
export type AdminOrderDetailResponse = z.infer<typeof adminOrderDetailResponseSchema>;

export const refundRequestSchema = z.object({
  reason: reasonField,
  /** Refund although a code arrived (the code did not work). */
  force: z
    .boolean({ error: () => say.mustBeTrueOrFalse })
    .optional()
    .default(false),
});
export type RefundRequest = z.input<typeof refundRequestSchema>;

export const adminOrderActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  order: adminOrderRowSchema,
});
export type AdminOrderActionResponse = z.infer<typeof adminOrderActionResponseSchema>;

// ---------------------------------------------------------------- rents

export const adminRentStatuses = ['pending', 'active', 'renewed', 'canceled', 'expired', 'failed'] as const;

export const adminRentsQuerySchema = pageQuerySchema.extend({
  status: z.enum(adminRentStatuses).optional(),
  service: plainText(20).optional(),
  country: plainText(2).optional(),
  provider: plainText(40).optional(),
  user_id: decimalInteger(1, DATABASE_ID_MAX).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** A phone number (part of it) or a rent id. */
  q: plainText(40).optional(),
});

export const adminRentListRowSchema = z.object({
  id: z.number(),
  provider: z.string(),
  country_id: z.string(),
  service: z.string(),
  phone: z.string().nullable(),
  price: z.number(),
  status: z.string(),
  created_at: z.string(),
  ends_at: z.string().nullable(),
  user_id: z.number(),
  username: z.string(),
  provider_rent_id: z.string().nullable(),
  period: z.string(),
  status_reason: z.string().nullable(),
  /** The first period and every renewal charged, in dollars. */
  charged: z.number(),
});
export type AdminRentListRow = z.infer<typeof adminRentListRowSchema>;

export const adminRentsResponseSchema = z.object({
  success: z.literal(true),
  rents: z.array(adminRentListRowSchema),
  next_before: z.number().nullable(),
});
export type AdminRentsResponse = z.infer<typeof adminRentsResponseSchema>;

export const adminRentDetailResponseSchema = z.object({
  success: z.literal(true),
  rent: adminRentListRowSchema,
  messages: z.array(
    z.object({ received_at: z.string(), sender: z.string(), code: z.string().nullable(), text: z.string() }),
  ),
  renewals: z.array(
    z.object({
      id: z.number(),
      created_at: z.string(),
      hours: z.number(),
      price: z.number(),
      status: z.string(),
      automatic: z.boolean(),
    }),
  ),
  ledger: z.array(adminLedgerEntrySchema),
  audit: z.array(auditEntrySchema),
});
export type AdminRentDetailResponse = z.infer<typeof adminRentDetailResponseSchema>;

export const adminRentActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  rent: adminRentListRowSchema,
});
export type AdminRentActionResponse = z.infer<typeof adminRentActionResponseSchema>;

// ---------------------------------------------------------------- payments

export const adminPaymentsQuerySchema = pageQuerySchema.extend({
  status: plainText(40).optional(),
  user_id: decimalInteger(1, DATABASE_ID_MAX).optional(),
  /** An order id or the provider's invoice id (part of it). */
  q: plainText(100).optional(),
});

export const adminPaymentRowSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  username: z.string(),
  order_id: z.string(),
  provider: z.string(),
  provider_payment_id: z.string().nullable(),
  provider_status: z.string().nullable(),
  amount: z.number(),
  credited: z.number().nullable(),
  status: z.string(),
  created_at: z.string(),
});
export type AdminPaymentRow = z.infer<typeof adminPaymentRowSchema>;

export const adminPaymentsResponseSchema = z.object({
  success: z.literal(true),
  payments: z.array(adminPaymentRowSchema),
  next_before: z.number().nullable(),
});

export const adminPaymentDetailResponseSchema = z.object({
  success: z.literal(true),
  payment: adminPaymentRowSchema,
  /** Every authenticated webhook and payment-info answer, as received. */
  events: z.array(
    z.object({
      received_at: z.string(),
      source: z.string(),
      status: z.string(),
      amount: z.number().nullable(),
      paid_amount_usd: z.number().nullable(),
      raw_body: z.string().nullable(),
    }),
  ),
  ledger: z.array(adminLedgerEntrySchema),
  audit: z.array(auditEntrySchema),
});
export type AdminPaymentDetailResponse = z.infer<typeof adminPaymentDetailResponseSchema>;

export const paymentCreditRequestSchema = z.object({
  amount: dollars.refine((value) => value > 0, { error: () => say.moreThanZero }),
  reason: reasonField,
});
export type PaymentCreditRequest = z.input<typeof paymentCreditRequestSchema>;

export const adminPaymentActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  payment: adminPaymentRowSchema,
});

// ---------------------------------------------------------------- pricing

const markupPercent = z
  .number({ error: (issue) => (issue.input === undefined ? say.isRequired : say.mustBeNumber) })
  .min(0, { error: () => say.atLeast(0) })
  .max(1000, { error: () => say.atMost(1000) })
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    error: () => say.twoDecimals,
  });

export const markupOverrideSchema = z
  .object({
    /** A service code, or null for every service. */
    service: plainText(20)
      .pipe(z.string().regex(/^[a-z0-9]{1,20}$/, { error: () => say.serviceCode }))
      .nullable(),
    /** A country id (ISO alpha-2), or null for every country. */
    country_id: plainText(2)
      .pipe(z.string().regex(/^[A-Z]{2}$/, { error: () => say.countryCode }))
      .nullable(),
    percent: markupPercent,
  })
  .refine((override) => override.service !== null || override.country_id !== null, {
    error: () => say.serviceOrCountry,
  });
export type MarkupOverride = z.infer<typeof markupOverrideSchema>;

export const pricingRulesSchema = z.object({
  default_percent: markupPercent,
  overrides: z.array(markupOverrideSchema).max(2000, { error: () => say.maxOverrides(2000) }),
});
export type PricingRules = z.infer<typeof pricingRulesSchema>;

export const pricingResponseSchema = z.object({
  success: z.literal(true),
  rules: pricingRulesSchema,
  history: z.array(auditEntrySchema),
});
export type PricingResponse = z.infer<typeof pricingResponseSchema>;

export const pricingUpdateRequestSchema = pricingRulesSchema.extend({ reason: reasonField });
export type PricingUpdateRequest = z.input<typeof pricingUpdateRequestSchema>;

export const pricingPreviewRequestSchema = pricingRulesSchema.extend({
  service: plainText(20).pipe(z.string().regex(/^[a-z0-9]{1,20}$/, { error: () => say.serviceCode })),
});
export type PricingPreviewRequest = z.input<typeof pricingPreviewRequestSchema>;

export const pricingPreviewResponseSchema = z.object({
  success: z.literal(true),
  service: z.string(),
  countries: z.array(
    z.object({
      country_id: z.string(),
      country: z.string(),
      current_price: z.number(),
      new_price: z.number(),
      cost: z.number(),
      stock: z.number(),
    }),
  ),
});
export type PricingPreviewResponse = z.infer<typeof pricingPreviewResponseSchema>;

// ---------------------------------------------------------------- providers

export const adminProviderSchema = z.object({
  name: z.string(),
  kind: z.string(),
  in_routing: z.boolean(),
  /** In US dollars; null when the provider could not be asked. */
  balance: z.number().nullable(),
  rents: z.boolean(),
  health: z.object({
    calls: z.number(),
    average_latency_ms: z.number().nullable(),
    error_rate: z.number(),
    no_numbers_rate: z.number(),
    delivery_rate: z.number(),
    time_to_code_ms: z.number().nullable(),
    cooling_until: z.string().nullable(),
  }),
  recent_errors: z.array(z.object({ at: z.string(), message: z.string() })),
});
export type AdminProvider = z.infer<typeof adminProviderSchema>;

export const adminProvidersResponseSchema = z.object({
  success: z.literal(true),
  providers: z.array(adminProviderSchema),
});
export type AdminProvidersResponse = z.infer<typeof adminProvidersResponseSchema>;

export const providerRoutingRequestSchema = z.object({
  in_routing: z.boolean({ error: () => say.mustBeTrueOrFalse }),
  reason: reasonField,
});
export type ProviderRoutingRequest = z.input<typeof providerRoutingRequestSchema>;

// ---------------------------------------------------------------- overview

export const overviewQuerySchema = z.object({ days: z.enum(['1', '7', '30']).optional().default('7') });

export const overviewFiguresSchema = z.object({
  /** Sales minus refunds, in dollars. */
  revenue: z.number(),
  /** What the providers charged for the numbers sold, in dollars (their listed cost). */
  cost: z.number(),
  margin: z.number(),
  topups: z.number(),
  orders_with_code: z.number(),
  orders_refunded: z.number(),
  orders_canceled: z.number(),
  /** Share of settled orders that got a code, 0 to 1; null without settled orders. */
  delivery_rate: z.number().nullable(),
  median_time_to_code_ms: z.number().nullable(),
  active_users: z.number(),
});
export type OverviewFigures = z.infer<typeof overviewFiguresSchema>;

export const overviewResponseSchema = z.object({
  success: z.literal(true),
  days: z.number(),
  totals: overviewFiguresSchema,
  /** One point per day (UTC), oldest first; per hour for a one-day range. */
  series: z.array(overviewFiguresSchema.extend({ start: z.string() })),
  open_tickets: z.number(),
  providers: z.array(z.object({ name: z.string(), balance: z.number().nullable() })),
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;

// ---------------------------------------------------------------- audit

export const auditQuerySchema = longPageQuerySchema.extend({
  /** An administrator's name, an action or a reason (part of it). */
  q: plainText(200).optional(),
  object_type: plainText(20).optional(),
  object_id: plainText(100).optional(),
});

export const auditResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(auditEntrySchema),
  next_before: z.number().nullable(),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;
