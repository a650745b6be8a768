import { gunzipSync } from 'node:zlib';
import {
  TICKET_CONTENT_MAX_LENGTH,
  TICKET_CREATE_RATE_LIMIT,
  TICKET_MESSAGE_RATE_LIMIT,
  TICKET_TITLE_MAX_LENGTH,
  type Ticket,
  type TicketStatus,
  ticketMessages,
} from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { call, openTicket, threadOf } from '../../../test/support/tickets';
import { createUser, type TestUser } from '../../../test/support/users';
import { auditLog, tickets } from '../../db/schema';

let t: TestApp;
let alice: TestUser;
let admin: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  [alice, admin] = await Promise.all([createUser(t), createUser(t, { admin: true })]);
});
afterEach(async () => {
  await t.app.close();
});

const post = (caller: TestUser, url: string, payload?: unknown) => call(t, caller, 'POST', url, payload);
const get = (caller: TestUser, url: string) => call(t, caller, 'GET', url);
const userMessage = (ticketId: number, content: string) =>
  post(alice, `/api/tickets/${ticketId}/messages`, { content });
const adminReply = (ticketId: number, content: string) =>
  post(admin, `/api/tickets/admin/tickets/${ticketId}/messages`, { content });
const setStatus = (ticketId: number, status: string) =>
  post(admin, `/api/tickets/admin/tickets/${ticketId}/status`, { status, reason: 'support triage' });
const statusOf = async (ticketId: number) => (await threadOf(t, admin, ticketId)).ticket.status;

describe('POST /api/tickets', () => {
  it('opens a ticket whose description is the first message of the thread', async () => {
    const response = await post(alice, '/api/tickets', {
      title: '  No SMS for WhatsApp  ',
      description: '\n Ordered +44 7700 900123.\nNothing arrived after 10 minutes. \n',
    });
    expect(response.statusCode).toBe(201);
    const { success, ticket } = response.json();
    expect(success).toBe(true);
    expect(ticket).toEqual({
      id: expect.any(Number),
      user_id: alice.id,
      title: 'No SMS for WhatsApp',
      description: 'Ordered +44 7700 900123.\nNothing arrived after 10 minutes.',
      status: 'open',
      created_at: t.clock.now().toISOString(),
      updated_at: t.clock.now().toISOString(),
      activation_id: null,
      unread: false,
    });
    const thread = (await get(alice, `/api/tickets/${ticket.id}`)).json();
    expect(thread).toEqual({
      success: true,
      ticket,
      messages: [
        {
          id: expect.any(Number),
          ticket_id: ticket.id,
          content: 'Ordered +44 7700 900123.\nNothing arrived after 10 minutes.',
          is_admin: false,
          created_at: ticket.created_at,
        },
      ],
    });
  });

  it('keeps markup as plain text, character for character', async () => {
    const markup = '<script>alert("x")</script> & <b>bold</b> https://example.com/?a=1&b=2';
    const ticket = await openTicket(t, alice, { title: '<img src=x onerror=alert(1)>', description: markup });
    const thread = await threadOf(t, admin, ticket.id);
    expect(thread.ticket.title).toBe('<img src=x onerror=alert(1)>');
    expect(thread.messages[0]!.content).toBe(markup);
  });

  it('accepts a title and description exactly at their limits', async () => {
    const response = await post(alice, '/api/tickets', {
      title: 't'.repeat(TICKET_TITLE_MAX_LENGTH),
      description: 'd'.repeat(TICKET_CONTENT_MAX_LENGTH),
    });
    expect(response.statusCode).toBe(201);
  });

  it.each([
    ['an empty title', { title: '', description: 'Help' }, ticketMessages.titleRequired],
    ['a blank title', { title: ' \t\n ', description: 'Help' }, ticketMessages.titleRequired],
    ['no title', { description: 'Help' }, ticketMessages.titleRequired],
    ['a blank description', { title: 'Help', description: '   \n' }, ticketMessages.descriptionRequired],
    ['no body fields', {}, ticketMessages.titleRequired],
    [
      'a title one past the limit',
      { title: 't'.repeat(TICKET_TITLE_MAX_LENGTH + 1), description: 'Help' },
      ticketMessages.titleTooLong,
    ],
    [
      'a description one past the limit',
      { title: 'Help', description: 'd'.repeat(TICKET_CONTENT_MAX_LENGTH + 1) },
      ticketMessages.descriptionTooLong,
    ],
  ])('refuses %s with a clear text and creates nothing', async (_name, body, error) => {
    const response = await post(alice, '/api/tickets', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error });
    expect((await get(alice, '/api/tickets')).json().total).toBe(0);
  });

  it.each([
    [
      'a number for the title',
      { title: 42, description: 'Help' },
      'Invalid request: title must be a string.',
    ],
    ['a list for the description', { title: 'Help', description: ['x'] }, /description must be a string/],
    ['null', { title: null, description: 'Help' }, /title must be a string/],
    ['an object', { title: { $ne: null }, description: 'Help' }, /title must be a string/],
    [
      'an absurd length',
      { title: 'x'.repeat(30_000), description: 'Help' },
      /title must be at most 20000 characters long/,
    ],
  ])('answers 400, never 500, for %s', async (_name, body, error) => {
    const response = await post(alice, '/api/tickets', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().error).toMatch(error);
  });

  it('answers 400 to malformed JSON', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { ...alice.headers, 'content-type': 'application/json' },
      payload: '{"title": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error: 'Request body is not valid JSON.' });
  });

  it(`limits each user to ${TICKET_CREATE_RATE_LIMIT.max} new tickets per window`, async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= TICKET_CREATE_RATE_LIMIT.max; attempt += 1) {
      statuses.push((await post(alice, '/api/tickets', { title: 'Spam', description: 'Spam' })).statusCode);
    }
    expect(statuses.slice(0, -1).every((status) => status === 201)).toBe(true);
    const refused = await post(alice, '/api/tickets', { title: 'Spam', description: 'Spam' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error).toMatch(/Too many requests/);
    expect((await get(alice, '/api/tickets')).json().total).toBe(TICKET_CREATE_RATE_LIMIT.max);
    // Another user is not affected.
    expect((await post(admin, '/api/tickets', { title: 'Mine', description: 'Mine' })).statusCode).toBe(201);
  });
});

describe('listing', () => {
  /** Tickets created one minute apart, oldest first, then moved to the given statuses. */
  async function ticketsWithStatuses(statuses: TicketStatus[]): Promise<Ticket[]> {
    const created: Ticket[] = [];
    for (const [index, status] of statuses.entries()) {
      const ticket = await openTicket(t, alice, { title: `Ticket ${index}` });
      if (status !== 'open') expect((await setStatus(ticket.id, status)).statusCode).toBe(200);
      created.push(ticket);
      t.clock.advance(60_000);
    }
    return created;
  }
  const ids = (body: { tickets: Ticket[] }) => body.tickets.map((ticket) => ticket.id);

  it('sorts newest first by default, oldest first, or by status (open, waiting, closed) then newest', async () => {
    const [a, b, c, d, e] = await ticketsWithStatuses([
      'closed',
      'open',
      'waiting_for_reply',
      'open',
      'closed',
    ]);
    for (const url of ['/api/tickets', '/api/tickets?sort=date_desc']) {
      expect(ids((await get(alice, url)).json())).toEqual([e!.id, d!.id, c!.id, b!.id, a!.id]);
    }
    expect(ids((await get(alice, '/api/tickets?sort=date_asc')).json())).toEqual([
      a!.id,
      b!.id,
      c!.id,
      d!.id,
      e!.id,
    ]);
    const byStatus = (await get(alice, '/api/tickets?sort=status')).json();
    expect(ids(byStatus)).toEqual([d!.id, b!.id, c!.id, e!.id, a!.id]);
    expect(ids((await get(admin, '/api/tickets/admin/tickets?sort=status')).json())).toEqual(ids(byStatus));
  });

  it('pages with limit and offset and tells the total', async () => {
    const created = await ticketsWithStatuses(['open', 'open', 'open', 'open', 'open']);
    const newestFirst = created.map((ticket) => ticket.id).reverse();
    const first = (await get(alice, '/api/tickets?limit=2')).json();
    expect(first).toMatchObject({ total: 5, limit: 2, offset: 0 });
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    const last = (await get(alice, '/api/tickets?limit=2&offset=4')).json();
    expect(ids(last)).toEqual(newestFirst.slice(4));
    const beyond = (await get(alice, '/api/tickets?limit=2&offset=10')).json();
    expect(beyond).toMatchObject({ tickets: [], total: 5 });
  });

  it('keeps the order stable between tickets created in the same instant', async () => {
    const a = await openTicket(t, alice);
    const b = await openTicket(t, alice);
    expect(ids((await get(alice, '/api/tickets')).json())).toEqual([b.id, a.id]);
    expect(ids((await get(alice, '/api/tickets?sort=date_asc')).json())).toEqual([a.id, b.id]);
  });

  it.each([
    'sort=newest',
    'sort=',
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'offset=-1',
    'offset=x',
  ])('answers 400 to ?%s on both listings', async (query) => {
    for (const [caller, path] of [
      [alice, '/api/tickets'],
      [admin, '/api/tickets/admin/tickets'],
    ] as const) {
      const response = await get(caller, `${path}?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toMatch(/^Invalid request: (sort|limit|offset) /);
    }
  });
});

describe('status transitions', () => {
  it('open → a user message waits for support → a reply opens it → the user closes it', async () => {
    const ticket = await openTicket(t, alice);
    expect(ticket.status).toBe('open');

    t.clock.advance(60_000);
    const asked = await userMessage(ticket.id, 'Any news?\nI still need the code.');
    expect(asked.statusCode).toBe(201);
    expect(asked.json().ticket).toMatchObject({
      status: 'waiting_for_reply',
      updated_at: t.clock.now().toISOString(),
    });
    expect(asked.json().message).toMatchObject({
      content: 'Any news?\nI still need the code.',
      is_admin: false,
    });

    t.clock.advance(60_000);
    const replied = await adminReply(ticket.id, 'Refunded. Please try another number.');
    expect(replied.statusCode).toBe(201);
    expect(replied.json().ticket.status).toBe('open');
    expect(replied.json().message.is_admin).toBe(true);

    const closed = await post(alice, `/api/tickets/${ticket.id}/close`);
    expect(closed.json()).toMatchObject({ success: true, ticket: { status: 'closed' } });

    const thread = (await get(alice, `/api/tickets/${ticket.id}`)).json();
    expect(thread.messages.map((m: { is_admin: boolean }) => m.is_admin)).toEqual([false, false, true]);
    expect(thread.ticket.status).toBe('closed');
  });

  it('a user message on an open ticket waits again, and further messages keep it waiting', async () => {
    const ticket = await openTicket(t, alice);
    await userMessage(ticket.id, 'First');
    await userMessage(ticket.id, 'Second');
    expect(await statusOf(ticket.id)).toBe('waiting_for_reply');
  });

  it('lets an administrator set any status from any status, closed included', async () => {
    const ticket = await openTicket(t, alice);
    const path: TicketStatus[] = [
      'waiting_for_reply',
      'closed',
      'open',
      'closed',
      'waiting_for_reply',
      'open',
    ];
    for (const status of path) {
      const response = await setStatus(ticket.id, status);
      expect(response.statusCode).toBe(200);
      expect(response.json().ticket.status).toBe(status);
      expect(await statusOf(ticket.id)).toBe(status);
    }
    // Setting the status it already has is not an error.
    expect((await setStatus(ticket.id, 'open')).statusCode).toBe(200);
  });

  it.each(['', 'reopened', 'OPEN', 1, null])('refuses the status %j with 400', async (status) => {
    const ticket = await openTicket(t, alice);
    const response = await post(admin, `/api/tickets/admin/tickets/${ticket.id}/status`, {
      status,
      reason: 'support triage',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatch(/^Invalid request: status /);
    expect(await statusOf(ticket.id)).toBe('open');
  });

  it('lets an administrator close an open or waiting ticket, not a closed one', async () => {
    const open = await openTicket(t, alice);
    const waiting = await openTicket(t, alice);
    await userMessage(waiting.id, 'Hello?');
    for (const ticket of [open, waiting]) {
      const response = await post(admin, `/api/tickets/admin/tickets/${ticket.id}/close`);
      expect(response.json()).toMatchObject({ success: true, ticket: { status: 'closed' } });
    }
    const again = await post(admin, `/api/tickets/admin/tickets/${open.id}/close`);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, error: ticketMessages.alreadyClosed });
  });
});

describe('unread answers', () => {
  const unreadCount = async (caller: TestUser) => (await get(caller, '/api/tickets/unread')).json().count;
  const ownList = async () => (await get(alice, '/api/tickets')).json().tickets as Ticket[];

  it("marks support's answer unread for the owner until they open the ticket, on the list and in the count", async () => {
    const bob = await createUser(t);
    const first = await openTicket(t, alice);
    const second = await openTicket(t, alice);
    expect(await unreadCount(alice)).toBe(0);

    t.clock.advance(60_000);
    await adminReply(first.id, 'Refunded.');
    await adminReply(second.id, 'Which number?');
    expect(await unreadCount(alice)).toBe(2);
    expect(await unreadCount(bob)).toBe(0);
    expect((await ownList()).map((ticket) => [ticket.id, ticket.unread])).toEqual([
      [second.id, true],
      [first.id, true],
    ]);

    // Opening one reads it (the answer it gives already says so); writing in the other reads it too.
    t.clock.advance(60_000);
    expect((await get(alice, `/api/tickets/${first.id}`)).json().ticket.unread).toBe(false);
    expect(await unreadCount(alice)).toBe(1);
    await userMessage(second.id, '+44 7700 900123');
    expect(await unreadCount(alice)).toBe(0);

    // A later answer is news again; another user opening nothing changes nothing for Alice.
    t.clock.advance(60_000);
    await adminReply(first.id, 'Done.');
    expect((await ownList()).find((ticket) => ticket.id === first.id)?.unread).toBe(true);
    expect((await get(bob, `/api/tickets/${first.id}`)).statusCode).toBe(404);
    expect(await unreadCount(alice)).toBe(1);
  });
});

describe('closed tickets and closing rules', () => {
  it('lets a user close only an open ticket', async () => {
    const ticket = await openTicket(t, alice);
    await userMessage(ticket.id, 'Still waiting');
    const whileWaiting = await post(alice, `/api/tickets/${ticket.id}/close`);
    expect(whileWaiting.statusCode).toBe(409);
    expect(whileWaiting.json()).toMatchObject({ success: false, error: ticketMessages.onlyOpenCanBeClosed });
    expect(await statusOf(ticket.id)).toBe('waiting_for_reply');

    await setStatus(ticket.id, 'closed');
    const whenClosed = await post(alice, `/api/tickets/${ticket.id}/close`);
    expect(whenClosed.statusCode).toBe(409);
    expect(whenClosed.json().error).toBe(ticketMessages.onlyOpenCanBeClosed);
  });

  it('lets nobody write to a closed ticket until an administrator reopens it', async () => {
    const ticket = await openTicket(t, alice);
    await post(alice, `/api/tickets/${ticket.id}/close`);
    for (const response of [await userMessage(ticket.id, 'Wait!'), await adminReply(ticket.id, 'Sure')]) {
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ success: false, error: ticketMessages.closedNote });
    }
    expect((await threadOf(t, admin, ticket.id)).messages).toHaveLength(1);

    await setStatus(ticket.id, 'open');
    expect((await userMessage(ticket.id, 'Thanks for reopening')).statusCode).toBe(201);
  });

  it('never lets a message land on a ticket closed at the same moment', async () => {
    const ticket = await openTicket(t, alice);
    await adminReply(ticket.id, 'Anything else?');
    const [message, close] = await Promise.all([
      userMessage(ticket.id, 'One more thing'),
      post(admin, `/api/tickets/admin/tickets/${ticket.id}/close`),
    ]);
    const thread = await threadOf(t, admin, ticket.id);
    expect(thread.ticket.status).toBe('closed');
    expect(close.statusCode).toBe(200);
    // Either the message came first (and the close followed it) or it was refused as closed.
    if (message.statusCode === 201) expect(thread.messages).toHaveLength(3);
    else {
      expect(message.json().error).toBe(ticketMessages.closedNote);
      expect(thread.messages).toHaveLength(2);
    }
  });
});

describe('messages', () => {
  it('keeps line breaks and trims only the ends', async () => {
    const ticket = await openTicket(t, alice);
    const response = await userMessage(ticket.id, '\n  line one\n\n  line two  \n');
    expect(response.json().message.content).toBe('line one\n\n  line two');
  });

  it('accepts a message exactly at the limit', async () => {
    const ticket = await openTicket(t, alice);
    expect((await userMessage(ticket.id, 'm'.repeat(TICKET_CONTENT_MAX_LENGTH))).statusCode).toBe(201);
    expect((await adminReply(ticket.id, 'r'.repeat(TICKET_CONTENT_MAX_LENGTH))).statusCode).toBe(201);
  });

  it.each([
    ['empty', { content: '' }, ticketMessages.messageRequired],
    ['blank', { content: ' \n\t ' }, ticketMessages.messageRequired],
    ['missing', {}, ticketMessages.messageRequired],
    [
      'one past the limit',
      { content: 'm'.repeat(TICKET_CONTENT_MAX_LENGTH + 1) },
      ticketMessages.messageTooLong,
    ],
  ])('refuses a %s message from the user and from support, writing nothing', async (_name, body, error) => {
    const ticket = await openTicket(t, alice);
    for (const url of [
      `/api/tickets/${ticket.id}/messages`,
      `/api/tickets/admin/tickets/${ticket.id}/messages`,
    ]) {
      const response = await post(url.includes('/admin/') ? admin : alice, url, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, error });
    }
    const thread = await threadOf(t, admin, ticket.id);
    expect(thread.messages).toHaveLength(1);
    expect(thread.ticket.status).toBe('open');
  });

  it.each([
    ['a number', { content: 5 }],
    ['a list', { content: ['hi'] }],
    ['null', { content: null }],
  ])('answers 400, never 500, to %s as content', async (_name, body) => {
    const ticket = await openTicket(t, alice);
    const response = await post(alice, `/api/tickets/${ticket.id}/messages`, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe('Invalid request: content must be a string.');
  });

  it(`limits each user to ${TICKET_MESSAGE_RATE_LIMIT.max} messages per window`, async () => {
    const ticket = await openTicket(t, alice);
    for (let sent = 0; sent < TICKET_MESSAGE_RATE_LIMIT.max; sent += 1) {
      expect((await userMessage(ticket.id, `Message ${sent}`)).statusCode).toBe(201);
    }
    const refused = await userMessage(ticket.id, 'One too many');
    expect(refused.statusCode).toBe(429);
    expect((await threadOf(t, admin, ticket.id)).messages).toHaveLength(TICKET_MESSAGE_RATE_LIMIT.max + 1);
    // Support's own budget is separate.
    expect((await adminReply(ticket.id, 'Please slow down')).statusCode).toBe(201);
  });
});

describe('administrators', () => {
  it('delete a ticket with its messages', async () => {
    const ticket = await openTicket(t, alice);
    await adminReply(ticket.id, 'Done');
    const deleted = await call(t, admin, 'DELETE', `/api/tickets/admin/tickets/${ticket.id}`, {
      reason: 'spam',
    });
    expect(deleted.json()).toEqual({ success: true });
    expect((await get(alice, `/api/tickets/${ticket.id}`)).statusCode).toBe(404);
    expect((await get(admin, `/api/tickets/admin/tickets/${ticket.id}`)).statusCode).toBe(404);
    expect((await get(alice, '/api/tickets')).json().total).toBe(0);
    const again = await call(t, admin, 'DELETE', `/api/tickets/admin/tickets/${ticket.id}`, {
      reason: 'spam',
    });
    expect(again.statusCode).toBe(404);
  });

  it('delete and change status only with a reason, each in the audit log; a deleted ticket stays in the database', async () => {
    const ticket = await openTicket(t, alice);
    const noReason = await post(admin, `/api/tickets/admin/tickets/${ticket.id}/status`, {
      status: 'closed',
    });
    expect(noReason.statusCode).toBe(400);
    expect((await call(t, admin, 'DELETE', `/api/tickets/admin/tickets/${ticket.id}`)).statusCode).toBe(400);
    expect(await statusOf(ticket.id)).toBe('open');

    expect((await setStatus(ticket.id, 'waiting_for_reply')).statusCode).toBe(200);
    expect((await post(admin, `/api/tickets/admin/tickets/${ticket.id}/close`)).statusCode).toBe(200);
    expect(
      (await call(t, admin, 'DELETE', `/api/tickets/admin/tickets/${ticket.id}`, { reason: 'spam' }))
        .statusCode,
    ).toBe(200);
    const entries = await t.ctx.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.objectType, 'ticket'))
      .orderBy(auditLog.id);
    expect(
      entries.map(({ action, objectId, reason, adminId }) => ({ action, objectId, reason, adminId })),
    ).toEqual([
      { action: 'ticket.status', objectId: String(ticket.id), reason: 'support triage', adminId: admin.id },
      {
        action: 'ticket.status',
        objectId: String(ticket.id),
        reason: 'Closed from the ticket.',
        adminId: admin.id,
      },
      { action: 'ticket.delete', objectId: String(ticket.id), reason: 'spam', adminId: admin.id },
    ]);
    const [kept] = await t.ctx.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect(kept?.deletedAt).toBeInstanceOf(Date);
  });

  it("see every user's tickets counted, and each user only their own, through openings and deletions", async () => {
    const bob = await createUser(t);
    const [first] = await Promise.all([openTicket(t, alice), openTicket(t, alice), openTicket(t, bob)]);
    const totals = async () => ({
      alice: (await get(alice, '/api/tickets')).json().total,
      bob: (await get(bob, '/api/tickets')).json().total,
      everyone: (await get(admin, '/api/tickets/admin/tickets')).json().total,
    });
    expect(await totals()).toEqual({ alice: 2, bob: 1, everyone: 3 });
    await call(t, admin, 'DELETE', `/api/tickets/admin/tickets/${first.id}`, { reason: 'spam' });
    expect(await totals()).toEqual({ alice: 1, bob: 1, everyone: 2 });
  });

  it("read a ticket author's username and e-mail, and nothing else of the account", async () => {
    const response = await get(admin, `/api/tickets/admin/user/${alice.id}`);
    expect(response.json()).toEqual({
      success: true,
      user: { id: alice.id, username: alice.username, email: alice.email },
    });
    const unknown = await get(admin, '/api/tickets/admin/user/424242');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ success: false, error: ticketMessages.userNotFound });
  });
});

describe('unknown and malformed ids', () => {
  const idRoutes = (id: string) =>
    [
      [alice, 'GET', `/api/tickets/${id}`],
      [alice, 'POST', `/api/tickets/${id}/messages`, { content: 'Hi' }],
      [alice, 'POST', `/api/tickets/${id}/close`],
      [admin, 'GET', `/api/tickets/admin/tickets/${id}`],
      [admin, 'POST', `/api/tickets/admin/tickets/${id}/messages`, { content: 'Hi' }],
      [
        admin,
        'POST',
        `/api/tickets/admin/tickets/${id}/status`,
        { status: 'open', reason: 'support triage' },
      ],
      [admin, 'POST', `/api/tickets/admin/tickets/${id}/close`],
      [admin, 'DELETE', `/api/tickets/admin/tickets/${id}`, { reason: 'spam' }],
    ] as const;

  it('answers 404 with the same text for a ticket that does not exist', async () => {
    await openTicket(t, alice);
    for (const [caller, method, url, payload] of idRoutes('987654')) {
      const response = await call(t, caller, method, url, payload);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ success: false, error: ticketMessages.ticketNotFound });
    }
  });

  it.each(['abc', '1.5', '-1', '0', '2147483648', '99999999999999999999', '1e400', '%20', 'NaN'])(
    'answers 400, never 500, to the id %j on every route',
    async (id) => {
      for (const [caller, method, url, payload] of [
        ...idRoutes(id),
        [admin, 'GET', `/api/tickets/admin/user/${id}`] as const,
      ]) {
        const response = await call(t, caller, method, url, payload);
        expect(response.statusCode, `${method} ${url}`).toBe(400);
        expect(response.json().error).toMatch(/^Invalid request: (id|userId) /);
      }
    },
  );
});

describe('the API description', () => {
  it('documents every ticket route for /api/docs', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const routes = Object.entries(response.json().paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/tickets'))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
    expect(routes.sort()).toEqual(
      [
        'GET /api/tickets',
        'GET /api/tickets/unread',
        'POST /api/tickets',
        'GET /api/tickets/{id}',
        'POST /api/tickets/{id}/messages',
        'POST /api/tickets/{id}/close',
        'GET /api/tickets/admin/tickets',
        'GET /api/tickets/admin/tickets/{id}',
        'POST /api/tickets/admin/tickets/{id}/messages',
        'POST /api/tickets/admin/tickets/{id}/status',
        'POST /api/tickets/admin/tickets/{id}/close',
        'DELETE /api/tickets/admin/tickets/{id}',
        'GET /api/tickets/admin/user/{userId}',
      ].sort(),
    );
  });
});

describe('the first page of a user’s tickets, kept in memory between changes', () => {
  const listed = async (encoding = 'identity') => {
    const response = await t.app.inject({
      url: '/api/tickets',
      headers: { ...alice.headers, 'accept-encoding': encoding },
    });
    const body =
      response.headers['content-encoding'] === 'gzip' ? gunzipSync(response.rawPayload) : response.rawPayload;
    const page = JSON.parse(body.toString()) as { tickets: Ticket[]; total: number };
    return { total: page.total, statuses: page.tickets.map((ticket) => [ticket.id, ticket.status]) };
  };

  it('shows every change at once: a new ticket, a reply, a status, a close, a deletion', async () => {
    expect(await listed()).toEqual({ total: 0, statuses: [] });
    const first = await openTicket(t, alice);
    expect(await listed()).toEqual({ total: 1, statuses: [[first.id, 'open']] });
    // Enough tickets for the page to be compressed.
    const others = [];
    for (let index = 0; index < 8; index += 1)
      others.push(await openTicket(t, alice, { title: `More ${index}` }));
    const second = others[0]!;
    expect((await listed('gzip')).total).toBe(9);
    expect(await listed('gzip')).toEqual(await listed());

    expect((await userMessage(second.id, 'Any news?')).statusCode).toBe(201);
    expect((await listed('gzip')).statuses).toContainEqual([second.id, 'waiting_for_reply']);
    expect((await adminReply(second.id, 'Looking into it')).statusCode).toBe(201);
    expect((await listed('gzip')).statuses).toContainEqual([second.id, 'open']);
    expect((await setStatus(second.id, 'waiting_for_reply')).statusCode).toBe(200);
    expect((await listed()).statuses).toContainEqual([second.id, 'waiting_for_reply']);
    expect((await post(alice, `/api/tickets/${first.id}/close`)).statusCode).toBe(200);
    expect((await listed()).statuses).toContainEqual([first.id, 'closed']);
    expect(
      (await call(t, admin, 'DELETE', `/api/tickets/admin/tickets/${first.id}`, { reason: 'spam' }))
        .statusCode,
    ).toBe(200);
    const afterDeletion = await listed('gzip');
    expect(afterDeletion.total).toBe(8);
    expect(afterDeletion.statuses.map(([id]) => id)).not.toContain(first.id);
  });
});
