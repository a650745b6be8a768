import type { TicketSort, TicketStatus } from '@simcode/contract';
import { and, asc, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type TicketMessageRow,
  type TicketRow,
  ticketMessages,
  tickets,
  ticketTotals,
} from '../../db/schema';

export interface ListTicketsOptions {
  /** Only this user's tickets; every ticket when absent (administrators). */
  userId?: number;
  sort: TicketSort;
  limit: number;
  offset: number;
}

export interface NewTicket {
  userId: number;
  title: string;
  description: string;
  now: Date;
  /** The order a problem report is about. */
  activationId?: number;
}

export interface NewMessage {
  ticketId: number;
  authorId: number;
  isAdmin: boolean;
  content: string;
  /** The status the ticket moves to with this message. */
  nextStatus: TicketStatus;
  /** When set, the ticket must belong to this user. */
  ownerId?: number;
  now: Date;
}

export interface StatusChange {
  ticketId: number;
  status: TicketStatus;
  /** Change only a ticket in one of these statuses. */
  from?: readonly TicketStatus[];
  /** When set, the ticket must belong to this user. */
  ownerId?: number;
  now: Date;
}

/** open, waiting_for_reply, closed: the spec's status order, newest first within each. */
const statusRank = sql`case ${tickets.status} when 'open' then 0 when 'waiting_for_reply' then 1 else 2 end`;

/** Every order ends on the id, so pages never repeat or skip a ticket created in the same instant. */
const ORDER_BY: Record<TicketSort, SQL[]> = {
  date_desc: [desc(tickets.createdAt), desc(tickets.id)],
  date_asc: [asc(tickets.createdAt), asc(tickets.id)],
  status: [asc(statusRank), desc(tickets.createdAt), desc(tickets.id)],
};

/** The row of ticket_totals that counts every ticket. */
const EVERY_OWNER = 0;

/** One live ticket (not deleted by support), of its owner when one is given. */
function ticketScope(ticketId: number, ownerId: number | undefined): SQL {
  return and(
    eq(tickets.id, ticketId),
    isNull(tickets.deletedAt),
    ownerId === undefined ? undefined : eq(tickets.userId, ownerId),
  )!;
}

/** Support answered after the owner last read: the same condition as the partial index `tickets_unread_idx`. */
const unreadByOwner = sql`${tickets.answeredAt} > coalesce(${tickets.ownerReadAt}, '-infinity')`;

export function createTicketsRepository(db: Executor) {
  return {
    async list({
      userId,
      sort,
      limit,
      offset,
    }: ListTicketsOptions): Promise<{ rows: TicketRow[]; total: number }> {
      const where = and(
        isNull(tickets.deletedAt),
        userId === undefined ? undefined : eq(tickets.userId, userId),
      );
      const [rows, [totals]] = await Promise.all([
        db
          .select()
          .from(tickets)
          .where(where)
          .orderBy(...ORDER_BY[sort])
          .limit(limit)
          .offset(offset),
        // Kept by triggers (migration 0011): counting the rows would grow with the table.
        db
          .select({ total: ticketTotals.total })
          .from(ticketTotals)
          .where(eq(ticketTotals.ownerId, userId ?? EVERY_OWNER)),
      ]);
      return { rows, total: totals?.total ?? 0 };
    },

    async findByActivation(activationId: number): Promise<TicketRow | undefined> {
      const [ticket] = await db.select().from(tickets).where(eq(tickets.activationId, activationId));
      return ticket;
    },

    async findById(ticketId: number, ownerId?: number): Promise<TicketRow | undefined> {
      const [ticket] = await db.select().from(tickets).where(ticketScope(ticketId, ownerId)).limit(1);
      return ticket;
    },

    listMessages(ticketId: number): Promise<TicketMessageRow[]> {
      return db
        .select()
        .from(ticketMessages)
        .where(eq(ticketMessages.ticketId, ticketId))
        .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
    },

    /** The ticket and its description as the first message of the thread, together or not at all. */
    insertWithFirstMessage({ userId, title, description, now, activationId }: NewTicket): Promise<TicketRow> {
      return db.transaction(async (tx) => {
        const [ticket] = await tx
          .insert(tickets)
          .values({
            userId,
            title,
            description,
            status: 'open',
            createdAt: now,
            updatedAt: now,
            activationId,
          })
          .returning();
        await tx.insert(ticketMessages).values({
          ticketId: ticket!.id,
          authorId: userId,
          isAdmin: false,
          content: description,
          createdAt: now,
        });
        return ticket!;
      });
    },

    /**
     * Adds a message and moves the ticket to its next status in one transaction. The status update is
     * conditional (not closed, owned when required), so a message can never land on a ticket that is being
     * closed at the same moment. Undefined when the ticket is missing, not owned or closed.
     */
    addMessage(input: NewMessage): Promise<{ ticket: TicketRow; message: TicketMessageRow } | undefined> {
      return db.transaction(async (tx) => {
        const [ticket] = await tx
          .update(tickets)
          .set({
            status: input.nextStatus,
            updatedAt: input.now,
            // Support's message is news for the owner; the owner's own message means they have read it all.
            ...(input.isAdmin ? { answeredAt: input.now } : { ownerReadAt: input.now }),
          })
          .where(and(ticketScope(input.ticketId, input.ownerId), sql`${tickets.status} <> 'closed'`))
          .returning();
        if (!ticket) return undefined;
        const [message] = await tx
          .insert(ticketMessages)
          .values({
            ticketId: ticket.id,
            authorId: input.authorId,
            isAdmin: input.isAdmin,
            content: input.content,
            createdAt: input.now,
          })
          .returning();
        return { ticket, message: message! };
      });
    },

    /** Marks the owner's ticket read; true when it held an answer they had not read. */
    async markRead(ticketId: number, ownerId: number, now: Date): Promise<boolean> {
      const marked = await db
        .update(tickets)
        .set({ ownerReadAt: now })
        .where(and(ticketScope(ticketId, ownerId), unreadByOwner))
        .returning({ id: tickets.id });
      return marked.length > 0;
    },

    /** How many of a user's tickets hold an answer they have not read. */
    async countUnread(userId: number): Promise<number> {
      const [row] = await db
        .select({ count: sql<number>`count(*)::int` })
        .from(tickets)
        .where(and(eq(tickets.userId, userId), isNull(tickets.deletedAt), unreadByOwner));
      return row?.count ?? 0;
    },

    /** Conditional update: undefined when the ticket is missing, not owned or not in an allowed status. */
    async setStatus({ ticketId, status, from, ownerId, now }: StatusChange): Promise<TicketRow | undefined> {
      const conditions = [ticketScope(ticketId, ownerId)];
      if (from) conditions.push(inArray(tickets.status, [...from]));
      const [ticket] = await db
        .update(tickets)
        .set({ status, updatedAt: now })
        .where(and(...conditions))
        .returning();
      return ticket;
    },

    /**
     * Marks the ticket deleted (its messages stay, for the record); the row before, or undefined when there
     * was no live ticket.
     */
    async softDelete(ticketId: number, now: Date): Promise<TicketRow | undefined> {
      const [deleted] = await db
        .update(tickets)
        .set({ deletedAt: now })
        .where(ticketScope(ticketId, undefined))
        .returning();
      return deleted;
    },
  };
}

export type TicketsRepository = ReturnType<typeof createTicketsRepository>;
