import { ADMIN_ROLE, generalMessages, type Ticket, ticketMessages, USER_ROLE } from '@simcode/contract';
import { fakeToken, refuse, unchecked } from '@test/fake-api';
import { createFakeTicketApi, type FakeTicketApi, type SeedTicket } from '@test/fakes/tickets';
import { renderWithProviders } from '@test/render';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import { format } from 'date-fns';
import { toast } from 'sonner';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TicketStatusBadge, TicketStatusLegend } from '@/components/ticket-status-badge';
import { TicketsPage } from './tickets-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

const alice = { id: 7, username: 'alice_7', email: 'alice@example.com' };
const bob = { id: 8, username: 'bob_8', email: 'bob@example.com' };

function ticket(overrides: Partial<SeedTicket> & Pick<Ticket, 'id' | 'title'>): SeedTicket {
  return {
    user_id: alice.id,
    description: `About ${overrides.title}`,
    status: 'open',
    created_at: '2026-03-02T10:15:00.000Z',
    updated_at: '2026-03-02T10:15:00.000Z',
    ...overrides,
  };
}

let api: FakeTicketApi;

function renderPage({
  role,
  tickets = [],
}: {
  role: number | null;
  tickets?: Array<Ticket & { messages?: string[] }>;
}) {
  api = createFakeTicketApi({ users: [alice, bob], tickets });
  vi.stubGlobal('fetch', api.fetch);
  if (role !== null) localStorage.setItem('token', fakeToken(role));
  const { router, user } = renderWithProviders(
    [
      { path: '/dashboard/tickets', Component: TicketsPage },
      { path: '/login', element: <p>Login page</p> },
    ],
    { at: '/dashboard/tickets' },
  );
  return { router, user };
}

beforeAll(() => {
  // Radix's Select and Dialog use browser APIs that happy-dom leaves out.
  Element.prototype.scrollIntoView ??= () => {};
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
});
beforeEach(() => {
  vi.mocked(toast.success).mockClear();
  vi.mocked(toast.error).mockClear();
});
afterEach(() => {
  localStorage.clear();
  vi.unstubAllGlobals();
});

const ticketList = () => screen.getByRole('list', { name: /Tickets$/ });
const listItem = (title: string) =>
  within(ticketList())
    .getAllByRole('listitem')
    .find((item) => within(item).queryByText(title))!;
const messageInput = () => screen.getByRole('textbox', { name: 'Message' });
const conversation = () => screen.getByRole('list', { name: 'Messages' });

describe('signed out', () => {
  it('asks to log in, links to /login, offers sign-up and the chat, and calls nothing', async () => {
    const { router, user } = renderPage({ role: null });
    expect(screen.getByText(ticketMessages.loginRequired)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
    expect(screen.getByRole('link', { name: /Chat with support/ })).toHaveAttribute('target', '_blank');
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(router.state.location.pathname).toBe('/login');
    expect(api.fetch).not.toHaveBeenCalled();
  });
});

describe('a user', () => {
  it('sees the legend and the empty states when they have no tickets', async () => {
    renderPage({ role: USER_ROLE });
    expect(await screen.findByText(ticketMessages.noTickets)).toBeInTheDocument();
    expect(screen.getByText(ticketMessages.noTicketsHint)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: ticketMessages.selectTicket })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create New Ticket' })).toBeInTheDocument();
    const legend = screen.getByRole('list', { name: 'Status:' });
    expect(
      within(legend)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Open', 'Waiting for Reply', 'Closed']);
    expect(api.calls.map((call) => call.path)).toEqual(['/api/tickets']);
  });

  it('sees each ticket with title, badge, description, date and a count only once selected', async () => {
    const { user } = renderPage({
      role: USER_ROLE,
      tickets: [
        ticket({ id: 1, title: 'No SMS', status: 'waiting_for_reply', messages: ['Any news?'] }),
        ticket({ id: 2, title: 'Refund', status: 'closed', created_at: '2026-01-15T12:00:00.000Z' }),
      ],
    });
    const first = await screen.findByText('No SMS');
    expect(within(listItem('No SMS')).getByText('Waiting for Reply')).toBeInTheDocument();
    expect(within(listItem('No SMS')).getByText('About No SMS')).toBeInTheDocument();
    expect(within(listItem('Refund')).getByText('Closed')).toBeInTheDocument();
    expect(within(listItem('Refund')).getByText(format(new Date('2026-01-15T12:00:00Z'), 'MMM d, yyyy')));
    for (const title of ['No SMS', 'Refund']) expect(listItem(title)).toHaveTextContent('Messages: -');

    await user.click(first);
    await screen.findByRole('heading', { name: 'No SMS', level: 2 });
    await waitFor(() => expect(listItem('No SMS')).toHaveTextContent('Messages: 2'));
    expect(listItem('Refund')).toHaveTextContent('Messages: -');
    expect(within(ticketList()).getByRole('button', { current: true })).toHaveTextContent('No SMS');
  });

  it('reads the thread as plain text: support on the left, their own on the right', async () => {
    const markup = '<script>window.hacked = true</script>\n<b>not bold</b>\nhttps://example.com';
    const { user } = renderPage({
      role: USER_ROLE,
      tickets: [ticket({ id: 1, title: 'Help', description: markup, messages: ['We are looking into it.'] })],
    });
    await user.click(await screen.findByText('Help'));
    const thread = api.thread(1)!;
    const items = within(await screen.findByRole('list', { name: 'Messages' })).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveAttribute('data-author', 'user');
    expect(items[0]).toHaveTextContent('You');
    expect(items[0]).toHaveAttribute('data-side', 'end');
    expect(items[1]).toHaveTextContent('Support Team');
    expect(items[1]).toHaveAttribute('data-side', 'start');
    expect(within(items[1]!).getByText(format(new Date(thread.messages[1]!.created_at), 'HH:mm')));

    const bubble = within(items[0]!).getByText(/window\.hacked/);
    expect(bubble.textContent).toBe(markup);
    expect(bubble.querySelector('script, b, a')).toBeNull();
    expect((window as { hacked?: boolean }).hacked).toBeUndefined();
    expect(screen.getByText(/^Opened on/)).toHaveTextContent(
      `Opened on ${format(new Date(thread.ticket.created_at), 'MMMM d, yyyy')}`,
    );
  });

  it('sends with Enter, not with Shift+Enter, and never an empty message', async () => {
    const { user } = renderPage({ role: USER_ROLE, tickets: [ticket({ id: 1, title: 'Help' })] });
    await user.click(await screen.findByText('Help'));
    await user.click(messageInput());
    await user.keyboard('   {Enter}');
    await user.keyboard('First line{Shift>}{Enter}{/Shift}second line');
    expect(api.writes()).toEqual([]);
    expect(messageInput()).toHaveValue('   First line\nsecond line');

    await user.keyboard('{Enter}');
    await waitFor(() => expect(messageInput()).toHaveValue(''));
    expect(api.writes()).toMatchObject([
      { method: 'POST', path: '/api/tickets/1/messages', body: { content: 'First line\nsecond line' } },
    ]);
    expect(toast.success).toHaveBeenCalledWith(ticketMessages.messageSent, {
      description: ticketMessages.messageSentDescription,
    });
    // The lists and the open ticket are refetched: the new status shows with its note.
    expect(await screen.findByText(ticketMessages.waitingNote)).toBeInTheDocument();
    expect(within(conversation()).getAllByRole('listitem')).toHaveLength(2);
  });

  it('can close an open ticket, and then can no longer write', async () => {
    const { user } = renderPage({ role: USER_ROLE, tickets: [ticket({ id: 1, title: 'Help' })] });
    await user.click(await screen.findByText('Help'));
    await user.click(await screen.findByRole('button', { name: 'Close Ticket' }));
    expect(await screen.findByText(ticketMessages.closedNote)).toBeInTheDocument();
    expect(api.writes()).toMatchObject([{ method: 'POST', path: '/api/tickets/1/close' }]);
    expect(toast.success).toHaveBeenCalledWith(ticketMessages.ticketClosed);
    expect(messageInput()).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Close Ticket' })).not.toBeInTheDocument();
  });

  it('gets no Close button on a ticket waiting for support', async () => {
    const { user } = renderPage({
      role: USER_ROLE,
      tickets: [ticket({ id: 1, title: 'Help', status: 'waiting_for_reply' })],
    });
    await user.click(await screen.findByText('Help'));
    expect(await screen.findByText(ticketMessages.waitingNote)).toBeInTheDocument();
    expect(messageInput()).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Close Ticket' })).not.toBeInTheDocument();
  });

  it('opens a ticket from the dialog and sees it selected; a blank field sends nothing and says so at the field', async () => {
    const { router, user } = renderPage({ role: USER_ROLE });
    await user.click(await screen.findByRole('button', { name: 'New Ticket' }));
    const dialog = screen.getByRole('dialog', { name: 'Create New Support Ticket' });
    await user.type(within(dialog).getByLabelText('Title'), '   ');
    await user.type(within(dialog).getByLabelText('Description'), 'Something broke');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Ticket' }));
    expect(api.writes()).toEqual([]);
    expect(toast.error).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Title')).toHaveAccessibleDescription(
      expect.stringContaining(generalMessages.fieldRequired),
    );
    expect(within(dialog).getByLabelText('Description')).not.toHaveAttribute('aria-invalid');

    await user.type(within(dialog).getByLabelText('Title'), 'Code missing  ');
    await user.click(within(dialog).getByRole('button', { name: 'Submit Ticket' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.writes()).toMatchObject([
      {
        method: 'POST',
        path: '/api/tickets',
        body: { title: 'Code missing', description: 'Something broke' },
      },
    ]);
    expect(toast.success).toHaveBeenCalledWith(ticketMessages.ticketCreated, {
      description: ticketMessages.ticketCreatedDescription,
    });
    expect(await screen.findByRole('heading', { name: 'Code missing', level: 2 })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?ticket=100');
    expect(within(ticketList()).getByRole('button', { current: true })).toHaveTextContent('Code missing');
  });

  it("shows the server's error, or the fallback, in a destructive toast and keeps the draft", async () => {
    const { user } = renderPage({ role: USER_ROLE, tickets: [ticket({ id: 1, title: 'Help' })] });
    await user.click(await screen.findByText('Help'));
    api.failNext('POST', /messages$/, refuse(409, 'Server says no.'));
    await user.type(messageInput(), 'Hello{Enter}');
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(ticketMessages.errorTitle, { description: 'Server says no.' }),
    );
    expect(messageInput()).toHaveValue('Hello');

    api.failNext('POST', /messages$/, unchecked(500, { success: false }));
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(toast.error).toHaveBeenLastCalledWith(ticketMessages.errorTitle, {
        description: ticketMessages.sendFailed,
      }),
    );
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('ignores network failures silently, on changes and on loading', async () => {
    const { user } = renderPage({ role: USER_ROLE, tickets: [ticket({ id: 1, title: 'Help' })] });
    await user.click(await screen.findByText('Help'));
    api.failNext('POST', /messages$/, 'network');
    await user.type(messageInput(), 'Hello{Enter}');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Send message' })).toBeEnabled());
    expect(api.writes()).toHaveLength(1);
    expect(messageInput()).toHaveValue('Hello');
    expect(toast.error).not.toHaveBeenCalled();
    expect(toast.success).not.toHaveBeenCalled();
  });

  it('asks the server for the chosen sort order', async () => {
    const { user } = renderPage({ role: USER_ROLE, tickets: [ticket({ id: 1, title: 'Help' })] });
    await screen.findByText('Help');
    const sort = screen.getByRole('combobox', { name: 'Sort by' });
    expect(sort).toHaveTextContent('Newest First');
    await user.click(sort);
    await user.click(await screen.findByRole('option', { name: 'Status' }));
    await waitFor(() => expect(api.calls.at(-1)?.query.get('sort')).toBe('status'));
    expect(api.calls.filter((call) => call.path === '/api/tickets').map((c) => c.query.get('sort'))).toEqual([
      'date_desc',
      'status',
    ]);
  });
});

describe('an administrator', () => {
  const adminTickets = () => [
    ticket({ id: 1, title: 'From Alice', messages: [] }),
    ticket({ id: 2, title: 'From Bob', user_id: bob.id, status: 'waiting_for_reply' }),
    ticket({ id: 3, title: 'Alice again', status: 'closed' }),
  ];
  const userCalls = () => api.calls.filter((call) => call.path.startsWith('/api/tickets/admin/user/'));

  it('sees every ticket with its author, asking once per distinct user', async () => {
    const { user } = renderPage({ role: ADMIN_ROLE, tickets: adminTickets() });
    expect(await screen.findByRole('heading', { name: 'All Tickets' })).toBeInTheDocument();
    await waitFor(() => expect(listItem('From Bob')).toHaveTextContent('bob_8 · bob@example.com'));
    expect(listItem('From Alice')).toHaveTextContent('alice_7 · alice@example.com');
    expect(listItem('Alice again')).toHaveTextContent('alice_7 · alice@example.com');
    expect(api.calls[0]?.path).toBe('/api/tickets/admin/tickets');

    await user.click(screen.getByText('From Alice'));
    await user.click(await screen.findByRole('button', { name: 'View User Info' }));
    const dialog = screen.getByRole('dialog', { name: 'User Info' });
    expect(within(dialog).getByText('Username').nextElementSibling).toHaveTextContent('alice_7');
    expect(within(dialog).getByText('Email').nextElementSibling).toHaveTextContent('alice@example.com');
    await user.click(within(dialog).getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      userCalls()
        .map((call) => call.path)
        .sort(),
    ).toEqual(['/api/tickets/admin/user/7', '/api/tickets/admin/user/8']);
  });

  it("replies as support: their replies on the right, the user's on the left under the username", async () => {
    const { user } = renderPage({ role: ADMIN_ROLE, tickets: adminTickets() });
    await user.click(await screen.findByText('From Bob'));
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'We refunded you.{Enter}');
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(ticketMessages.replySent, {
        description: ticketMessages.replySentDescription,
      }),
    );
    expect(api.writes()).toMatchObject([
      { path: '/api/tickets/admin/tickets/2/messages', body: { content: 'We refunded you.' } },
    ]);
    await waitFor(() => expect(within(conversation()).getAllByRole('listitem')).toHaveLength(2));
    const [question, reply] = within(conversation()).getAllByRole('listitem');
    expect(question).toHaveTextContent('bob_8');
    expect(question).toHaveAttribute('data-side', 'start');
    expect(reply).toHaveTextContent('Support Team');
    expect(reply).toHaveAttribute('data-side', 'end');
  });

  it('sets any status from the selector', async () => {
    const { user } = renderPage({ role: ADMIN_ROLE, tickets: adminTickets() });
    await user.click(await screen.findByText('Alice again'));
    const selector = await screen.findByRole('combobox', { name: 'Ticket status' });
    expect(selector).toHaveTextContent('Closed');
    expect(screen.queryByRole('button', { name: 'Close Ticket' })).not.toBeInTheDocument();
    await user.click(selector);
    await user.click(await screen.findByRole('option', { name: 'Waiting for Reply' }));
    // Each change asks why (the audit log keeps it); nothing is sent before.
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Change the status to Waiting for Reply?',
    });
    const apply = within(dialog).getByRole('button', { name: 'Change status' });
    expect(apply).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason (for the audit log)'), 'asked for a screenshot');
    await user.click(apply);
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(ticketMessages.statusUpdated, {
        description: 'Ticket status changed to Waiting for Reply.',
      }),
    );
    expect(api.writes()).toMatchObject([
      {
        path: '/api/tickets/admin/tickets/3/status',
        body: { status: 'waiting_for_reply', reason: 'asked for a screenshot' },
      },
    ]);
    expect(await screen.findByRole('button', { name: 'Close Ticket' })).toBeInTheDocument();
  });

  it('deletes a ticket only after the exact confirmation', async () => {
    const { user } = renderPage({ role: ADMIN_ROLE, tickets: adminTickets() });
    await user.click(await screen.findByText('From Alice'));
    await user.click(await screen.findByRole('button', { name: 'Delete Ticket' }));
    const confirm = screen.getByRole('alertdialog');
    expect(confirm).toHaveTextContent(ticketMessages.deleteConfirm);
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(api.writes()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Ticket' }));
    const dialog = screen.getByRole('alertdialog');
    expect(within(dialog).getByRole('button', { name: 'Delete Ticket' })).toBeDisabled();
    await user.type(within(dialog).getByLabelText('Reason (for the audit log)'), 'spam');
    await user.click(within(dialog).getByRole('button', { name: 'Delete Ticket' }));
    await waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith(ticketMessages.ticketDeleted, {
        description: ticketMessages.ticketDeletedDescription,
      }),
    );
    expect(api.writes()).toMatchObject([
      { method: 'DELETE', path: '/api/tickets/admin/tickets/1', body: { reason: 'spam' } },
    ]);
    expect(await screen.findByRole('heading', { name: ticketMessages.selectTicket })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('From Alice')).not.toBeInTheDocument());
    // The deleted ticket is not asked for again.
    expect(
      api.calls.filter((call) => call.method === 'GET' && call.path === '/api/tickets/admin/tickets/1'),
    ).toHaveLength(1);
  });

  it('shows the fallback when a delete fails without a server text', async () => {
    const { user } = renderPage({ role: ADMIN_ROLE, tickets: adminTickets() });
    await user.click(await screen.findByText('From Alice'));
    api.failNext('DELETE', /tickets\/1$/, unchecked(502, {}));
    await user.click(await screen.findByRole('button', { name: 'Delete Ticket' }));
    await user.type(
      within(screen.getByRole('alertdialog')).getByLabelText('Reason (for the audit log)'),
      'spam',
    );
    await user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete Ticket' }));
    await waitFor(() =>
      expect(toast.error).toHaveBeenCalledWith(ticketMessages.errorTitle, {
        description: ticketMessages.deleteFailed,
      }),
    );
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();
  });
});

describe('the status badge', () => {
  /** How a badge is drawn: its own look and its dot's. */
  const lookOf = (badge: HTMLElement) => [badge.className, badge.firstElementChild?.className];
  const legendBadge = (label: string) =>
    within(screen.getByRole('list', { name: 'Status:' })).getByText(label);

  it('draws each of the three statuses its own way, as the legend shows them', async () => {
    await act(async () => {
      render(<TicketStatusLegend />);
    });
    const looks = ['Open', 'Waiting for Reply', 'Closed'].map((label) => lookOf(legendBadge(label)).join());
    expect(new Set(looks).size).toBe(3);
  });

  it.each([
    ['open', 'Open', 'Open'],
    ['waiting_for_reply', 'Waiting for Reply', 'Waiting for Reply'],
    ['closed', 'Closed', 'Closed'],
    ['escalated', 'escalated', 'Open'],
  ])(
    'shows %s as %s, looking like %s in the legend (unknown looks open)',
    async (status, label, looksLike) => {
      await act(async () => {
        render(
          <>
            <TicketStatusLegend />
            <TicketStatusBadge status={status} />
          </>,
        );
      });
      const shown = screen.getAllByText(label).find((badge) => !legendBadge(looksLike).isSameNode(badge))!;
      expect(lookOf(shown)).toEqual(lookOf(legendBadge(looksLike)));
    },
  );
});
