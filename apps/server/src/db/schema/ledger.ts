import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

export const ledgerKinds = ['purchase', 'refund', 'topup', 'adjustment'] as const;
export type LedgerKind = (typeof ledgerKinds)[number];

/**
 * Append-only record of every balance change (a database trigger refuses UPDATE and DELETE).
 * Invariant: a user's balance_cents equals the sum of their entries' amount_cents.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    kind: text({ enum: ledgerKinds }).notNull(),
    /** Signed: negative for debits. */
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    balanceAfterCents: bigint('balance_after_cents', { mode: 'number' }).notNull(),
    /** What the entry is about, e.g. 'activation' + order id, 'topup' + payment id. */
    referenceType: text('reference_type').notNull(),
    referenceId: text('reference_id').notNull(),
    /** Unique: the database, not the code, makes every money movement happen at most once. */
    idempotencyKey: text('idempotency_key').notNull().unique(),
    note: text(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('ledger_entries_user_idx').on(table.userId, table.id),
    // By time: the console's hourly figures are recomputed from the entries of an hour.
    index('ledger_entries_created_idx').on(table.createdAt),
    check('ledger_entries_amount_non_zero', sql`${table.amountCents} <> 0`),
    check('ledger_entries_kind_known', sql`${table.kind} in ('purchase', 'refund', 'topup', 'adjustment')`),
  ],
);

export type LedgerEntry = typeof ledgerEntries.$inferSelect;
