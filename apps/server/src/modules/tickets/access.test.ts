import { sessionMessages, type Ticket } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { type Caller, call, openTicket, threadOf } from '../../../test/support/tickets';
import { createUser, type TestUser } from '../../../test/support/users';
import { users } from '../../db/schema';
import { createAdminUsersService } from '../admin/users/service';

/**
 * Who may call what: every ticket endpoint against the ticket's owner, another user, an administrator,
 * no token, an administrator demoted in the database whose token still claims the role, and one demoted
 * with the admin command (which also revokes their tokens).
 */
type Actor = 'owner' | 'other user' | 'administrator' | 'no token' | 'demoted admin' | 'revoked admin';
const actors: Actor[] = [
  'owner',
  'other user',
  'administrator',
  'no token',
  'demoted admin',
  'revoked admin',
];

interface Endpoint {
  method: 'GET' | 'POST' | 'DELETE';
  path: (ticket: Ticket) => string;
  payload?: unknown;
  expected: Record<Actor, number>;
}

const ownerOnly = (success: number): Record<Actor, number> => ({
  owner: success,
  'other user': 404,
  administrator: 404,
  'no token': 401,
  'demoted admin': 404,
  'revoked admin': 401,
});
const anyUser = (success: number): Record<Actor, number> => ({
  owner: success,
  'other user': success,
  administrator: success,
  'no token': 401,
  'demoted admin': success,
  'revoked admin': 401,
});
const adminOnly = (success: number): Record<Actor, number> => ({
  owner: 403,
  'other user': 403,
  administrator: success,
  'no token': 401,
  'demoted admin': 403,
  'revoked admin': 401,
});

const endpoints: Record<string, Endpoint> = {
  'GET /api/tickets': { method: 'GET', path: () => '/api/tickets', expected: anyUser(200) },
  'POST /api/tickets': {
    method: 'POST',
    path: () => '/api/tickets',
    payload: { title: 'Another', description: 'Another problem' },
    expected: anyUser(201),
  },
  'GET /api/tickets/{id}': { method: 'GET', path: (t) => `/api/tickets/${t.id}`, expected: ownerOnly(200) },
  'POST /api/tickets/{id}/messages': {
    method: 'POST',
    path: (t) => `/api/tickets/${t.id}/messages`,
    payload: { content: 'Any news?' },
    expected: ownerOnly(201),
  },
  'POST /api/tickets/{id}/close': {
    method: 'POST',
    path: (t) => `/api/tickets/${t.id}/close`,
    expected: ownerOnly(200),
  },
  'GET /api/tickets/admin/tickets': {
    method: 'GET',
    path: () => '/api/tickets/admin/tickets',
    expected: adminOnly(200),
  },
  'GET /api/tickets/admin/tickets/{id}': {
    method: 'GET',
    path: (t) => `/api/tickets/admin/tickets/${t.id}`,
    payload: { reason: 'spam' },
    expected: adminOnly(200),
  },
  'POST /api/tickets/admin/tickets/{id}/messages': {
    method: 'POST',
    path: (t) => `/api/tickets/admin/tickets/${t.id}/messages`,
    payload: { content: 'We are on it.' },
    expected: adminOnly(201),
  },
  'POST /api/tickets/admin/tickets/{id}/status': {
    method: 'POST',
    path: (t) => `/api/tickets/admin/tickets/${t.id}/status`,
    payload: { status: 'waiting_for_reply', reason: 'support triage' },
    expected: adminOnly(200),
  },
  'POST /api/tickets/admin/tickets/{id}/close': {
    method: 'POST',
    path: (t) => `/api/tickets/admin/tickets/${t.id}/close`,
    expected: adminOnly(200),
  },
  'DELETE /api/tickets/admin/tickets/{id}': {
    method: 'DELETE',
    path: (t) => `/api/tickets/admin/tickets/${t.id}`,
    payload: { reason: 'spam' },
    expected: adminOnly(200),
  },
  'GET /api/tickets/admin/user/{userId}': {
    method: 'GET',
    path: (t) => `/api/tickets/admin/user/${t.user_id}`,
    expected: adminOnly(200),
  },
};

let t: TestApp;
let callers: Record<Actor, Caller>;
/** Checks what refused requests left behind; never one of the actors. */
let inspector: TestUser;
let ticket: Ticket;

beforeEach(async () => {
  t = await createTestApp();
  const [owner, other, administrator, demoted, revoked] = await Promise.all([
    createUser(t),
    createUser(t),
    createUser(t, { admin: true }),
    createUser(t, { admin: true }),
    createUser(t, { admin: true }),
  ]);
  inspector = await createUser(t, { admin: true });
  // The role changes in the database while the token, signed before, still says 1.
  await t.ctx.database.db.update(users).set({ role: 0 }).where(eq(users.id, demoted.id));
  await createAdminUsersService({ db: t.ctx.database.db, events: t.ctx.events, clock: t.clock }).setRole(
    { id: 0, username: 'console' },
    revoked.id,
    'user',
    'demoted by the test',
  );
  callers = {
    owner,
    'other user': other,
    administrator,
    'no token': null,
    'demoted admin': demoted,
    'revoked admin': revoked,
  };
  ticket = await openTicket(t, owner);
});
afterEach(async () => {
  await t.app.close();
});

describe.each(Object.entries(endpoints))('%s', (_name, endpoint) => {
  it.each(actors)('answers the %s as the rules say, and a refusal changes nothing', async (actor) => {
    const before = await threadOf(t, inspector, ticket.id);
    const response = await call(t, callers[actor], endpoint.method, endpoint.path(ticket), endpoint.payload);
    const expected = endpoint.expected[actor];
    expect(response.statusCode).toBe(expected);
    expect(response.json().success).toBe(expected < 300);
    if (expected >= 400) {
      const texts: Record<number, string> = {
        401: actor === 'no token' ? sessionMessages.unauthorized : sessionMessages.invalidToken,
        403: sessionMessages.forbidden,
        404: 'Ticket not found.',
      };
      expect(response.json().error).toBe(texts[expected]);
      expect(await threadOf(t, inspector, ticket.id)).toEqual(before);
    }
  });
});

describe('the user listing', () => {
  it("shows each user their own tickets only, administrators included, and never another user's", async () => {
    const administratorsOwn = await openTicket(t, callers.administrator as TestUser, { title: 'Mine' });
    const idsFor = async (actor: Actor) =>
      (await call(t, callers[actor], 'GET', '/api/tickets')).json().tickets.map((x: Ticket) => x.id);
    expect(await idsFor('owner')).toEqual([ticket.id]);
    expect(await idsFor('other user')).toEqual([]);
    expect(await idsFor('administrator')).toEqual([administratorsOwn.id]);
    expect(await idsFor('demoted admin')).toEqual([]);
  });

  it('gives administrators every ticket on the admin listing', async () => {
    const second = await openTicket(t, callers['other user'] as TestUser);
    const response = await call(t, callers.administrator, 'GET', '/api/tickets/admin/tickets');
    expect(response.json().tickets.map((x: Ticket) => x.id)).toEqual([second.id, ticket.id]);
  });
});
