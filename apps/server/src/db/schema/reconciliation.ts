import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { orderKinds } from './orders';

/**
 * What a supplier charged and returned for one of its orders (an activation or a rent), in our cents, as
 * its own answers tell it: the purchase's answer (its cost), a cancel or finish it acknowledged, and its
 * history read by the reconciliation. `order_id` is ours; null for a charge the supplier lists that no
 * order of ours holds.
 */
export const supplierCharges = pgTable(
  'supplier_charges',
  {
    provider: text().notNull(),
    orderKind: text('order_kind', { enum: orderKinds }).notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    orderId: integer('order_id'),
    boughtAt: timestamp('bought_at', { withTimezone: true }).notNull(),
    /** What the supplier took at purchase; null until an answer says. */
    chargedCents: bigint('charged_cents', { mode: 'number' }),
    /** What it gave back (a cancel, a refund at the end of the lifetime). */
    returnedCents: bigint('returned_cents', { mode: 'number' }).notNull().default(0),
    /** `live`, `billed` (closed, the supplier kept the charge) or `returned` (closed and given back). */
    state: text({ enum: ['live', 'billed', 'returned'] }).notNull(),
    /** The supplier's history lists an SMS for it: a code it billed, whether or not we passed it on. */
    hasCode: boolean('has_code').notNull().default(false),
    /** The last answer that set it: `purchase`, `cancel`, `finish`, `history`. */
    source: text().notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.orderKind, table.providerOrderId] }),
    index('supplier_charges_day_idx').on(table.provider, table.boughtAt),
    index('supplier_charges_order_idx').on(table.orderKind, table.orderId),
  ],
);

export type SupplierCharge = typeof supplierCharges.$inferSelect;

export const mismatchCauses = [
  /** We refunded the customer, the supplier kept its charge. */
  'refunded_but_charged',
  /**
   * As above, and the supplier delivered a code (its history lists it, or it reached us after the refund):
   * it billed an SMS the customer was refunded for.
   */
  'code_after_refund',
  /** As above, and the supplier refused our cancel (too early, or too late): the number stayed billed. */
  'cancelled_late',
  /** The supplier kept a charge for an order no order of ours holds. */
  'charged_without_order',
  /** The customer paid, the supplier gave its charge back: a gain, not a leak. */
  'billed_but_returned',
] as const;
export type MismatchCause = (typeof mismatchCauses)[number];

export const mismatchStates = ['open', 'written_off', 'disputed', 'resolved'] as const;
export type MismatchState = (typeof mismatchStates)[number];

/** One disagreement the reconciliation found between our orders and a supplier's account, with its amount. */
export const reconciliationMismatches = pgTable(
  'reconciliation_mismatches',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    provider: text().notNull(),
    /** The UTC day the supplier's order was bought. */
    day: date({ mode: 'string' }).notNull(),
    orderKind: text('order_kind', { enum: orderKinds }).notNull(),
    providerOrderId: text('provider_order_id').notNull(),
    orderId: integer('order_id'),
    cause: text({ enum: mismatchCauses }).notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    state: text({ enum: mismatchStates }).notNull().default('open'),
    /** The administrator's reason for a write-off, or the dispute's note. */
    note: text(),
    foundAt: timestamp('found_at', { withTimezone: true }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  },
  (table) => [
    index('reconciliation_mismatches_day_idx').on(table.provider, table.day),
    // One row per supplier order: a rerun updates its cause and amount, never adds a second.
    uniqueIndex('reconciliation_mismatches_order_key').on(
      table.provider,
      table.orderKind,
      table.providerOrderId,
    ),
    check('reconciliation_mismatches_amount_positive', sql`${table.amountCents} > 0`),
  ],
);

export type ReconciliationMismatch = typeof reconciliationMismatches.$inferSelect;

/** Each supplier's reconciled days: whether its history was read whole within the call budget. */
export const reconciliationDays = pgTable(
  'reconciliation_days',
  {
    provider: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    complete: boolean().notNull(),
    ranAt: timestamp('ran_at', { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.provider, table.day] })],
);
