import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * Every administrator action: who, when, what, on which object, the object before and after, and why.
 * Written in the transaction of the change it records; a trigger refuses updates and deletes.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    at: timestamp({ withTimezone: true }).notNull(),
    adminId: integer('admin_id').notNull(),
    adminUsername: text('admin_username').notNull(),
    /** What was done, e.g. `user.block`, `order.refund`, `pricing.update`. */
    action: text().notNull(),
    /** `user`, `order`, `rent`, `payment`, `pricing`, `provider`. */
    objectType: text('object_type').notNull(),
    objectId: text('object_id').notNull(),
    before: jsonb(),
    after: jsonb(),
    reason: text().notNull(),
  },
  (table) => [
    index('audit_log_object_idx').on(table.objectType, table.objectId, table.id),
    index('audit_log_admin_idx').on(table.adminId, table.id),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;

/**
 * The markup rules, edited in the console: one row per scope. `service` and `country_id` empty for the
 * global markup, one of them for a per-service or per-country override, both for a pair. Each change is in
 * the audit log with the rules before and after (the history).
 */
export const pricingRules = pgTable(
  'pricing_rules',
  {
    service: text().notNull().default(''),
    countryId: text('country_id').notNull().default(''),
    markupPercent: numeric('markup_percent', { precision: 7, scale: 2 }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('pricing_rules_scope_key').on(table.service, table.countryId),
    check('pricing_rules_markup_range', sql`${table.markupPercent} >= 0 and ${table.markupPercent} <= 1000`),
  ],
);

export type PricingRule = typeof pricingRules.$inferSelect;

/** A provider an administrator took out of routing (no row: in routing). */
export const providerSettings = pgTable('provider_settings', {
  provider: text().primaryKey(),
  routingEnabled: boolean('routing_enabled').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});

/** Time-to-code histogram buckets: 5 seconds wide, the last one for everything from 20 minutes on. */
export const TIME_TO_CODE_BUCKET_MS = 5_000;
export const TIME_TO_CODE_BUCKETS = 241;

/**
 * The business by hour, for the console's overview: recomputed from the ledger and the orders by a job
 * (the current and previous hours every minute, older hours once), so the overview reads at most 720 rows
 * for 30 days however many orders there are. Money in cents; cost is what the providers listed.
 */
export const businessHours = pgTable('business_hours', {
  hour: timestamp({ withTimezone: true }).primaryKey(),
  salesCents: bigint('sales_cents', { mode: 'number' }).notNull(),
  refundsCents: bigint('refunds_cents', { mode: 'number' }).notNull(),
  costCents: bigint('cost_cents', { mode: 'number' }).notNull(),
  topupsCents: bigint('topups_cents', { mode: 'number' }).notNull(),
  ordersWithCode: integer('orders_with_code').notNull(),
  ordersRefunded: integer('orders_refunded').notNull(),
  ordersCanceled: integer('orders_canceled').notNull(),
  /** Distinct users with a ledger entry in the hour. */
  activeUsers: integer('active_users').notNull(),
  /** Orders of the hour that got their first code, counted per TIME_TO_CODE_BUCKET_MS. */
  timeToCode: integer('time_to_code').array().notNull(),
  computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
});

/** Who was active on a day (a ledger entry): distinct users over any range of days. */
export const activeUsersDaily = pgTable(
  'active_users_daily',
  {
    day: date().notNull(),
    userId: integer('user_id').notNull(),
  },
  (table) => [primaryKey({ columns: [table.day, table.userId] })],
);

/**
 * Each instance's record of its purchase calls to each provider (calls, latency, errors, cool-down), written
 * every few seconds: calls are counted per process, and the console's providers page, answered by any one
 * instance, combines the fresh reports of all of them. Keyed by a process's random id; a report older than
 * a minute is not read, older than a day is deleted.
 */
export const providerHealthReports = pgTable(
  'provider_health_reports',
  {
    instance: text().notNull(),
    provider: text().notNull(),
    calls: integer().notNull(),
    averageLatencyMs: doublePrecision('average_latency_ms'),
    errorRate: doublePrecision('error_rate').notNull(),
    noNumbersRate: doublePrecision('no_numbers_rate').notNull(),
    coolingUntil: timestamp('cooling_until', { withTimezone: true }),
    /** The last failed calls, newest first: `{ at, message }`. */
    recentErrors: jsonb('recent_errors').notNull(),
    reportedAt: timestamp('reported_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.instance, table.provider] })],
);
