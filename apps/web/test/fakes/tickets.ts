// The ticket endpoints over in-memory threads, following the server's transitions, so the page under test
// sees what it would in production.
import {
  successResponseSchema,
  type Ticket,
  type TicketMessage,
  type TicketStatus,
  ticketListResponseSchema,
  ticketMessageResponseSchema,
  ticketResponseSchema,
  ticketThreadResponseSchema,
  ticketUserResponseSchema,
} from '@simcode/contract';
import { createFakeApi, type FakeRequest, ok, refuse, route } from '../fake-api';

interface FakeUser {
  id: number;
  username: string;
  email: string;
}

/** A ticket to start with; its description becomes the first message, `messages` follow it. */
export type SeedTicket = Ticket & { messages?: string[] };

/** Both scopes: users at /api/tickets, support at /api/tickets/admin/tickets. */
const SCOPE = '/api/tickets(?:/admin/tickets)?';

export function createFakeTicketApi(options: { users: FakeUser[]; tickets?: SeedTicket[] }) {
  let nextId = 100;
  let now = new Date('2026-03-04T15:07:00Z').getTime();
  /** Every event one minute after the previous one. */
  const stamp = () => {
    now += 60_000;
    return new Date(now).toISOString();
  };
  const threads = new Map<number, { ticket: Ticket; messages: TicketMessage[] }>();

  function addMessage(ticketId: number, content: string, isAdmin: boolean) {
    threads.get(ticketId)!.messages.push({
      id: nextId++,
      ticket_id: ticketId,
      content,
      is_admin: isAdmin,
      created_at: stamp(),
    });
  }

  for (const { messages = [], ...ticket } of options.tickets ?? []) {
    threads.set(ticket.id, { ticket, messages: [] });
    addMessage(ticket.id, ticket.description, false);
    // After the description, the given messages alternate: support first, then the user.
    for (const [index, content] of messages.entries()) addMessage(ticket.id, content, index % 2 === 0);
  }

  const setStatus = (ticketId: number, status: TicketStatus) => {
    const thread = threads.get(ticketId)!;
    thread.ticket = { ...thread.ticket, status, updated_at: stamp() };
    return thread.ticket;
  };

  /** The thread a path names, or the server's 404. */
  function withThread(request: FakeRequest, answer: (id: number) => ReturnType<typeof ok>) {
    const id = Number(request.params[0]);
    return threads.has(id) ? answer(id) : refuse(404, 'Ticket not found.');
  }

  const api = createFakeApi([
    route(new RegExp(`^GET ${SCOPE}$`), () => {
      const tickets = [...threads.values()].map((thread) => thread.ticket);
      return ok(ticketListResponseSchema, {
        success: true,
        tickets,
        total: tickets.length,
        limit: 50,
        offset: 0,
      });
    }),
    route(/^GET \/api\/tickets\/admin\/user\/(\d+)$/, ({ params }) => {
      const user = options.users.find((entry) => entry.id === Number(params[0]));
      return user ? ok(ticketUserResponseSchema, { success: true, user }) : refuse(404, 'User not found.');
    }),
    route('POST /api/tickets', ({ body }) => {
      const ticket: Ticket = {
        id: nextId++,
        user_id: options.users[0]!.id,
        title: String(body?.title),
        description: String(body?.description),
        status: 'open',
        created_at: stamp(),
        updated_at: stamp(),
      };
      threads.set(ticket.id, { ticket, messages: [] });
      addMessage(ticket.id, ticket.description, false);
      return ok(ticketResponseSchema, { success: true, ticket }, 201);
    }),
    route(new RegExp(`^GET ${SCOPE}/(\\d+)$`), (request) =>
      withThread(request, (id) => ok(ticketThreadResponseSchema, { success: true, ...threads.get(id)! })),
    ),
    route(new RegExp(`^POST ${SCOPE}/(\\d+)/messages$`), (request) =>
      withThread(request, (id) => {
        const thread = threads.get(id)!;
        if (thread.ticket.status === 'closed') {
          return refuse(409, 'This ticket is closed. You cannot send new messages.');
        }
        const admin = request.path.startsWith('/api/tickets/admin/');
        addMessage(id, String(request.body?.content), admin);
        const ticket = setStatus(id, admin ? 'open' : 'waiting_for_reply');
        return ok(
          ticketMessageResponseSchema,
          { success: true, ticket, message: thread.messages.at(-1)! },
          201,
        );
      }),
    ),
    route(new RegExp(`^POST ${SCOPE}/(\\d+)/close$`), (request) =>
      withThread(request, (id) =>
        ok(ticketResponseSchema, { success: true, ticket: setStatus(id, 'closed') }),
      ),
    ),
    route(/^POST \/api\/tickets\/admin\/tickets\/(\d+)\/status$/, (request) =>
      withThread(request, (id) =>
        ok(ticketResponseSchema, {
          success: true,
          ticket: setStatus(id, request.body?.status as TicketStatus),
        }),
      ),
    ),
    route(/^DELETE \/api\/tickets\/admin\/tickets\/(\d+)$/, (request) =>
      withThread(request, (id) => {
        threads.delete(id);
        return ok(successResponseSchema, { success: true });
      }),
    ),
  ]);

  return { ...api, thread: (ticketId: number) => threads.get(ticketId) };
}

export type FakeTicketApi = ReturnType<typeof createFakeTicketApi>;
