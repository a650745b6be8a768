import {
  ADMIN_PAGE_SIZE_DEFAULT,
  type AdjustmentRequest,
  type AdminOrderActionResponse,
  type AdminOrderDetailResponse,
  type AdminOrdersResponse,
  type AdminPaymentDetailResponse,
  type AdminProvidersResponse,
  type AdminReasonRequest,
  type AdminRentActionResponse,
  type AdminRentDetailResponse,
  type AdminRentsResponse,
  type AdminUserActionResponse,
  type AdminUserDetailResponse,
  type AdminUsersResponse,
  type AuditResponse,
  type adminLedgerResponseSchema,
  adminMessages,
  type adminPaymentActionResponseSchema,
  type adminPaymentsResponseSchema,
  type OverviewResponse,
  type PaymentCreditRequest,
  type PricingPreviewRequest,
  type PricingPreviewResponse,
  type PricingResponse,
  type PricingUpdateRequest,
  type ProviderRoutingRequest,
  type RefundRequest,
  type RoleRequest,
} from '@simcode/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client';

export type AdminLedgerResponse = z.infer<typeof adminLedgerResponseSchema>;
export type AdminPaymentsResponse = z.infer<typeof adminPaymentsResponseSchema>;
export type AdminPaymentActionResponse = z.infer<typeof adminPaymentActionResponseSchema>;
export type AdjustmentResponse = AdminUserActionResponse & { applied: boolean };
export type PricingSaveResponse = PricingResponse & { message: string };
export type ProviderRoutingResponse = AdminProvidersResponse & { message: string };

const base = '/api/admin';
const fallbackError = adminMessages.loadFailed;

/** Every console query starts with 'admin': an action asks all of them again (one object touches many). */
export const adminKeys = {
  all: ['admin'] as const,
  access: ['admin', 'access'] as const,
  overview: (days: number) => ['admin', 'overview', days] as const,
  users: (q: string) => ['admin', 'users', q] as const,
  user: (id: number) => ['admin', 'user', id] as const,
  ledger: (userId: number) => ['admin', 'ledger', userId] as const,
  orders: (filters: OrderFilters) => ['admin', 'orders', filters] as const,
  order: (id: number) => ['admin', 'order', id] as const,
  rents: (filters: RentFilters) => ['admin', 'rents', filters] as const,
  rent: (id: number) => ['admin', 'rent', id] as const,
  payments: (filters: PaymentFilters) => ['admin', 'payments', filters] as const,
  payment: (id: number) => ['admin', 'payment', id] as const,
  pricing: ['admin', 'pricing'] as const,
  providers: ['admin', 'providers'] as const,
  audit: (filters: AuditFilters) => ['admin', 'audit', filters] as const,
};

/** Drops the filters that are not set, so `?a=&b=1` asks for `b=1` only. */
function params(values: object, before?: number | null): URLSearchParams {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  }
  search.set('limit', String(ADMIN_PAGE_SIZE_DEFAULT));
  if (before !== undefined && before !== null) search.set('before', String(before));
  return search;
}

/** A keyset list: each page asks for the rows before the last one the previous page ended on. */
function keysetList<T extends { next_before: number | null }>(
  queryKey: readonly unknown[],
  path: string,
  filters: object,
) {
  return infiniteQueryOptions({
    queryKey,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<T>(`${path}?${params(filters, pageParam)}`, { signal, fallbackError }),
    getNextPageParam: (page) => page.next_before ?? undefined,
  });
}

/**
 * Whether the caller may use the console: the server decides (401 to visitors, 403 to users). The
 * smallest administrators-only answer there is, asked once per visit.
 */
export const accessQuery = queryOptions({
  queryKey: adminKeys.access,
  queryFn: ({ signal }) => apiRequest<AdminUsersResponse>(`${base}/users?limit=1`, { signal, fallbackError }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const overviewQuery = (days: 1 | 7 | 30) =>
  queryOptions({
    queryKey: adminKeys.overview(days),
    queryFn: ({ signal }) =>
      apiRequest<OverviewResponse>(`${base}/overview?days=${days}`, { signal, fallbackError }),
  });

// ---------------------------------------------------------------- users

export const usersQuery = (q: string) =>
  keysetList<AdminUsersResponse>(adminKeys.users(q), `${base}/users`, { q: q.trim() });

export const userQuery = (id: number) =>
  queryOptions({
    queryKey: adminKeys.user(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminUserDetailResponse>(`${base}/users/${id}`, { signal, fallbackError }),
  });

export const ledgerQuery = (userId: number) =>
  keysetList<AdminLedgerResponse>(adminKeys.ledger(userId), `${base}/users/${userId}/ledger`, {});

// ---------------------------------------------------------------- orders

export interface OrderFilters {
  status?: string;
  service?: string;
  country?: string;
  provider?: string;
  user_id?: string;
  from?: string;
  to?: string;
  problem?: 'true';
  q?: string;
}

export const ordersQuery = (filters: OrderFilters) =>
  keysetList<AdminOrdersResponse>(adminKeys.orders(filters), `${base}/orders`, filters);

export const orderQuery = (id: number) =>
  queryOptions({
    queryKey: adminKeys.order(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminOrderDetailResponse>(`${base}/orders/${id}`, { signal, fallbackError }),
  });

// ---------------------------------------------------------------- rents

export type RentFilters = Omit<OrderFilters, 'problem'>;

export const rentsQuery = (filters: RentFilters) =>
  keysetList<AdminRentsResponse>(adminKeys.rents(filters), `${base}/rents`, filters);

export const rentQuery = (id: number) =>
  queryOptions({
    queryKey: adminKeys.rent(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminRentDetailResponse>(`${base}/rents/${id}`, { signal, fallbackError }),
  });

// ---------------------------------------------------------------- payments

export interface PaymentFilters {
  status?: string;
  user_id?: string;
  q?: string;
}

export const paymentsQuery = (filters: PaymentFilters) =>
  keysetList<AdminPaymentsResponse>(adminKeys.payments(filters), `${base}/payments`, filters);

export const paymentQuery = (id: number) =>
  queryOptions({
    queryKey: adminKeys.payment(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminPaymentDetailResponse>(`${base}/payments/${id}`, { signal, fallbackError }),
  });

// ---------------------------------------------------------------- pricing, providers, audit

export const pricingQuery = queryOptions({
  queryKey: adminKeys.pricing,
  queryFn: ({ signal }) => apiRequest<PricingResponse>(`${base}/pricing`, { signal, fallbackError }),
});

export const providersQuery = queryOptions({
  queryKey: adminKeys.providers,
  queryFn: ({ signal }) => apiRequest<AdminProvidersResponse>(`${base}/providers`, { signal, fallbackError }),
});

export interface AuditFilters {
  q?: string;
  object_type?: string;
  object_id?: string;
}

export const auditQuery = (filters: AuditFilters) =>
  keysetList<AuditResponse>(adminKeys.audit(filters), `${base}/audit`, filters);

// ---------------------------------------------------------------- actions

/**
 * A console action: a POST or PUT whose answer carries the server's `message`. Whatever it changed, every
 * console query is asked again afterwards (the object, its lists, its ledger, the audit log).
 */
export function useAdminAction<Input, Output extends { message: string }>(
  request: (input: Input) => { path: string; method?: 'POST' | 'PUT'; body?: unknown },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Input) => {
      const { path, method = 'POST', body } = request(input);
      return apiRequest<Output>(`${base}${path}`, { method, body });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.all }),
  });
}

export const userActions = {
  adjust: (id: number) => (body: AdjustmentRequest) => ({ path: `/users/${id}/adjustments`, body }),
  block: (id: number) => (body: AdminReasonRequest) => ({ path: `/users/${id}/block`, body }),
  unblock: (id: number) => (body: AdminReasonRequest) => ({ path: `/users/${id}/unblock`, body }),
  role: (id: number) => (body: RoleRequest) => ({ path: `/users/${id}/role`, body }),
  resetTwoFactor: (id: number) => (body: AdminReasonRequest) => ({
    path: `/users/${id}/two-factor/reset`,
    body,
  }),
  signOut: (id: number) => (body: AdminReasonRequest) => ({ path: `/users/${id}/sign-out`, body }),
};

export const orderActions = {
  refund: (id: number) => (body: RefundRequest) => ({ path: `/orders/${id}/refund`, body }),
  cancelUpstream: (id: number) => (body: AdminReasonRequest) => ({
    path: `/orders/${id}/cancel-upstream`,
    body,
  }),
  problem: (id: number) => (body: AdminReasonRequest) => ({ path: `/orders/${id}/problem`, body }),
};

export const rentActions = {
  refund: (id: number) => (body: RefundRequest) => ({ path: `/rents/${id}/refund`, body }),
};

export const paymentActions = {
  reconcile: (id: number) => () => ({ path: `/payments/${id}/reconcile` }),
  credit: (id: number) => (body: PaymentCreditRequest) => ({ path: `/payments/${id}/credit`, body }),
};

export const pricingActions = {
  save: () => (body: PricingUpdateRequest) => ({ path: '/pricing', method: 'PUT' as const, body }),
};

export const providerActions = {
  routing: (name: string) => (body: ProviderRoutingRequest) => ({
    path: `/providers/${encodeURIComponent(name)}/routing`,
    body,
  }),
};

export type {
  AdminOrderActionResponse,
  AdminRentActionResponse,
  AdminUserActionResponse,
  PricingPreviewRequest,
  PricingPreviewResponse,
};

/** The sale prices of one service in every country under the rules being edited, beside today's. */
export function previewPricing(body: PricingPreviewRequest): Promise<PricingPreviewResponse> {
  return apiRequest<PricingPreviewResponse>(`${base}/pricing/preview`, { method: 'POST', body });
}
