import {
  bigint,
  doublePrecision,
  index,
  jsonb,
  pgSchema,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The built-in SMS simulator's state, in its own schema of the product's database: what it acknowledged is
 * written in the same request, before it answers, and it is in every backup. Keyed by the instance's name,
 * so several simulated suppliers can share these tables.
 */
export const simSchema = pgSchema('sim');

/** Per instance: the next ids to issue (never issued twice, even after a crash), balance and sold counts. */
export const simAccounts = simSchema.table('accounts', {
  instance: text().primaryKey(),
  nextActivationId: bigint('next_activation_id', { mode: 'number' }).notNull(),
  nextRentId: bigint('next_rent_id', { mode: 'number' }).notNull(),
  balanceUsd: doublePrecision('balance_usd').notNull(),
  /** Numbers sold in the current stock period, by `<period>:<providerCountryId>:<service>`. */
  sold: jsonb().notNull(),
});

/** One row per activation or rent (`kind`), the simulator's own record as JSON. */
export const simOrders = simSchema.table(
  'orders',
  {
    instance: text().notNull(),
    kind: text({ enum: ['activation', 'rent'] }).notNull(),
    id: text().notNull(),
    data: jsonb().notNull(),
  },
  (table) => [primaryKey({ columns: [table.instance, table.kind, table.id] })],
);

/**
 * The built-in Cryptomus sandbox's invoices, each with its pending webhook, in their own schema. Deposits
 * to a static wallet are kept here too and share their wallet's `order_id`, so it is not unique.
 */
export const sandboxSchema = pgSchema('sandbox');

export const sandboxInvoices = sandboxSchema.table(
  'invoices',
  {
    uuid: text().primaryKey(),
    orderId: text('order_id').notNull(),
    data: jsonb().notNull(),
    /** Insertion order, so invoices load in the order they were created. */
    seq: bigint({ mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [index('sandbox_invoices_order_id_idx').on(table.orderId)],
);

/** The Cryptomus sandbox's static wallets: one per `order_id`, like Cryptomus. */
export const sandboxWallets = sandboxSchema.table(
  'wallets',
  {
    uuid: text().primaryKey(),
    orderId: text('order_id').notNull(),
    data: jsonb().notNull(),
    seq: bigint({ mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (table) => [uniqueIndex('sandbox_wallets_order_id_key').on(table.orderId)],
);

/**
 * The built-in NOWPayments sandbox's state, one row per record (`kind`): invoices, payments, dashboard
 * tokens and the next ids.
 */
export const sandboxNowPaymentsRecords = sandboxSchema.table(
  'nowpayments_records',
  {
    kind: text({ enum: ['invoice', 'payment', 'token', 'ids'] }).notNull(),
    id: text().notNull(),
    data: jsonb().notNull(),
  },
  (table) => [primaryKey({ columns: [table.kind, table.id] })],
);

/**
 * Per stand-in (a simulator instance, a sandbox): how many turns the processes serving it have taken. A turn
 * holds this row's lock until it commits, so the processes sharing the database change the stand-in one at
 * a time, and a process that sees a revision it did not write reads the state again first.
 */
export const standInTurns = pgTable('stand_in_turns', {
  name: text().primaryKey(),
  revision: bigint({ mode: 'number' }).notNull(),
});
