import {
  ADMIN_PAGE_SIZE_DEFAULT,
  type AdjustmentRequest,
  type AdminOrderActionResponse,
  type AdminOrderDetailResponse,
  type AdminOrdersResponse,
  type AdminPaymentDetailResponse,
  type AdminPaymentProvidersResponse,
  type AdminProvidersResponse,
  type AdminReasonRequest,
  type AdminRentActionResponse,
  type AdminRentDetailResponse,
  type AdminRentsResponse,
  type AdminUserActionResponse,
  type AdminUserDetailResponse,
  type AdminUsersResponse,
  type AlertChannelCreate,
  type AlertChannelView,
  type AlertSettingsView,
  type AlertsResponse,
  type AuditResponse,
  type adminLedgerResponseSchema,
  adminMessages,
  type adminPaymentActionResponseSchema,
  type adminPaymentsResponseSchema,
  apiPaths,
  type MismatchActionRequest,
  type OverviewResponse,
  type PaymentCreditRequest,
  type PricingPreviewRequest,
  type PricingPreviewResponse,
  type PricingResponse,
  type PricingUpdateRequest,
  type ProviderRoutingRequest,
  type ReconciliationResponse,
  type RefundRequest,
  type RoleRequest,
} from '@simcode/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
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

/** Each payment provider's health and today's figures; refreshed while the page is open. */
export const paymentProvidersQuery = queryOptions({
  queryKey: ['admin', 'payment-providers'] as const,
  queryFn: ({ signal }) =>
    apiRequest<AdminPaymentProvidersResponse>(apiPaths.admin.paymentProviders, { signal, fallbackError }),
  refetchInterval: 30_000,
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

/** Per supplier and day of [from, to] (UTC days): cost, returns, refunds, leakage; and the mismatches. */
export const reconciliationQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: queryKeys.admin.reconciliation(from, to),
    queryFn: ({ signal }) =>
      apiRequest<ReconciliationResponse>(apiPaths.admin.reconciliation, {
        query: { from, to },
        signal,
        fallbackError,
      }),
  });

export const useExportReconciliation = () =>
  useMutation({
    mutationFn: ({ from, to }: { from: string; to: string }) =>
      downloadFile(
        apiPaths.admin.reconciliationCsv,
        { from, to },
        { fallbackError, defaultName: 'reconciliation.csv' },
      ),
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

/** Reconciles a day now (every supplier); every console query is asked again afterwards. */
export const useRunReconciliation = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (day: string) =>
      apiRequest(apiPaths.admin.reconciliationRun, { method: 'POST', body: { day } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
};

export const useMismatchAction = (id: number) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MismatchActionRequest) =>
      apiRequest(apiPaths.admin.reconciliationMismatch(id), { method: 'POST', body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
};

/** Operator alerts (open and resolved), channels, thresholds and supplier balances. */
export const alertsQuery = () =>
  queryOptions({
    queryKey: queryKeys.admin.alerts,
    queryFn: ({ signal }) => apiRequest<AlertsResponse>(apiPaths.admin.alerts, { signal, fallbackError }),
  });

/** A change on the alerts page; the page is asked again afterwards. */
function useAlertsAction<Input, Output>(request: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.admin.alerts }),
  });
}

export const useAddAlertChannel = () =>
  useAlertsAction((body: AlertChannelCreate) =>
    apiRequest<{ channel: AlertChannelView; secret?: string }>(apiPaths.admin.alertChannels, {
      method: 'POST',
      body,
    }),
  );

export const useSwitchAlertChannel = () =>
  useAlertsAction(({ id, enabled }: { id: number; enabled: boolean }) =>
    apiRequest(apiPaths.admin.alertChannel(id), { method: 'PATCH', body: { enabled } }),
  );

export const useRemoveAlertChannel = () =>
  useAlertsAction((id: number) => apiRequest(apiPaths.admin.alertChannel(id), { method: 'DELETE' }));

export const useSaveAlertSettings = () =>
  useAlertsAction((body: AlertSettingsView) =>
    apiRequest(apiPaths.admin.alertSettings, { method: 'PUT', body }),
  );

/** The sale prices of one service in every country under the rules being edited, beside today's. */
export const usePricingPreview = () =>
  useMutation({
    mutationFn: (body: PricingPreviewRequest) =>
      apiRequest<PricingPreviewResponse>(apiPaths.admin.pricingPreview, { method: 'POST', body }),
  });

export type { PricingPreviewResponse };
