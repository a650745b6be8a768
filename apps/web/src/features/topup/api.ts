import {
  type CreateInvoiceResponse,
  type TopupStatusResponse,
  type TopupsResponse,
  topupMessages,
} from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const topupKeys = {
  list: ['topups'] as const,
  status: (orderId: string) => ['topup-status', orderId] as const,
};

export const topupsQuery = queryOptions({
  queryKey: topupKeys.list,
  queryFn: ({ signal }) =>
    apiRequest<TopupsResponse>('/api/topup/payments', {
      signal,
      fallbackError: topupMessages.fetchPaymentsFailed,
    }),
});

export function topupStatusQuery(orderId: string) {
  return queryOptions({
    queryKey: topupKeys.status(orderId),
    queryFn: ({ signal }) =>
      apiRequest<TopupStatusResponse>(`/api/topup/cryptomus/status?order_id=${encodeURIComponent(orderId)}`, {
        signal,
      }),
    // Every answer is fresh news: a cached PENDING must never hide a COMPLETED.
    staleTime: 0,
    retry: false,
  });
}

/** Dollars as the server expects them: the amount is already checked to have at most two decimals. */
export function createInvoice(amountCents: number) {
  return apiRequest<CreateInvoiceResponse>('/api/topup/cryptomus/create-invoice', {
    method: 'POST',
    body: { amount: amountCents / 100 },
    fallbackError: topupMessages.invoiceFailed,
  });
}
