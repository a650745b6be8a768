import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  json,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * pending   money held, the upstream has not (yet) given a number — the reconciler settles stuck ones
 * waiting   number issued, no SMS yet
 * received  at least one SMS arrived (not refundable any more)
 * completed lifetime over with an SMS
 * canceled  the user cancelled before any SMS: refunded
 * expired   20 minutes without SMS: refunded
 * failed    the upstream refused the purchase: refunded
 */
export const activationStatuses = [
  'pending',
  'waiting',
  'received',
  'completed',
  'canceled',
  'expired',
  'failed',
] as const;
export type ActivationStatus = (typeof activationStatuses)[number];
/** Orders the background sync keeps an eye on. */
export const liveActivationStatuses = [
  'pending',
  'waiting',
  'received',
] as const satisfies readonly ActivationStatus[];
export const refundedActivationStatuses = [
  'canceled',
  'expired',
  'failed',
] as const satisfies readonly ActivationStatus[];

export const activations = pgTable(
  'activations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text().notNull(),
    /** The provider's activation id; never shown to users (their `number_id` is our `id`). */
    providerActivationId: text('provider_activation_id'),
    countryId: text('country_id').notNull(),
    operator: text().notNull().default('any'),
    service: text().notNull(),
    phoneNumber: text('phone_number'),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** What we let the upstream charge, in its currency (maxPrice of the buy call). */
    upstreamMaxPrice: numeric('upstream_max_price', { precision: 14, scale: 6 }).notNull(),
    status: text({ enum: activationStatuses }).notNull(),
    /** A user-facing sentence explaining a failure or refund. */
    statusReason: text('status_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** End of the activation's life; set from the purchase time (20 minutes). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The API key that bought it (reseller API); null for orders from the web. */
    apiKeyId: integer('api_key_id'),
    /** An operator's note that something is wrong with the order (set from the console). */
    problemNote: text('problem_note'),
    /**
     * The buyer gave the number back (it matched their phoneException) before the provider allowed a
     * cancel: the sync cancels it there as soon as it can, and refunds it then.
     */
    givenBackAt: timestamp('given_back_at', { withTimezone: true }),
  },
  (table) => [
    index('activations_user_idx').on(table.userId, table.id),
    // Recent orders by time: the delivery statistics' 7-day window, the operators' reports.
    index('activations_created_idx').on(table.createdAt),
    index('activations_api_key_idx')
      .on(table.apiKeyId, table.createdAt)
      .where(sql`${table.apiKeyId} is not null`),
    uniqueIndex('activations_provider_activation_key')
      .on(table.provider, table.providerActivationId)
      .where(sql`${table.providerActivationId} is not null`),
    index('activations_live_idx')
      .on(table.status, table.expiresAt)
      .where(sql`${table.status} in ('pending', 'waiting', 'received')`),
    check('activations_price_positive', sql`${table.priceCents} > 0`),
    check(
      'activations_status_known',
      sql`${table.status} in ('pending', 'waiting', 'received', 'completed', 'canceled', 'expired', 'failed')`,
    ),
  ],
);

export type Activation = typeof activations.$inferSelect;

/** Every SMS an activation received; more than one when another code was requested. */
export const activationMessages = pgTable(
  'activation_messages',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    activationId: integer('activation_id')
      .notNull()
      .references(() => activations.id, { onDelete: 'cascade' }),
    code: text(),
    text: text().notNull(),
    /** Who sent it (a name or a number), where the upstream says. */
    sender: text(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The same SMS reported by a webhook and by the sync job is stored once. */
    dedupeKey: text('dedupe_key').notNull(),
    /** Who pushed it to the webhook (the source address), for support's audit; null when our sync read it. */
    sourceAddress: text('source_address'),
    /**
     * Arrived after the order closed (canceled, expired, failed, completed): kept for the operators and the
     * provider's record, never the order's code.
     */
    late: boolean().notNull().default(false),
  },
  (table) => [uniqueIndex('activation_messages_dedupe_key').on(table.activationId, table.dedupeKey)],
);

export type ActivationMessage = typeof activationMessages.$inferSelect;

/**
 * The last good catalog fetched from each upstream, shared by every instance. `json`, not `jsonb`: it is
 * only ever written and read whole, and PGlite parsing a megabyte into jsonb's tree grew its memory by some
 * 15 MB more per write (ADR 0036).
 */
export const catalogSnapshots = pgTable('catalog_snapshots', {
  provider: text().primaryKey(),
  fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
  data: json().notNull(),
});

/**
 * Delivery over the last 7 days, from our own orders: settled orders (ended with a code, or expired
 * without one) and those that got a code, with the median time to the first code. Computed by one instance
 * every minute and read by all, so routing and the shop agree across instances. `*` in a key column means
 * "all": (provider, service, country) pairs, each provider overall, and across providers per (service,
 * country) and per (service, country, operator).
 */
export const deliveryStats = pgTable(
  'delivery_stats',
  {
    provider: text().notNull(),
    service: text().notNull(),
    countryId: text('country_id').notNull(),
    operator: text().notNull(),
    orders: integer().notNull(),
    delivered: integer().notNull(),
    medianTimeToCodeMs: integer('median_time_to_code_ms'),
    computedAt: timestamp('computed_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.service, table.countryId, table.operator] })],
);

export type DeliveryStat = typeof deliveryStats.$inferSelect;

/**
 * Services and (service, country) pairs a user starred: shown first on the dashboard. `country_id` is ''
 * for a service starred in every country (a primary key cannot hold null).
 */
export const favourites = pgTable(
  'favourites',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    service: text().notNull(),
    countryId: text('country_id').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.service, table.countryId] })],
);
