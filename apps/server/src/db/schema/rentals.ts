import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * pending   money held, the upstream has not (yet) given a number — the reconciler settles stuck ones
 * active    number issued, receiving SMS until the end date
 * renewed   extended at least once, receiving SMS until the (new) end date
 * canceled  cancelled within 20 minutes before any SMS, or ended by the upstream early: refunded
 * expired   the end date passed
 * failed    the upstream refused the rent: refunded
 */
export const rentRowStatuses = ['pending', 'active', 'renewed', 'canceled', 'expired', 'failed'] as const;
export type RentRowStatus = (typeof rentRowStatuses)[number];
/** Rents that receive SMS and can be renewed, cancelled within the window, or expire. */
export const liveRentStatuses = ['active', 'renewed'] as const satisfies readonly RentRowStatus[];

export const rentPeriodUnits = ['hour', 'week', 'month'] as const;

export const rents = pgTable(
  'rents',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text().notNull(),
    /** The provider's rent id; never shown to users (their `order_id` is our id). */
    providerRentId: text('provider_rent_id'),
    countryId: text('country_id').notNull(),
    /** The service option key (`opt29`) the user chose. */
    serviceKey: text('service_key').notNull(),
    /** The canonical service code it was rented for upstream (`tg`). */
    service: text().notNull(),
    phoneNumber: text('phone_number'),
    /** The period bought: `count` × `unit`, `hours` in all. Weeks and months are renewable rents. */
    periodUnit: text('period_unit', { enum: rentPeriodUnits }).notNull(),
    periodCount: integer('period_count').notNull(),
    hours: integer().notNull(),
    autoRenew: boolean('auto_renew').notNull().default(false),
    /** Why the last automatic renewal could not run; cleared by a renewal or by switching it on again. */
    autoRenewError: text('auto_renew_error'),
    /** The end date an automatic renewal was attempted for: one attempt per period. */
    autoRenewAttemptedFor: timestamp('auto_renew_attempted_for', { withTimezone: true }),
    /** Price of the first period; renewals are charged in rent_renewals. */
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** What the upstream quoted for the first period, in its currency. */
    upstreamCost: numeric('upstream_cost', { precision: 14, scale: 6 }).notNull(),
    status: text({ enum: rentRowStatuses }).notNull(),
    /** A user-facing sentence explaining a refund or an early end. */
    statusReason: text('status_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** The spec's `end_date`: the upstream's, moved by each renewal. Null until the number is issued. */
    endsAt: timestamp('ends_at', { withTimezone: true }),
    /** When the sync last read this rent's SMS from the upstream (round-robin, oldest first). */
    lastSyncedAt: timestamp('last_synced_at', { withTimezone: true }),
    /** When the upstream was told the rent is over (finish after expiry); null while it is not. */
    upstreamClosedAt: timestamp('upstream_closed_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The API key that rented it (reseller API); null for rents from the web. */
    apiKeyId: integer('api_key_id'),
    /**
     * Where the buyer asked this rent's SMS to be delivered (the protocol's `getRentNumber&url=`), signed with
     * the key's secret; its key's callback URL when null.
     */
    webhookUrl: text('webhook_url'),
  },
  (table) => [
    index('rents_user_idx').on(table.userId, table.id),
    index('rents_api_key_idx').on(table.apiKeyId, table.createdAt).where(sql`${table.apiKeyId} is not null`),
    uniqueIndex('rents_provider_rent_key')
      .on(table.provider, table.providerRentId)
      .where(sql`${table.providerRentId} is not null`),
    // The jobs' work lists: live rents by end date (expiry, auto-renew) and by last sync (SMS sync).
    index('rents_live_ends_idx').on(table.endsAt).where(sql`${table.status} in ('active', 'renewed')`),
    index('rents_live_sync_idx')
      .on(table.lastSyncedAt.asc().nullsFirst(), table.id)
      .where(sql`${table.status} in ('active', 'renewed')`),
    index('rents_pending_idx').on(table.createdAt).where(sql`${table.status} = 'pending'`),
    check('rents_price_positive', sql`${table.priceCents} > 0`),
    check('rents_hours_positive', sql`${table.hours} > 0 and ${table.periodCount} > 0`),
    check(
      'rents_status_known',
      sql`${table.status} in ('pending', 'active', 'renewed', 'canceled', 'expired', 'failed')`,
    ),
    check('rents_period_unit_known', sql`${table.periodUnit} in ('hour', 'week', 'month')`),
  ],
);

export type RentRow = typeof rents.$inferSelect;

/**
 * pending   money held, the upstream's extension not confirmed yet — the reconciler settles stuck ones
 * done      the end date moved; the charge stands
 * failed    the upstream refused the extension: refunded
 * refunded  charged, then refunded with the whole rent (cancelled, or ended by the upstream)
 */
export const renewalStatuses = ['pending', 'done', 'failed', 'refunded'] as const;
export type RenewalStatus = (typeof renewalStatuses)[number];

/** Every renewal of a rent, by the user or automatic: each is charged and refunded on its own ledger keys. */
export const rentRenewals = pgTable(
  'rent_renewals',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    rentId: integer('rent_id')
      .notNull()
      .references(() => rents.id, { onDelete: 'restrict' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    hours: integer().notNull(),
    priceCents: bigint('price_cents', { mode: 'number' }).notNull(),
    /** The upstream's continue-rent price, in its currency. */
    upstreamCost: numeric('upstream_cost', { precision: 14, scale: 6 }).notNull(),
    automatic: boolean().notNull().default(false),
    /** The API key the renewal was made through (it counts against that key's caps); null otherwise. */
    apiKeyId: integer('api_key_id'),
    status: text({ enum: renewalStatuses }).notNull(),
    /** The rent's end date when the renewal started: the reconciler's reference. */
    previousEndsAt: timestamp('previous_ends_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('rent_renewals_rent_idx').on(table.rentId),
    index('rent_renewals_api_key_idx')
      .on(table.apiKeyId, table.createdAt)
      .where(sql`${table.apiKeyId} is not null`),
    // One renewal in flight per rent: a second one waits for the first to settle.
    uniqueIndex('rent_renewals_one_pending_key').on(table.rentId).where(sql`${table.status} = 'pending'`),
    check('rent_renewals_price_positive', sql`${table.priceCents} > 0`),
    check('rent_renewals_hours_positive', sql`${table.hours} > 0`),
    check('rent_renewals_status_known', sql`${table.status} in ('pending', 'done', 'failed', 'refunded')`),
  ],
);

export type RentRenewal = typeof rentRenewals.$inferSelect;

/** Every SMS a rented number received, however it reached us (webhook or sync). */
export const rentSmsMessages = pgTable(
  'rent_messages',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    rentId: integer('rent_id')
      .notNull()
      .references(() => rents.id, { onDelete: 'cascade' }),
    sender: text().notNull(),
    text: text().notNull(),
    code: text(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** The same SMS reported by the webhook and by the sync is stored once. */
    dedupeKey: text('dedupe_key').notNull(),
    /** Who pushed it to the webhook (the source address), for support's audit; null when our sync read it. */
    sourceAddress: text('source_address'),
    /**
     * Arrived after the rent ended (refunded, cancelled, or past its end date): kept for the operators and
     * the provider's record, never shown to the customer nor sent anywhere.
     */
    late: boolean().notNull().default(false),
  },
  (table) => [
    uniqueIndex('rent_messages_dedupe_key').on(table.rentId, table.dedupeKey),
    index('rent_messages_rent_idx').on(table.rentId, table.receivedAt),
  ],
);

export type RentSmsMessage = typeof rentSmsMessages.$inferSelect;
