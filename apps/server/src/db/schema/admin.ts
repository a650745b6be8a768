import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
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
