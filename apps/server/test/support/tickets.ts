// Helpers for the ticket tests (not loaded by the app).
import type { Ticket, TicketMessage } from '@simcode/contract';
import type { TestApp } from './app';
import type { TestUser } from './users';

export type Caller = TestUser | null;

export function headersOf(caller: Caller) {
  return caller ? caller.headers : {};
}

export async function call(
  t: TestApp,
  caller: Caller,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: unknown,
) {
  return t.app.inject({
    method,
    url,
    headers: headersOf(caller),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

/** Opens a ticket through the API and returns it; fails the test when that does not work. */
export async function openTicket(
  t: TestApp,
  owner: TestUser,
  fields: { title?: string; description?: string } = {},
): Promise<Ticket> {
  const response = await call(t, owner, 'POST', '/api/tickets', {
    title: fields.title ?? 'Code never arrived',
    description: fields.description ?? 'I bought a number for Telegram and no SMS came.',
  });
  if (response.statusCode !== 201) throw new Error(`could not open a ticket: ${response.body}`);
  return response.json().ticket;
}

/** The thread as an administrator sees it, to check what a refused request left behind. */
export async function threadOf(t: TestApp, admin: TestUser, ticketId: number) {
  const response = await call(t, admin, 'GET', `/api/tickets/admin/tickets/${ticketId}`);
  return response.json() as { ticket: Ticket; messages: TicketMessage[] };
}
