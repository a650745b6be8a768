// The console's endpoints over in-memory users and orders, answering like the server: users searched by
// name or id, newest first, `pageSize` per page with `next_before`; a user's page; an order's page; refunds
// that refuse an order with a code unless forced. `forbidden` answers every call as the server answers a
// user who is not an administrator.
import {
  type AdminOrderRow,
  type AdminUserRow,
  adminLedgerResponseSchema,
  adminMessages,
  adminOrderActionResponseSchema,
  adminOrderDetailResponseSchema,
  adminOrdersResponseSchema,
  adminPaymentsResponseSchema,
  adminRentsResponseSchema,
  adminUserActionResponseSchema,
  adminUserDetailResponseSchema,
  adminUsersResponseSchema,
  formatCents,
  mismatchActionResponseSchema,
  type ReconciliationMismatchView,
  reconciliationResponseSchema,
} from '@simcode/contract';
import { z } from 'zod';
import { createFakeApi, type FakeRequest, ok, refuse, route } from '../fake-api';

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
    refund_reason: null,
    created_at: '2026-03-02T10:15:00.000Z',
    code: null,
    problem_note: null,
    ...overrides,
  };
}

/** A supplier's day with one leaking mismatch on order 12: 60 cents of 5.00 net cost (12%). */
export function reconciliationMismatch(): ReconciliationMismatchView {
  return {
    id: 3,
    provider: 'sim-b',
    day: '2026-11-26',
    order_kind: 'activation',
    provider_order_id: '412000077',
    order_id: 12,
    cause: 'code_after_refund',
    amount_cents: 60,
    state: 'open',
    note: null,
  };
}

/** An adjustment answers whether this idempotency key applied it now or had already. */
const adjustmentResponseSchema = adminUserActionResponseSchema.extend({ applied: z.boolean() });

export function createFakeAdminApi(
  options: { users?: AdminUserRow[]; orders?: AdminOrderRow[]; pageSize?: number; forbidden?: boolean } = {},
) {
  const users = new Map((options.users ?? []).map((user) => [user.id, user]));
  const orders = new Map((options.orders ?? []).map((order) => [order.id, order]));
  const pageSize = options.pageSize ?? 2;
  const appliedKeys = new Set<string>();
  let mismatch = reconciliationMismatch();

  function page<T extends { id: number }>(rows: T[], query: URLSearchParams) {
    const before = Number(query.get('before') ?? Number.POSITIVE_INFINITY);
    const newestFirst = rows.filter((row) => row.id < before).sort((a, b) => b.id - a.id);
    const slice = newestFirst.slice(0, pageSize);
    return { rows: slice, next_before: newestFirst.length > pageSize ? slice.at(-1)!.id : null };
  }

  const withUser = (request: FakeRequest, answer: (user: AdminUserRow) => ReturnType<typeof ok>) => {
    const user = users.get(Number(request.params[0]));
    return user ? answer(user) : refuse(404, 'Not found.');
  };
  const withOrder = (request: FakeRequest, answer: (order: AdminOrderRow) => ReturnType<typeof ok>) => {
    const order = orders.get(Number(request.params[0]));
    return order ? answer(order) : refuse(404, 'Not found.');
  };

  const consoleRoutes = [
    route('GET /api/admin/users', ({ query }) => {
      const q = (query.get('q') ?? '').toLowerCase();
      const matching = [...users.values()].filter(
        (user) => !q || user.username.includes(q) || user.email.includes(q) || String(user.id) === q,
      );
      const { rows, next_before } = page(matching, query);
      return ok(adminUsersResponseSchema, { success: true, users: rows, next_before });
    }),
    route('GET /api/admin/orders', ({ query }) => {
      const userId = Number(query.get('user_id'));
      const matching = [...orders.values()].filter((order) => !userId || order.user_id === userId);
      const { rows, next_before } = page(matching, query);
      return ok(adminOrdersResponseSchema, { success: true, orders: rows, next_before });
    }),
    route('GET /api/admin/payments', () =>
      ok(adminPaymentsResponseSchema, { success: true, payments: [], next_before: null }),
    ),
    route('GET /api/admin/rents', () =>
      ok(adminRentsResponseSchema, { success: true, rents: [], next_before: null }),
    ),
    route(/^GET \/api\/admin\/users\/(\d+)\/ledger$/, () =>
      ok(adminLedgerResponseSchema, { success: true, entries: [], next_before: null }),
    ),
    route(/^GET \/api\/admin\/users\/(\d+)$/, (request) =>
      withUser(request, (user) =>
        ok(adminUserDetailResponseSchema, {
          success: true,
          user: { ...user, blocked_reason: null, blocked_at: null },
          sessions: [],
          api_keys: [],
          tickets: [],
          audit: [],
        }),
      ),
    ),
    route(/^POST \/api\/admin\/users\/(\d+)\/block$/, (request) =>
      withUser(request, (user) => {
        users.set(user.id, { ...user, blocked: true });
        return ok(adminUserActionResponseSchema, {
          success: true,
          message: adminMessages.blocked(user.username),
          user: users.get(user.id)!,
        });
      }),
    ),
    route(/^POST \/api\/admin\/users\/(\d+)\/adjustments$/, (request) =>
      withUser(request, (user) => {
        const key = String(request.body?.idempotency_key);
        const applied = !appliedKeys.has(key);
        appliedKeys.add(key);
        const amount = Number(request.body?.amount);
        if (applied) users.set(user.id, { ...user, balance: user.balance + amount });
        const message = applied
          ? adminMessages.credited(formatCents(Math.round(amount * 100)), user.username)
          : adminMessages.alreadyApplied;
        return ok(adjustmentResponseSchema, { success: true, message, applied, user: users.get(user.id)! });
      }),
    ),
    route('GET /api/admin/reconciliation', () =>
      ok(reconciliationResponseSchema, {
        success: true,
        days: [
          {
            provider: 'sim-b',
            day: '2026-11-26',
            bought: 40,
            cost_cents: 1200,
            returned_cents: 700,
            refunded_cents: 900,
            leakage_cents: 60,
            leakage_percent: 12,
            mismatches: 1,
            complete: true,
            // The supplier kept $5.00; its account was also topped up by $20.00.
            balance_change_cents: 1500,
            unexplained_cents: 2000,
          },
        ],
        mismatches: [mismatch],
      }),
    ),
    route(/^POST \/api\/admin\/reconciliation\/mismatches\/(\d+)$/, (request) => {
      mismatch = { ...mismatch, state: 'written_off', note: String(request.body?.reason) };
      return ok(mismatchActionResponseSchema, { success: true, mismatch });
    }),
    route(/^GET \/api\/admin\/orders\/(\d+)$/, (request) =>
      withOrder(request, (order) =>
        ok(adminOrderDetailResponseSchema, {
          success: true,
          order,
          upstream: [],
          messages: [],
          ledger: [],
          audit: [],
        }),
      ),
    ),
    route(/^POST \/api\/admin\/orders\/(\d+)\/refund$/, (request) =>
      withOrder(request, (order) => {
        if (order.status === 'canceled') return refuse(409, adminMessages.alreadyRefunded);
        if (order.code !== null && request.body?.force !== true)
          return refuse(409, adminMessages.refundHasCode);
        const refunded = { ...order, status: 'canceled' as const };
        orders.set(order.id, refunded);
        return ok(adminOrderActionResponseSchema, {
          success: true,
          message: adminMessages.refunded(formatCents(Math.round(order.price * 100))),
          order: refunded,
        });
      }),
    ),
  ];
  const api = createFakeApi(
    options.forbidden ? [route(/.*/, () => refuse(403, 'Forbidden'))] : consoleRoutes,
  );
  return { ...api, user: (id: number) => users.get(id) };
}

export type FakeAdminApi = ReturnType<typeof createFakeAdminApi>;
