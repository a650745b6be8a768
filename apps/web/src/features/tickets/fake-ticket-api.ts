// An in-memory stand-in for the ticket endpoints, for the component tests (never part of the app bundle).
import type { Ticket, TicketMessage, TicketStatus } from '@simcode/contract';
import { vi } from 'vitest';

export interface FakeUser {
  id: number;
  username: string;
  email: string;
}

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
}

type Failure = { status: number; body: unknown } | 'network';

/** Follows the server's transitions, so the page under test sees what it would in production. */
/** A ticket to start with; its description becomes the first message, `messages` follow it. */
export type SeedTicket = Ticket & { messages?: string[] };

export function createFakeTicketApi(options: { users: FakeUser[]; tickets?: SeedTicket[] }) {
  let nextId = 100;
  let now = new Date('2026-03-04T15:07:00Z').getTime();
  /** Every event one minute after the previous one. */
  const stamp = () => {
    now += 60_000;
    return new Date(now).toISOString();
  };
  const threads = new Map<number, { ticket: Ticket; messages: TicketMessage[] }>();
  const calls: RecordedCall[] = [];
  const failures: Array<{ method: string; path: RegExp; failure: Failure }> = [];

  function addMessage(ticketId: number, content: string, isAdmin: boolean) {
    const thread = threads.get(ticketId)!;
    thread.messages.push({
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

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const notFound = () => json(404, { success: false, error: 'Ticket not found.' });
  const setStatus = (ticketId: number, status: TicketStatus) => {
    const thread = threads.get(ticketId)!;
    thread.ticket = { ...thread.ticket, status, updated_at: stamp() };
    return thread.ticket;
  };

  async function handle(input: string, init: RequestInit = {}): Promise<Response> {
    const method = init.method ?? 'GET';
    const url = new URL(input, 'http://localhost');
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined;
    const path = url.pathname;
    calls.push({ method, path, query: url.searchParams, body });

    const failureIndex = failures.findIndex((f) => f.method === method && f.path.test(path));
    if (failureIndex >= 0) {
      const { failure } = failures.splice(failureIndex, 1)[0]!;
      if (failure === 'network') throw new TypeError('Failed to fetch');
      return json(failure.status, failure.body);
    }

    const admin = path.startsWith('/api/tickets/admin/');
    const id = Number(/\/(\d+)(\/|$)/.exec(path)?.[1]);
    const thread = threads.get(id);

    if (method === 'GET' && (path === '/api/tickets' || path === '/api/tickets/admin/tickets')) {
      const tickets = [...threads.values()].map((t) => t.ticket);
      return json(200, { success: true, tickets, total: tickets.length, limit: 50, offset: 0 });
    }
    if (method === 'GET' && path.startsWith('/api/tickets/admin/user/')) {
      const user = options.users.find((u) => u.id === id);
      return user
        ? json(200, { success: true, user })
        : json(404, { success: false, error: 'User not found.' });
    }
    if (method === 'POST' && path === '/api/tickets') {
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
      return json(201, { success: true, ticket });
    }
    if (!thread) return notFound();
    if (method === 'GET') return json(200, { success: true, ...thread });
    if (method === 'POST' && path.endsWith('/messages')) {
      if (thread.ticket.status === 'closed') {
        return json(409, { success: false, error: 'This ticket is closed. You cannot send new messages.' });
      }
      addMessage(id, String(body?.content), admin);
      const ticket = setStatus(id, admin ? 'open' : 'waiting_for_reply');
      return json(201, { success: true, ticket, message: thread.messages.at(-1) });
    }
    if (method === 'POST' && path.endsWith('/close'))
      return json(200, { success: true, ticket: setStatus(id, 'closed') });
    if (method === 'POST' && path.endsWith('/status')) {
      return json(200, { success: true, ticket: setStatus(id, body?.status as TicketStatus) });
    }
    if (method === 'DELETE') {
      threads.delete(id);
      return json(200, { success: true });
    }
    return json(405, { success: false, error: 'Unexpected call in the test.' });
  }

  const fetch = vi.fn(handle);
  return {
    fetch,
    calls,
    /** Makes the next matching call fail with this answer, or with a network error. */
    failNext(method: string, path: RegExp, failure: Failure) {
      failures.push({ method, path, failure });
    },
    writes: () => calls.filter((call) => call.method !== 'GET'),
    thread: (ticketId: number) => threads.get(ticketId),
  };
}

export type FakeTicketApi = ReturnType<typeof createFakeTicketApi>;

/** A token whose payload carries the role, as the server's do (the signature is never checked here). */
export function fakeToken(role: number): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replaceAll('=', '');
  return `${encode({ alg: 'HS256' })}.${encode({ sub: '1', role })}.signature`;
}
