import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * pending    invoice open, or paid and waiting for confirmations; the reconciliation job watches these
 * completed  credited to the balance (exactly once: ledger key `topup:<provider>:<provider payment id>`)
 * underpaid  less than the invoice arrived (`wrong_amount`): support decides, nothing is credited
 * canceled   closed unpaid before its lifetime ended
 * failed     the provider reported an error, or refused to create the invoice
 * expired    its lifetime ended unpaid
 * Every state but completed may still become completed: a late confirmation of a payment is credited.
 */
export const paymentStatuses = [
  'pending',
  'completed',
  'underpaid',
  'canceled',
  'failed',
  'expired',
] as const;
export type PaymentState = (typeof paymentStatuses)[number];

/**
 * A user's permanent deposit address (a Cryptomus-kind "static wallet") for one coin on one network at one
 * provider. The row exists before the provider is asked, so concurrent requests agree on one `order_id`
 * through the unique key, and the provider returns the same wallet for it however often it is asked.
 */
export const depositAddresses = pgTable(
  'deposit_addresses',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text().notNull(),
    /** Coin and network as the provider writes them (`USDT`, `tron`). */
    currency: text().notNull(),
    network: text().notNull(),
    /** Ours, sent as the wallet's `order_id`; every deposit's webhook names it. */
    orderId: text('order_id').notNull(),
    /** The provider's wallet uuid, its address and hosted page; null until the provider created it. */
    walletUuid: text('wallet_uuid'),
    address: text(),
    paymentUrl: text('payment_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    uniqueIndex('deposit_addresses_order_id_key').on(table.orderId),
    // One permanent address per user, provider, coin and network, however many requests race for it.
    uniqueIndex('deposit_addresses_user_coin_key').on(
      table.userId,
      table.provider,
      table.currency,
      table.network,
    ),
  ],
);

export type DepositAddress = typeof depositAddresses.$inferSelect;

/** A balance top-up: our invoice at the payment provider, or one deposit to a user's deposit address. */
export const payments = pgTable(
  'payments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    provider: text().notNull(),
    /** Ours, sent as the provider's order_id: random, so nobody can guess another user's. */
    orderId: text('order_id').notNull(),
    /** The provider's invoice id; null until the provider confirmed the invoice exists. */
    providerPaymentId: text('provider_payment_id'),
    /** The invoice amount in US cents. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    status: text({ enum: paymentStatuses }).notNull(),
    /** The provider's latest status as read from its payment info (never from a webhook body). */
    providerStatus: text('provider_status'),
    /** The hosted payment page. */
    paymentUrl: text('payment_url'),
    /** What the ledger credited; above amount_cents when the payer paid over. */
    creditedCents: bigint('credited_cents', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
    /** End of the invoice's lifetime at the provider. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    creditedAt: timestamp('credited_at', { withTimezone: true }),
    /** When we last asked the provider about it; the reconciliation job takes the oldest first. */
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    /**
     * Set for a deposit to a deposit address: then `provider_payment_id` is the deposit's payment uuid,
     * `amount_cents` the processor's USD value of it, and there is no invoice to pay.
     */
    depositAddressId: integer('deposit_address_id').references(() => depositAddresses.id, {
      onDelete: 'restrict',
    }),
  },
  (table) => [
    uniqueIndex('payments_order_id_key').on(table.orderId),
    // One row per provider invoice: a second credit for the same payment has nowhere to go.
    uniqueIndex('payments_provider_payment_id_key').on(table.providerPaymentId),
    index('payments_user_idx').on(table.userId, table.id),
    index('payments_pending_idx').on(table.lastCheckedAt).where(sql`${table.status} = 'pending'`),
    check('payments_amount_positive', sql`${table.amountCents} > 0`),
    check('payments_credited_positive', sql`${table.creditedCents} is null or ${table.creditedCents} > 0`),
    check(
      'payments_status_known',
      sql`${table.status} in ('pending', 'completed', 'underpaid', 'canceled', 'failed', 'expired')`,
    ),
  ],
);

export type Payment = typeof payments.$inferSelect;

export const paymentEventSources = ['webhook', 'poll'] as const;
export type PaymentEventSource = (typeof paymentEventSources)[number];

/**
 * Every authenticated webhook and every payment-info answer, as received: what support looks at when a
 * payer says "I paid". Webhooks keep their exact signed body; polls keep the fields we read.
 */
export const paymentEvents = pgTable(
  'payment_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    /** Null for a correctly signed webhook about an order we do not have. */
    paymentId: integer('payment_id').references(() => payments.id, { onDelete: 'restrict' }),
    orderId: text('order_id').notNull(),
    providerPaymentId: text('provider_payment_id'),
    source: text({ enum: paymentEventSources }).notNull(),
    status: text().notNull(),
    isFinal: boolean('is_final').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }),
    paidAmountUsdCents: bigint('paid_amount_usd_cents', { mode: 'number' }),
    rawBody: text('raw_body'),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull(),
    /** A webhook's body hash: a replayed delivery is counted on the first row, never stored again. */
    dedupeKey: text('dedupe_key').unique(),
    /** How many times this same event arrived again, and when it last did. */
    repeatCount: integer('repeat_count').notNull().default(0),
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true }),
  },
  (table) => [
    index('payment_events_payment_idx').on(table.paymentId, table.id),
    check('payment_events_source_known', sql`${table.source} in ('webhook', 'poll')`),
  ],
);

export type PaymentEvent = typeof paymentEvents.$inferSelect;
