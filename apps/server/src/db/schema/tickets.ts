import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { activations } from './activations';
import { users } from './users';

/** The same values as the contract's ticketStatuses; the schema stays free of app imports for drizzle-kit. */
const statuses = ['open', 'waiting_for_reply', 'closed'] as const;

/** A support conversation of one user. Its description is also stored as the first message. */
export const tickets = pgTable(
  'tickets',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    title: text().notNull(),
    description: text().notNull(),
    status: text({ enum: statuses }).notNull().default('open'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Moves with every message and status change. */
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** The order a problem report opened this ticket about; one ticket per order. */
    activationId: integer('activation_id').references(() => activations.id, { onDelete: 'restrict' }),
    /**
     * Deleted by support (with a reason, in the audit log): gone from every list and page, kept for the
     * record. The totals count live tickets only (migration 0023).
     */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** When support last wrote in it; unread by its owner while later than `ownerReadAt`. */
    answeredAt: timestamp('answered_at', { withTimezone: true }),
    /** When its owner last opened or wrote in it. */
    ownerReadAt: timestamp('owner_read_at', { withTimezone: true }),
  },
  (table) => [
    // A user's tickets in the list's order, ties broken by id: a page is read from the index, not sorted.
    index('tickets_user_created_idx').on(table.userId, table.createdAt, table.id),
    // Every ticket, newest first (the administrators' list): read from the index, not sorted per request.
    index('tickets_created_idx').on(table.createdAt, table.id),
    index('tickets_status_idx').on(table.status),
    // A user's tickets with an answer they have not read: the navigation's marker counts them.
    index('tickets_unread_idx')
      .on(table.userId)
      .where(
        sql`${table.deletedAt} is null and ${table.answeredAt} > coalesce(${table.ownerReadAt}, '-infinity')`,
      ),
    uniqueIndex('tickets_activation_key')
      .on(table.activationId)
      .where(sql`${table.activationId} is not null`),
    check('tickets_status_known', sql`${table.status} in ('open', 'waiting_for_reply', 'closed')`),
  ],
);

export type TicketRow = typeof tickets.$inferSelect;

/**
 * How many tickets each user has (`owner_id` = the user) and how many there are in all (`owner_id` = 0),
 * kept by statement triggers on `tickets` (migration 0011), so a page of a list never counts the table.
 */
export const ticketTotals = pgTable('ticket_totals', {
  ownerId: integer('owner_id').primaryKey(),
  total: integer().notNull(),
});

export const ticketMessages = pgTable(
  'ticket_messages',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    /** Who wrote it, for the record; the thread itself only tells support from the ticket's user. */
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'restrict' }),
    /** Written through the administrator endpoints; kept as written, whatever the author's role later. */
    isAdmin: boolean('is_admin').notNull(),
    /** Plain text, never HTML. */
    content: text().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('ticket_messages_ticket_created_idx').on(table.ticketId, table.createdAt)],
);

export type TicketMessageRow = typeof ticketMessages.$inferSelect;
