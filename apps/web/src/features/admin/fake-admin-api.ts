// An in-memory stand-in for the console's endpoints, for the component tests (never part of the app bundle).
import { type AdminOrderRow, type AdminUserRow, adminMessages, formatCents } from '@simcode/contract';
import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: Record<string, unknown> | undefined;
}

type Failure = { status: number; body: unknown } | 'network';

export function adminUser(id: number, overrides: Partial<AdminUserRow> = {}): AdminUserRow {
  return {
    id,
    username: `user_${id}`,
    email: `user_${id}@example.com`,
    role: 'user',
    balance: id,
    created_at: '2026-03-02T10:15:00.000Z',
    blocked: false,
    two_factor: false,
    ...overrides,
  };
}

export function adminOrder(id: number, overrides: Partial<AdminOrderRow> = {}): AdminOrderRow {
  return {
    id,
    user_id: 1,
    username: 'user_1',
    provider: 'sim-a',
    provider_order_id: `A-${id}`,
    country_id: 'GB',
    operator: 'any',
    service: 'tg',
    phone: '447477396349',
    price: 0.5,
    status: 'waiting',
    status_reason: null,
    created_at: '2026-03-02T10:15:00.000Z',
    code: null,
    problem_note: null,
    ...overrides,
  };
}

/**
 * Answers like the server: users searched by name or id, newest first, `pageSize` per page with
 * `next_before`; a user's page; an order's page; refunds that refuse an order with a code unless forced.
 * `forbidden` answers every call as the server answers a user who is not an administrator.
 */
export function createFakeAdminApi(
  options: { users?: AdminUserRow[]; orders?: AdminOrderRow[]; pageSize?: number; forbidden?: boolean } = {},
) {
  const users = new Map((options.users ?? []).map((user) => [user.id, user]));
  const orders = new Map((options.orders ?? []).map((order) => [order.id, order]));
  const pageSize = options.pageSize ?? 2;
  const calls: RecordedCall[] = [];
  const failures: Array<{ method: string; path: RegExp; failure: Failure }> = [];
  const appliedKeys = new Set<string>();

  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  const notFound = () => json(404, { success: false, error: 'Not found.' });

  function page<T extends { id: number }>(rows: T[], query: URLSearchParams) {
    const before = Number(query.get('before') ?? Number.POSITIVE_INFINITY);
    const newestFirst = rows.filter((row) => row.id < before).sort((a, b) => b.id - a.id);
    const slice = newestFirst.slice(0, pageSize);
    return { rows: slice, next_before: newestFirst.length > pageSize ? slice.at(-1)!.id : null };
  }

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
    if (options.forbidden) return json(403, { success: false, error: 'Forbidden' });

    const id = Number(/\/(\d+)(\/|$)/.exec(path)?.[1]);
    if (method === 'GET' && path === '/api/admin/users') {
      const q = (url.searchParams.get('q') ?? '').toLowerCase();
      const matching = [...users.values()].filter(
        (user) => !q || user.username.includes(q) || user.email.includes(q) || String(user.id) === q,
      );
      const { rows, next_before } = page(matching, url.searchParams);
      return json(200, { success: true, users: rows, next_before });
    }
    if (method === 'GET' && path === '/api/admin/orders') {
      const userId = Number(url.searchParams.get('user_id'));
      const matching = [...orders.values()].filter((order) => !userId || order.user_id === userId);
      const { rows, next_before } = page(matching, url.searchParams);
      return json(200, { success: true, orders: rows, next_before });
    }
    if (method === 'GET' && path === '/api/admin/payments')
      return json(200, { success: true, payments: [], next_before: null });
    if (method === 'GET' && path === '/api/admin/rents')
      return json(200, { success: true, rents: [], next_before: null });
    if (method === 'GET' && /^\/api\/admin\/users\/\d+\/ledger$/.test(path))
      return json(200, { success: true, entries: [], next_before: null });

    const user = users.get(id);
    if (path.startsWith('/api/admin/users/')) {
      if (!user) return notFound();
      if (method === 'GET') {
        return json(200, {
          success: true,
          user: { ...user, blocked_reason: null, blocked_at: null },
          sessions: [],
          api_keys: [],
          tickets: [],
          audit: [],
        });
      }
      if (path.endsWith('/block')) {
        users.set(id, { ...user, blocked: true });
        return json(200, {
          success: true,
          message: adminMessages.blocked(user.username),
          user: users.get(id),
        });
      }
      if (path.endsWith('/adjustments')) {
        const key = String(body?.idempotency_key);
        const applied = !appliedKeys.has(key);
        appliedKeys.add(key);
        const amount = Number(body?.amount);
        if (applied) users.set(id, { ...user, balance: user.balance + amount });
        const message = applied
          ? adminMessages.credited(formatCents(Math.round(amount * 100)), user.username)
          : adminMessages.alreadyApplied;
        return json(200, { success: true, message, applied, user: users.get(id) });
      }
    }

    const order = orders.get(id);
    if (path.startsWith('/api/admin/orders/')) {
      if (!order) return notFound();
      if (method === 'GET')
        return json(200, { success: true, order, upstream: [], messages: [], ledger: [], audit: [] });
      if (path.endsWith('/refund')) {
        if (order.status === 'canceled')
          return json(409, { success: false, error: adminMessages.alreadyRefunded });
        if (order.code !== null && body?.force !== true)
          return json(409, { success: false, error: adminMessages.refundHasCode });
        const refunded = { ...order, status: 'canceled' as const };
        orders.set(id, refunded);
        return json(200, {
          success: true,
          message: adminMessages.refunded(formatCents(Math.round(order.price * 100))),
          order: refunded,
        });
      }
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
    user: (id: number) => users.get(id),
  };
}

export type FakeAdminApi = ReturnType<typeof createFakeAdminApi>;
