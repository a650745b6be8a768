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
  apiPaths,
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
import { queryKeys } from '@/lib/query-keys';

type AdminLedgerResponse = z.infer<typeof adminLedgerResponseSchema>;
type AdminPaymentsResponse = z.infer<typeof adminPaymentsResponseSchema>;
type AdminPaymentActionResponse = z.infer<typeof adminPaymentActionResponseSchema>;
type AdjustmentResponse = AdminUserActionResponse & { applied: boolean };
type PricingSaveResponse = PricingResponse & { message: string };
type ProviderRoutingResponse = AdminProvidersResponse & { message: string };

const fallbackError = adminMessages.loadFailed;

/** A keyset list: each page asks for the rows before the last one the previous page ended on. */
function keysetList<T extends { next_before: number | null }>(
  queryKey: readonly unknown[],
  path: string,
  filters: Readonly<Record<string, string | undefined>>,
) {
  // A filter left empty is not sent: `?a=&b=1` asks for `b=1` only.
  const set = Object.fromEntries(Object.entries(filters).map(([name, value]) => [name, value || undefined]));
  return infiniteQueryOptions({
    queryKey,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<T>(path, {
        query: { ...set, limit: ADMIN_PAGE_SIZE_DEFAULT, before: pageParam },
        signal,
        fallbackError,
      }),
    getNextPageParam: (page) => page.next_before ?? undefined,
  });
}

/**
 * Whether the caller may use the console: the server decides (401 to visitors, 403 to users). The
 * smallest administrators-only answer there is, asked once per visit.
 */
export const accessQuery = queryOptions({
  queryKey: queryKeys.admin.access,
  queryFn: ({ signal }) =>
    apiRequest<AdminUsersResponse>(apiPaths.admin.users, { query: { limit: 1 }, signal, fallbackError }),
  staleTime: Number.POSITIVE_INFINITY,
});

export const overviewQuery = (days: 1 | 7 | 30) =>
  queryOptions({
    queryKey: queryKeys.admin.overview(days),
    queryFn: ({ signal }) =>
      apiRequest<OverviewResponse>(apiPaths.admin.overview, { query: { days }, signal, fallbackError }),
  });

// ---------------------------------------------------------------- users

export const usersQuery = (q: string) =>
  keysetList<AdminUsersResponse>(queryKeys.admin.users(q), apiPaths.admin.users, { q: q.trim() });

export const userQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.admin.user(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminUserDetailResponse>(apiPaths.admin.user(id), { signal, fallbackError }),
  });

export const ledgerQuery = (userId: number) =>
  keysetList<AdminLedgerResponse>(queryKeys.admin.ledger(userId), apiPaths.admin.userLedger(userId), {});

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
  keysetList<AdminOrdersResponse>(queryKeys.admin.orders(filters), apiPaths.admin.orders, { ...filters });

export const orderQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.admin.order(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminOrderDetailResponse>(apiPaths.admin.order(id), { signal, fallbackError }),
  });

// ---------------------------------------------------------------- rents

export type RentFilters = Omit<OrderFilters, 'problem'>;

export const rentsQuery = (filters: RentFilters) =>
  keysetList<AdminRentsResponse>(queryKeys.admin.rents(filters), apiPaths.admin.rents, { ...filters });

export const rentQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.admin.rent(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminRentDetailResponse>(apiPaths.admin.rent(id), { signal, fallbackError }),
  });

// ---------------------------------------------------------------- payments

export interface PaymentFilters {
  status?: string;
  user_id?: string;
  q?: string;
}

export const paymentsQuery = (filters: PaymentFilters) =>
  keysetList<AdminPaymentsResponse>(queryKeys.admin.payments(filters), apiPaths.admin.payments, {
    ...filters,
  });

export const paymentQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.admin.payment(id),
    queryFn: ({ signal }) =>
      apiRequest<AdminPaymentDetailResponse>(apiPaths.admin.payment(id), { signal, fallbackError }),
  });

// ---------------------------------------------------------------- pricing, providers, audit

export const pricingQuery = queryOptions({
  queryKey: queryKeys.admin.pricing,
  queryFn: ({ signal }) => apiRequest<PricingResponse>(apiPaths.admin.pricing, { signal, fallbackError }),
});

export const providersQuery = queryOptions({
  queryKey: queryKeys.admin.providers,
  queryFn: ({ signal }) =>
    apiRequest<AdminProvidersResponse>(apiPaths.admin.providers, { signal, fallbackError }),
});

export interface AuditFilters {
  q?: string;
  object_type?: string;
  object_id?: string;
}

export const auditQuery = (filters: AuditFilters) =>
  keysetList<AuditResponse>(queryKeys.admin.audit(filters), apiPaths.admin.audit, { ...filters });

// ---------------------------------------------------------------- actions

/**
 * A console action, answered with the server's `message`. Whatever it changed, every console query is asked
 * again afterwards (the object, its lists, its ledger, the audit log).
 */
function useConsoleAction<Input, Output extends { message: string }>(
  path: string,
  method: 'POST' | 'PUT' = 'POST',
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Input) => apiRequest<Output>(path, { method, body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}

export const useAdjustBalance = (userId: number) =>
  useConsoleAction<AdjustmentRequest, AdjustmentResponse>(apiPaths.admin.userAdjustments(userId));
export const useBlockUser = (userId: number) =>
  useConsoleAction<AdminReasonRequest, AdminUserActionResponse>(apiPaths.admin.userBlock(userId));
export const useUnblockUser = (userId: number) =>
  useConsoleAction<AdminReasonRequest, AdminUserActionResponse>(apiPaths.admin.userUnblock(userId));
export const useSetRole = (userId: number) =>
  useConsoleAction<RoleRequest, AdminUserActionResponse>(apiPaths.admin.userRole(userId));
export const useResetTwoFactor = (userId: number) =>
  useConsoleAction<AdminReasonRequest, AdminUserActionResponse>(apiPaths.admin.userTwoFactorReset(userId));
export const useSignOutUser = (userId: number) =>
  useConsoleAction<AdminReasonRequest, AdminUserActionResponse>(apiPaths.admin.userSignOut(userId));

export const useRefundOrder = (orderId: number) =>
  useConsoleAction<RefundRequest, AdminOrderActionResponse>(apiPaths.admin.orderRefund(orderId));
export const useCancelUpstream = (orderId: number) =>
  useConsoleAction<AdminReasonRequest, AdminOrderActionResponse>(apiPaths.admin.orderCancelUpstream(orderId));
export const useMarkProblem = (orderId: number) =>
  useConsoleAction<AdminReasonRequest, AdminOrderActionResponse>(apiPaths.admin.orderProblem(orderId));

export const useRefundRent = (rentId: number) =>
  useConsoleAction<RefundRequest, AdminRentActionResponse>(apiPaths.admin.rentRefund(rentId));

export const useReconcilePayment = (paymentId: number) =>
  useConsoleAction<void, AdminPaymentActionResponse>(apiPaths.admin.paymentReconcile(paymentId));
export const useCreditPayment = (paymentId: number) =>
  useConsoleAction<PaymentCreditRequest, AdminPaymentActionResponse>(apiPaths.admin.paymentCredit(paymentId));

export const useSavePricing = () =>
  useConsoleAction<PricingUpdateRequest, PricingSaveResponse>(apiPaths.admin.pricing, 'PUT');

export const useSetRouting = (provider: string) =>
  useConsoleAction<ProviderRoutingRequest, ProviderRoutingResponse>(apiPaths.admin.providerRouting(provider));

/** The sale prices of one service in every country under the rules being edited, beside today's. */
export const usePricingPreview = () =>
  useMutation({
    mutationFn: (body: PricingPreviewRequest) =>
      apiRequest<PricingPreviewResponse>(apiPaths.admin.pricingPreview, { method: 'POST', body }),
  });

export type { PricingPreviewResponse };
