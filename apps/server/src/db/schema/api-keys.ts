import { apiKeyScopes } from '@simcode/contract';
import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * Keys for the reseller API (the SMS-Activate protocol and the MCP server). Only a SHA-256 of the key is
 * kept: keys are 32 random bytes, so a fast hash is enough and a lookup by hash is the check.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** The key's first characters, shown so the owner can tell keys apart. */
    prefix: text().notNull(),
    /** Hex SHA-256 of the whole key. */
    keyHash: text('key_hash').notNull(),
    /** Addresses and CIDR ranges the key may be used from; empty means anywhere. */
    allowedIps: text('allowed_ips').array().notNull().default(sql`'{}'::text[]`),
    dailyCapCents: bigint('daily_cap_cents', { mode: 'number' }),
    totalCapCents: bigint('total_cap_cents', { mode: 'number' }),
    maxActiveOrders: integer('max_active_orders'),
    /** HTTPS URL each SMS of this key's orders is POSTed to. */
    callbackUrl: text('callback_url'),
    /** HMAC-SHA256 key of the callback's signature; kept in clear because the server signs with it. */
    webhookSecret: text('webhook_secret').notNull(),
    /** What the key may do: everything, read only, or buy (and read only what it bought). */
    scope: text({ enum: apiKeyScopes }).notNull().default('full'),
    /** The most one purchase through the key may cost; null for no ceiling. */
    maxPriceCents: bigint('max_price_cents', { mode: 'number' }),
    /** Offers whose known delivery rate is below this share are refused; null for no floor. */
    minDeliveryRate: doublePrecision('min_delivery_rate'),
    /** The key pauses after this many orders in a row ended without a code; null never. */
    stopAfterFailures: integer('stop_after_failures'),
    /** Orders bought through the key that ended without a code since the last one that got one. */
    failuresInARow: integer('failures_in_a_row').notNull().default(0),
    /** When the key paused itself (stopAfterFailures reached); purchases are refused until its owner resumes it. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('api_keys_hash_key').on(table.keyHash),
    check('api_keys_scope_known', sql`${table.scope} in ('full', 'read', 'buy')`),
    check(
      'api_keys_guards_valid',
      sql`coalesce(${table.maxPriceCents}, 1) > 0 and coalesce(${table.minDeliveryRate}, 0) between 0 and 1 and coalesce(${table.stopAfterFailures}, 1) > 0`,
    ),
    index('api_keys_user_idx').on(table.userId, table.id),
    check(
      'api_keys_caps_positive',
      sql`coalesce(${table.dailyCapCents}, 1) > 0 and coalesce(${table.totalCapCents}, 1) > 0 and coalesce(${table.maxActiveOrders}, 1) > 0`,
    ),
  ],
);

export type ApiKey = typeof apiKeys.$inferSelect;

/** What happened to a key that its owner should see: refusals by a cap, and the like. */
export const apiKeyEvents = pgTable(
  'api_key_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull(),
    kind: text().notNull(),
    detail: text().notNull(),
  },
  (table) => [index('api_key_events_key_idx').on(table.apiKeyId, table.id)],
);

export const webhookDeliveryKinds = ['activation_sms', 'rent_sms', 'test'] as const;
export const webhookDeliveryStatuses = ['pending', 'delivered', 'failed'] as const;

/**
 * The outbox of customer webhooks: a row per SMS to push, written by a database trigger in the transaction
 * that stores the SMS, delivered (and retried) by a job. It is also the delivery log the owner sees.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    kind: text({ enum: webhookDeliveryKinds }).notNull(),
    /** activation_messages.id or rent_messages.id; null for a test delivery. */
    messageId: bigint('message_id', { mode: 'number' }),
    /** The JSON body, fixed at the first attempt so every retry sends and signs the same bytes. */
    body: text(),
    status: text({ enum: webhookDeliveryStatuses }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('webhook_deliveries_due_idx').on(table.nextAttemptAt).where(sql`${table.status} = 'pending'`),
    index('webhook_deliveries_key_idx').on(table.apiKeyId, table.id),
  ],
);

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;

/** "Another SMS" requests (setStatus 3) on API orders: getStatus answers STATUS_WAIT_RETRY until one arrives. */
export const activationRetryRequests = pgTable('activation_retry_requests', {
  activationId: integer('activation_id').primaryKey(),
  requestedAt: timestamp('requested_at', { withTimezone: true }).notNull(),
  /** How many SMS the order had when the request was made. */
  messagesBefore: integer('messages_before').notNull(),
});

/**
 * Idempotency keys of the MCP server's purchases: the same key and idempotency key buy once. The row is
 * claimed before the purchase (order id still null) so that a concurrent retry cannot buy a second time.
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    apiKeyId: integer('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull(),
    /** A digest of what was asked: the same key with other arguments is refused, not answered with the first. */
    requestHash: text('request_hash'),
    activationId: integer('activation_id'),
    /** The JSON API's answer to the write, replayed as it was to a repeat of the request. */
    responseStatus: integer('response_status'),
    responseBody: jsonb('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.apiKeyId, table.idempotencyKey] })],
);
