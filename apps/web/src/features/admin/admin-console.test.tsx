import { ADMIN_ROLE, adminMessages, USER_ROLE } from '@simcode/contract';
import { fakeToken } from '@test/fake-api';
import { adminOrder, adminUser, createFakeAdminApi, type FakeAdminApi } from '@test/fakes/admin';
import { renderWithProviders } from '@test/render';
import { screen, waitFor, within } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '@/lib/query-client';
import { AdminLayout } from './admin-layout';
import { OrderPage } from './order-page';
import { ReconciliationPage } from './reconciliation-page';
import { UserPage } from './user-page';
import { UsersPage } from './users-page';

vi.mock('sonner', () => ({ toast: { success: vi.fn(), error: vi.fn() } }));

let api: FakeAdminApi;

function renderConsole(
  path: string,
  { role = ADMIN_ROLE, ...fake }: { role?: number | null } & Parameters<typeof createFakeAdminApi>[0] = {},
) {
  api = createFakeAdminApi(fake);
  vi.stubGlobal('fetch', api.fetch);
  if (role !== null) localStorage.setItem('token', fakeToken(role));
  // The console brings its own query cache, the app's.
  const { router, user } = renderWithProviders(
    [
      {
        path: '/admin',
        Component: AdminLayout,
        children: [
          { path: 'users', Component: UsersPage },
          { path: 'users/:id', Component: UserPage },
          { path: 'orders/:id', Component: OrderPage },
          { path: 'reconciliation', Component: ReconciliationPage },
        ],
      },
      { path: '/login', element: <p>Login page</p> },
    ],
    { at: path, queryClient: null },
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
  queryClient.clear();
  vi.unstubAllGlobals();
});

const usersTable = () => screen.getByRole('table', { name: 'Users' });
const userNames = () =>
  within(usersTable())
    .getAllByRole('link')
    .map((link) => link.textContent);
const adminGets = (path: string) => api.calls.filter((call) => call.method === 'GET' && call.path === path);

describe('who may open the console', () => {
  it('shows a user who is not an administrator the 404 page, and nothing of the console', async () => {
    renderConsole('/admin/users', { role: USER_ROLE, forbidden: true, users: [adminUser(1)] });
    expect(await screen.findByRole('heading', { name: 'Oops! Page not found' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Console' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Users' })).not.toBeInTheDocument();
    expect(screen.queryByText('user_1')).not.toBeInTheDocument();
  });

  it('sends a visitor to sign in without asking the server', async () => {
    const { router } = renderConsole('/admin/users', { role: null });
    expect(await screen.findByText('Login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(api.fetch).not.toHaveBeenCalled();
  });
});

describe('the users list', () => {
  it('searches by the box, keeps the search in the address, and loads older pages by keyset', async () => {
    const users = [1, 2, 3, 4, 5].map((id) => adminUser(id, id % 2 ? { username: `alice_${id}` } : {}));
    const { router, user } = renderConsole('/admin/users', { users, pageSize: 2 });
    await waitFor(() => expect(userNames()).toEqual(['alice_5', 'user_4']));
    expect(screen.getByRole('navigation', { name: 'Console' })).toBeInTheDocument();

    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'alice');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(userNames()).toEqual(['alice_5', 'alice_3']));
    expect(router.state.location.search).toBe('?q=alice');
    const searches = adminGets('/api/admin/users').filter((call) => call.query.get('q') === 'alice');
    expect(searches).toHaveLength(1);
    expect(searches[0]!.query.get('before')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(userNames()).toEqual(['alice_5', 'alice_3', 'alice_1']));
    const more = adminGets('/api/admin/users').at(-1)!;
    expect(more.query.get('q')).toBe('alice');
    expect(more.query.get('before')).toBe('3');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('says so when nothing matches', async () => {
    const { user } = renderConsole('/admin/users?q=nobody', { users: [adminUser(1)] });
    expect(await screen.findByText('No user matches “nobody”.')).toBeInTheDocument();
    expect(screen.getByRole('searchbox', { name: 'Search users' })).toHaveValue('nobody');
    await user.clear(screen.getByRole('searchbox', { name: 'Search users' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(userNames()).toEqual(['user_1']));
  });
});

describe("a user's actions", () => {
  it('asks for a reason before blocking, sends it, and shows the server message', async () => {
    const { user } = renderConsole('/admin/users/7', { users: [adminUser(7, { username: 'bob' })] });
    await user.click(await screen.findByRole('button', { name: 'Block' }));
    const dialog = screen.getByRole('dialog', { name: 'Block bob?' });
    expect(dialog).toHaveTextContent('signed out everywhere');

    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(within(dialog).getByText(adminMessages.reasonRequired)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Reason/)).toHaveAttribute('aria-invalid', 'true');
    await user.type(within(dialog).getByLabelText(/^Reason/), '  ab ');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(within(dialog).getByText(adminMessages.reasonRequired)).toBeInTheDocument();
    expect(api.writes()).toEqual([]);

    await user.type(within(dialog).getByLabelText(/^Reason/), 'c: spam purchases');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.writes()).toMatchObject([
      { method: 'POST', path: '/api/admin/users/7/block', body: { reason: 'ab c: spam purchases' } },
    ]);
    expect(toast.success).toHaveBeenCalledWith(adminMessages.blocked('bob'));
    // The page is asked again: the user now shows blocked, with Unblock in place of Block.
    expect(await screen.findByRole('button', { name: 'Unblock' })).toBeInTheDocument();
  });

  it('keeps one idempotency key per opening of the credit dialog, so a retry applies once', async () => {
    const { user } = renderConsole('/admin/users/7', {
      users: [adminUser(7, { username: 'bob', balance: 1 })],
    });
    await user.click(await screen.findByRole('button', { name: 'Credit or debit' }));
    let dialog = screen.getByRole('dialog', { name: "Adjust bob's balance" });
    await user.type(within(dialog).getByLabelText('Amount (USD)'), '5');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Goodwill for a late code');
    api.failNext('POST', /adjustments$/, 'network');
    await user.click(within(dialog).getByRole('button', { name: 'Credit $5.00' }));
    expect(await within(dialog).findByRole('alert')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Credit $5.00' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toast.success).toHaveBeenCalledWith(adminMessages.credited('$5.00', 'bob'));
    expect(await screen.findByTestId('user-balance')).toHaveTextContent('$6.00');

    const [first, retry] = api.writes();
    expect(first!.body).toMatchObject({ amount: 5, reason: 'Goodwill for a late code' });
    expect(retry!.body!.idempotency_key).toBe(first!.body!.idempotency_key);

    await user.click(screen.getByRole('button', { name: 'Credit or debit' }));
    dialog = screen.getByRole('dialog', { name: "Adjust bob's balance" });
    await user.click(within(dialog).getByRole('radio', { name: 'Debit (take money)' }));
    await user.type(within(dialog).getByLabelText('Amount (USD)'), '2.50');
    await user.type(within(dialog).getByLabelText(/^Reason/), 'Duplicate credit');
    await user.click(within(dialog).getByRole('button', { name: 'Debit $2.50' }));
    await waitFor(() => expect(api.writes()).toHaveLength(3));
    const debit = api.writes()[2]!;
    expect(debit.body).toMatchObject({ amount: -2.5 });
    expect(debit.body!.idempotency_key).not.toBe(first!.body!.idempotency_key);
  });
});

describe('the refund of an order', () => {
  it("shows the server's refusal for an order with a code, and refunds it when the box is ticked", async () => {
    const { user } = renderConsole('/admin/orders/31', {
      orders: [adminOrder(31, { status: 'received', code: '123456', username: 'bob', price: 0.75 })],
    });
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order #31?' });
    expect(dialog).toHaveTextContent("$0.75 goes back to bob's balance");
    const force = within(dialog).getByRole('checkbox', { name: 'Refund although a code arrived' });
    expect(force).not.toBeChecked();
    await user.type(within(dialog).getByLabelText(/^Reason/), 'The code was rejected by the site');
    await user.click(within(dialog).getByRole('button', { name: 'Refund $0.75' }));
    expect(await within(dialog).findByText(adminMessages.refundHasCode)).toBeInTheDocument();
    expect(api.writes()).toMatchObject([{ path: '/api/admin/orders/31/refund', body: { force: false } }]);
    expect(toast.success).not.toHaveBeenCalled();

    await user.click(force);
    await user.click(within(dialog).getByRole('button', { name: 'Refund $0.75' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.writes()[1]).toMatchObject({
      path: '/api/admin/orders/31/refund',
      body: { force: true, reason: 'The code was rejected by the site' },
    });
    expect(toast.success).toHaveBeenCalledWith(adminMessages.refunded('$0.75'));
    expect(await screen.findByText('Canceled')).toBeInTheDocument();
  });

  it('offers no force box for an order without a code', async () => {
    const { user } = renderConsole('/admin/orders/32', { orders: [adminOrder(32)] });
    await user.click(await screen.findByRole('button', { name: 'Refund' }));
    const dialog = screen.getByRole('dialog', { name: 'Refund order #32?' });
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
  });
});

describe('the supplier reconciliation', () => {
  it("shows a supplier's day with its leakage and the mismatch linked to its order, and writes it off with a reason", async () => {
    const { user } = renderConsole('/admin/reconciliation');
    const days = await screen.findByRole('table', { name: 'Per supplier and day' });
    const row = within(days).getAllByRole('row')[1]!;
    expect(row).toHaveTextContent('2026-11-26');
    expect(row).toHaveTextContent('sim-b');
    expect(row).toHaveTextContent('$0.60');
    expect(row).toHaveTextContent('12.0%');
    // The balance rose by $15.00, of which $20.00 no charge or return explains (a top-up).
    expect(within(days).getByRole('columnheader', { name: 'Balance change' })).toBeInTheDocument();
    expect(row).toHaveTextContent('$15.00');
    expect(row).toHaveTextContent('$20.00 unexplained');
    const mismatches = screen.getByRole('table', { name: 'Mismatches' });
    expect(within(mismatches).getByRole('link', { name: '#12' })).toHaveAttribute('href', '/admin/orders/12');
    expect(mismatches).toHaveTextContent('Code delivered after the refund');

    await user.click(within(mismatches).getByRole('button', { name: 'Write off' }));
    const dialog = screen.getByRole('dialog', { name: 'Write off 412000077 at sim-b?' });
    await user.type(within(dialog).getByLabelText(/^Reason/), 'supplier will not refund');
    await user.click(within(dialog).getByRole('button', { name: 'Write off' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.writes()).toMatchObject([
      {
        method: 'POST',
        path: '/api/admin/reconciliation/mismatches/3',
        body: { action: 'write_off', reason: 'supplier will not refund' },
      },
    ]);
    expect(toast.success).toHaveBeenCalledWith('Saved, and recorded in the audit log.');
  });
});
