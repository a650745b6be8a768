import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/** One reading of a supplier's balance, in our cents: the series the spend rate is computed from. */
export const supplierBalanceReadings = pgTable(
  'supplier_balance_readings',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    provider: text().notNull(),
    balanceCents: bigint('balance_cents', { mode: 'number' }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('supplier_balance_readings_provider_idx').on(table.provider, table.readAt)],
);

export type SupplierBalanceReading = typeof supplierBalanceReadings.$inferSelect;

/** The operators' alert thresholds, one row (id 1); absent fields take the defaults of modules/alerts/settings.ts. */
export const alertSettings = pgTable(
  'alert_settings',
  {
    id: integer().primaryKey(),
    settings: jsonb().notNull().$type<Record<string, number>>(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [check('alert_settings_single_row', sql`${table.id} = 1`)],
);

export const alertChannelKinds = ['email', 'webhook', 'telegram'] as const;
export type AlertChannelKind = (typeof alertChannelKinds)[number];

/** Where an e-mail, webhook or Telegram channel sends; the secret (webhook key, bot token) is kept apart, sealed. */
export interface AlertChannelTarget {
  /** E-mail: the addresses. */
  addresses?: string[];
  /** Webhook: where the signed POST goes. */
  url?: string;
  /** Telegram: the chat the bot writes to. */
  chatId?: string;
  /** Telegram: the Bot API's base URL; null for the built-in stand-in. */
  apiBaseUrl?: string | null;
}

/** An operator alert channel configured in the console. */
export const alertChannels = pgTable(
  'alert_channels',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text({ enum: alertChannelKinds }).notNull(),
    name: text().notNull(),
    target: jsonb().notNull().$type<AlertChannelTarget>(),
    /** The webhook's signing key or the bot token, sealed with DATA_ENCRYPTION_KEY; null for e-mail. */
    secret: text(),
    enabled: boolean().notNull().default(true),
    /** The administrator who configured it: the mail outbox's rows name them as their user. */
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [check('alert_channels_kind_known', sql`${table.kind} in ('email', 'webhook', 'telegram')`)],
);

export type AlertChannel = typeof alertChannels.$inferSelect;

/**
 * One alert per condition (its key) while it holds: a second one for the same key cannot open until the
 * first is resolved, which is what deduplicates them across runs and instances.
 */
export const operatorAlerts = pgTable(
  'operator_alerts',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    conditionKey: text('condition_key').notNull(),
    kind: text().notNull(),
    summary: text().notNull(),
    /** The facts behind it (balances, spend rate, a buyer's counts) as the console and messages show them. */
    evidence: jsonb().notNull().$type<Record<string, unknown>>(),
    /** The console page that shows it, relative to PUBLIC_URL. */
    link: text().notNull(),
    /** Since when the condition holds (may be earlier than the alert: a provider down since ...). */
    since: timestamp({ withTimezone: true }).notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('operator_alerts_open_key').on(table.conditionKey).where(sql`${table.resolvedAt} is null`),
    index('operator_alerts_opened_idx').on(table.openedAt),
  ],
);

export type OperatorAlert = typeof operatorAlerts.$inferSelect;

export const alertEvents = ['opened', 'resolved'] as const;
export type AlertEvent = (typeof alertEvents)[number];

/**
 * The outbox of alert messages: one row per alert, channel and event, so each goes out exactly once; the
 * delivery job sends them with retries and backoff, at most the channel's hourly allowance.
 */
export const alertDeliveries = pgTable(
  'alert_deliveries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    alertId: bigint('alert_id', { mode: 'number' })
      .notNull()
      .references(() => operatorAlerts.id, { onDelete: 'cascade' }),
    channelId: integer('channel_id')
      .notNull()
      .references(() => alertChannels.id, { onDelete: 'cascade' }),
    event: text({ enum: alertEvents }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [
    uniqueIndex('alert_deliveries_once_key').on(table.alertId, table.channelId, table.event),
    index('alert_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.sentAt} is null and ${table.failedAt} is null`),
    index('alert_deliveries_channel_sent_idx').on(table.channelId, table.sentAt),
    check('alert_deliveries_event_known', sql`${table.event} in ('opened', 'resolved')`),
  ],
);
