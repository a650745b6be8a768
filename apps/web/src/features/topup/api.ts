import {
  apiPaths,
  type CreateInvoiceResponse,
  type DepositAddressesResponse,
  type DepositAddressRequest,
  type DepositAddressResponse,
  type TopupMethodsResponse,
  type TopupStatusResponse,
  type TopupsResponse,
  topupMessages,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const topupsQuery = queryOptions({
  queryKey: queryKeys.topups.all,
  queryFn: ({ signal }) =>
    apiRequest<TopupsResponse>(apiPaths.topup.payments, {
      signal,
      fallbackError: topupMessages.fetchPaymentsFailed,
    }),
});

/** The payment providers that answer now, with their coins, minimums and fees. */
export const topupMethodsQuery = queryOptions({
  queryKey: queryKeys.topups.methods,
  queryFn: ({ signal }) => apiRequest<TopupMethodsResponse>(apiPaths.topup.methods, { signal }),
  // A provider that went down should leave the page within a minute.
  staleTime: 30_000,
  refetchInterval: 60_000,
  retry: false,
});

export function topupStatusQuery(orderId: string) {
  return queryOptions({
    queryKey: queryKeys.topups.status(orderId),
    queryFn: ({ signal }) =>
      apiRequest<TopupStatusResponse>(apiPaths.topup.status, { query: { order_id: orderId }, signal }),
    // Every answer is fresh news: a cached PENDING must never hide a COMPLETED.
    staleTime: 0,
    retry: false,
  });
}

/**
 * Creates an invoice for an amount in cents, sent as the dollars the server expects (the amount is already
 * checked to have at most two decimals); the recent top-ups then list it.
 */
export function useCreateInvoice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ amountCents, provider }: { amountCents: number; provider?: string }) =>
      apiRequest<CreateInvoiceResponse>(apiPaths.topup.createInvoice, {
        method: 'POST',
        body: { amount: amountCents / 100, ...(provider ? { provider } : {}) },
        fallbackError: topupMessages.invoiceFailed,
      }),
    // Not awaited: the payment page opens at once.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.topups.all });
    },
    // A provider that failed is hidden by the server from now on: show the list without it.
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.topups.methods });
    },
  });
}

/** Under the top-ups' key: whatever refreshes the top-ups refreshes the addresses too. */
const depositAddressesKey = [...queryKeys.topups.all, 'deposit-addresses'] as const;

/** The user's permanent deposit addresses, and the coins an address can be had in now. */
export const depositAddressesQuery = queryOptions({
  queryKey: depositAddressesKey,
  queryFn: ({ signal }) => apiRequest<DepositAddressesResponse>(apiPaths.topup.depositAddresses, { signal }),
  // A provider that went down should leave the page within a minute, like the payment methods.
  staleTime: 30_000,
  refetchInterval: 60_000,
  retry: false,
});

/** Gets (creates once, then the same) the user's address of a coin on a network at a provider. */
export function useDepositAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: DepositAddressRequest) =>
      apiRequest<DepositAddressResponse>(apiPaths.topup.depositAddresses, {
        method: 'POST',
        body: request,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: depositAddressesKey });
    },
  });
}
