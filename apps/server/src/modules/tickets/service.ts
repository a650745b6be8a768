import {
  type Ticket,
  type TicketMessage,
  type TicketSort,
  type TicketStatus,
  ticketMessages,
  validateNewTicket,
  validateTicketMessage,
} from '@simcode/contract';
import type { Executor } from '../../db/client';
import type { TicketMessageRow, TicketRow } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { fail, notFound } from '../../lib/errors';
import { UserCache } from '../../lib/user-cache';
import { type Actor, recordAudit } from '../admin/audit';
import type { AuthUser } from '../auth/service';
import { createUsersRepository } from '../users/repository';
import { createTicketsRepository } from './repository';

export interface TicketPage {
  tickets: Ticket[];
  total: number;
  limit: number;
  offset: number;
}

export interface PageQuery {
  sort: TicketSort;
  limit: number;
  offset: number;
}

function presentTicket(row: TicketRow): Ticket {
  return {
    id: row.id,
    user_id: row.userId,
    title: row.title,
    description: row.description,
    status: row.status,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    activation_id: row.activationId,
    unread: row.answeredAt !== null && (row.ownerReadAt === null || row.answeredAt > row.ownerReadAt),
  };
}

function presentMessage(row: TicketMessageRow): TicketMessage {
  return {
    id: row.id,
    ticket_id: row.ticketId,
    content: row.content,
    is_admin: row.isAdmin,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * The ticket rules. Status transitions are ours (the spec leaves them open): a new ticket is open, a
 * user's message makes it wait for support, a support reply opens it again, closing closes it, and an
 * administrator may set any status. Nobody writes to a closed ticket. A user sees only their own tickets:
 * another user's ticket answers exactly like one that does not exist.
 */
/** The audit reason of support's Close button, which asks for none. */
const CLOSED_FROM_TICKET = 'Closed from the ticket.';

/** A lost event leaves a user's first page of tickets stale this long at most. */
const FIRST_PAGE_TTL_MS = 60_000;

export function createTicketsService({
  db,
  clock,
  events,
}: {
  db: Executor;
  clock: Clock;
  events: UserEventBus;
}) {
  const tickets = createTicketsRepository(db);
  const users = createUsersRepository(db);
  // A user's first page of tickets (what the tickets page loads and reloads), kept until one of their
  // tickets changes here or on another instance, or the user does.
  const firstPages = new UserCache<TicketPage>({
    clock,
    ttlMs: FIRST_PAGE_TTL_MS,
    maxEntries: 20_000,
    events,
    invalidatedBy: (event) => event.type === 'tickets' || event.type === 'account',
  });
  const changed = (userId: number) => events.publish({ userId, type: 'tickets' });

  /** A status change by support, in the audit log of its transaction (the status after: the row's). */
  async function auditStatus(tx: Executor, actor: Actor, ticket: TicketRow, reason: string) {
    await recordAudit(
      tx,
      actor,
      {
        action: 'ticket.status',
        objectType: 'ticket',
        objectId: ticket.id,
        after: { status: ticket.status },
        reason,
      },
      clock.now(),
    );
  }

  function requireValidMessage(content: string): string {
    const trimmed = content.trim();
    const rule = validateTicketMessage(trimmed);
    if (rule) throw fail('validation', rule);
    return trimmed;
  }

  async function page(query: PageQuery, userId?: number): Promise<TicketPage> {
    const { rows, total } = await tickets.list({ ...query, userId });
    return { tickets: rows.map(presentTicket), total, limit: query.limit, offset: query.offset };
  }

  async function thread(ticket: TicketRow | undefined) {
    if (!ticket) throw notFound(ticketMessages.ticketNotFound);
    const messages = await tickets.listMessages(ticket.id);
    return { ticket: presentTicket(ticket), messages: messages.map(presentMessage) };
  }

  /** Says why a conditional write matched nothing: no such ticket (for this caller), or a wrong status. */
  async function explainRefusal(ticketId: number, ownerId: number | undefined, wrongStatus: string) {
    const ticket = await tickets.findById(ticketId, ownerId);
    if (!ticket) return notFound(ticketMessages.ticketNotFound);
    return fail('ticket_state', wrongStatus);
  }

  async function postMessage(author: AuthUser, ticketId: number, content: string, asAdmin: boolean) {
    const text = requireValidMessage(content);
    const ownerId = asAdmin ? undefined : author.id;
    const written = await tickets.addMessage({
      ticketId,
      authorId: author.id,
      isAdmin: asAdmin,
      content: text,
      nextStatus: asAdmin ? 'open' : 'waiting_for_reply',
      ownerId,
      now: clock.now(),
    });
    if (!written) throw await explainRefusal(ticketId, ownerId, ticketMessages.closedNote);
    changed(written.ticket.userId);
    return { ticket: presentTicket(written.ticket), message: presentMessage(written.message) };
  }

  return {
    async create(user: AuthUser, input: { title: string; description: string }): Promise<Ticket> {
      const title = input.title.trim();
      const description = input.description.trim();
      const rule = validateNewTicket({ title, description });
      if (rule) throw fail('validation', rule);
      const ticket = await tickets.insertWithFirstMessage({
        userId: user.id,
        title,
        description,
        now: clock.now(),
      });
      changed(user.id);
      return presentTicket(ticket);
    },

    /** The first page (offset 0) comes from memory between changes of the user's tickets. */
    listOwn: (user: AuthUser, query: PageQuery) =>
      query.offset === 0
        ? firstPages.getOrLoad(user.id, `${query.sort}:${query.limit}`, () => page(query, user.id))
        : page(query, user.id),
    listAll: (query: PageQuery) => page(query),

    /** Opening one's ticket reads it: its answers stop counting as unread (on every device of the user). */
    async getOwn(user: AuthUser, ticketId: number) {
      const ticket = await tickets.findById(ticketId, user.id);
      const answer = await thread(ticket);
      // The page polls an open ticket: the row it read says whether there is anything to mark, so a read
      // ticket costs no write.
      if (answer.ticket.unread && (await tickets.markRead(ticketId, user.id, clock.now()))) {
        changed(user.id);
        answer.ticket.unread = false;
      }
      return answer;
    },
    countUnread: (user: AuthUser) => tickets.countUnread(user.id),
    getAny: async (ticketId: number) => thread(await tickets.findById(ticketId)),

    postUserMessage: (user: AuthUser, ticketId: number, content: string) =>
      postMessage(user, ticketId, content, false),
    postAdminReply: (admin: AuthUser, ticketId: number, content: string) =>
      postMessage(admin, ticketId, content, true),

    /** A user may close their ticket only while it is open. */
    async closeOwn(user: AuthUser, ticketId: number): Promise<Ticket> {
      const ticket = await tickets.setStatus({
        ticketId,
        status: 'closed',
        from: ['open'],
        ownerId: user.id,
        now: clock.now(),
      });
      if (!ticket) throw await explainRefusal(ticketId, user.id, ticketMessages.onlyOpenCanBeClosed);
      changed(ticket.userId);
      return presentTicket(ticket);
    },

    /** An administrator may close any ticket that is not closed yet. */
    /** Support closes a ticket: audited, with the reason given or the button's own. */
    async closeAny(actor: Actor, ticketId: number, reason = CLOSED_FROM_TICKET): Promise<Ticket> {
      const ticket = await db.transaction(async (tx) => {
        const closed = await createTicketsRepository(tx).setStatus({
          ticketId,
          status: 'closed',
          from: ['open', 'waiting_for_reply'],
          now: clock.now(),
        });
        if (closed) await auditStatus(tx, actor, closed, reason);
        return closed;
      });
      if (!ticket) throw await explainRefusal(ticketId, undefined, ticketMessages.alreadyClosed);
      changed(ticket.userId);
      return presentTicket(ticket);
    },

    /** Support sets any status, with a reason, in the audit log in the same transaction. */
    async setStatus(actor: Actor, ticketId: number, status: TicketStatus, reason: string): Promise<Ticket> {
      const ticket = await db.transaction(async (tx) => {
        const changedRow = await createTicketsRepository(tx).setStatus({
          ticketId,
          status,
          now: clock.now(),
        });
        if (changedRow) await auditStatus(tx, actor, changedRow, reason);
        return changedRow;
      });
      if (!ticket) throw notFound(ticketMessages.ticketNotFound);
      changed(ticket.userId);
      return presentTicket(ticket);
    },

    /**
     * Support deletes a ticket, with a reason: it leaves every list and page, and stays in the database
     * (messages included) with its audit entry.
     */
    async delete(actor: Actor, ticketId: number, reason: string): Promise<void> {
      const deleted = await db.transaction(async (tx) => {
        const row = await createTicketsRepository(tx).softDelete(ticketId, clock.now());
        if (row)
          await recordAudit(
            tx,
            actor,
            {
              action: 'ticket.delete',
              objectType: 'ticket',
              objectId: ticketId,
              before: { status: row.status, title: row.title, user_id: row.userId },
              after: { deleted: true },
              reason,
            },
            clock.now(),
          );
        return row;
      });
      if (!deleted) throw notFound(ticketMessages.ticketNotFound);
      changed(deleted.userId);
    },

    async userInfo(userId: number) {
      const user = await users.findById(userId);
      if (!user) throw notFound(ticketMessages.userNotFound);
      return { id: user.id, username: user.username, email: user.email };
    },
  };
}

export type TicketsService = ReturnType<typeof createTicketsService>;
