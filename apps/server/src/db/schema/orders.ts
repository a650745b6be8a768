import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** The two kinds of order: one-time activations and rents. */
export const orderKinds = ['activation', 'rent'] as const;
export type OrderKind = (typeof orderKinds)[number];

/**
 * Every call made to a provider about an order or a rent, with its answer: each purchase attempt (the
 * failover's path), cancels, finishes, another-SMS requests, support's ending of a refunded order. The
 * operators' view of an order's history; written after the call, never part of the money's transactions.
 */
export const orderEvents = pgTable(
  'order_events',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    orderKind: text('order_kind', { enum: orderKinds }).notNull().default('activation'),
    orderId: integer('order_id').notNull(),
    at: timestamp({ withTimezone: true }).notNull(),
    provider: text().notNull(),
    /** `buy`, `cancel`, `finish`, `another_sms`. */
    action: text().notNull(),
    /** `ok`, or the provider's refusal or the failure (`NO_NUMBERS`, `timeout` ...). */
    outcome: text().notNull(),
    /** The ceiling asked for a buy, the provider's id issued, the error's sentence. */
    detail: text(),
    latencyMs: integer('latency_ms'),
  },
  (table) => [index('order_events_order_idx').on(table.orderKind, table.orderId, table.id)],
);

export type OrderEvent = typeof orderEvents.$inferSelect;
export type NewOrderEvent = typeof orderEvents.$inferInsert;
