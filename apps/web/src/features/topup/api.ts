import {
  apiPaths,
  type CreateInvoiceResponse,
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
    mutationFn: (amountCents: number) =>
      apiRequest<CreateInvoiceResponse>(apiPaths.topup.createInvoice, {
        method: 'POST',
        body: { amount: amountCents / 100 },
        fallbackError: topupMessages.invoiceFailed,
      }),
    // Not awaited: the payment page opens at once.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.topups.all });
    },
  });
}
