import { date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The public SMS Delivery Index's history (issue 30, ADR 0025): one row per service × country × UTC day of
 * purchase, across suppliers, written once when the day is frozen and never changed afterwards (a trigger
 * refuses updates and deletes, as on the ledger). Orders are counted on the day they were bought.
 *
 * finished   orders that ended (a code, expired, cancelled, refused upstream); waiting ones count nowhere
 * settled    orders whose delivery is known: a code arrived, or the order expired without one
 * withCode   settled orders that got a code
 * refunded   finished orders whose money went back (cancelled, expired, refused upstream)
 */
export const deliveryDays = pgTable(
  'delivery_days',
  {
    day: date({ mode: 'string' }).notNull(),
    service: text().notNull(),
    countryId: text('country_id').notNull(),
    finished: integer().notNull(),
    settled: integer().notNull(),
    withCode: integer('with_code').notNull(),
    refunded: integer().notNull(),
    /**
     * Codes by whole seconds from purchase to the first SMS: element i counts the codes that came after i
     * seconds (and before i + 1); trailing zeros left out. Windows merge these to get their percentiles.
     */
    timeToCodeSeconds: integer('time_to_code_seconds').array().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.day, table.service, table.countryId] }),
    index('delivery_days_service_idx').on(table.service, table.day),
  ],
);

export type DeliveryDay = typeof deliveryDays.$inferSelect;

/** The days frozen into delivery_days (a day nobody bought on has a row here and none there). Append-only. */
export const deliveryDaysFrozen = pgTable('delivery_days_frozen', {
  day: date({ mode: 'string' }).primaryKey(),
  frozenAt: timestamp('frozen_at', { withTimezone: true }).notNull(),
  pairs: integer().notNull(),
});
