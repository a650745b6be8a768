import {
  type BuyNumberResponse,
  type NumberStatusResponse,
  type NumbersResponse,
  numberMessages,
} from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const numbersKeys = {
  list: ['numbers'] as const,
  status: (numberId: string) => ['number-status', numberId] as const,
};

export const numbersQuery = queryOptions({
  queryKey: numbersKeys.list,
  queryFn: ({ signal }) =>
    apiRequest<NumbersResponse>('/api/dashboard/numbers', {
      signal,
      fallbackError: numberMessages.fetchNumbersFailed,
    }),
});

export function numberStatusQuery(numberId: string) {
  return queryOptions({
    queryKey: numbersKeys.status(numberId),
    queryFn: ({ signal }) =>
      apiRequest<NumberStatusResponse>(`/api/dashboard/number-status/${encodeURIComponent(numberId)}`, {
        signal,
      }),
    retry: false,
  });
}

export function cancelNumber(id: number) {
  return apiRequest<BuyNumberResponse>(`/api/dashboard/numbers/${id}/cancel`, {
    method: 'POST',
    fallbackError: numberMessages.cancelFailed,
  });
}

export function repeatNumber(id: number) {
  return apiRequest<BuyNumberResponse>(`/api/dashboard/numbers/${id}/repeat`, {
    method: 'POST',
    fallbackError: numberMessages.repeatFailed,
  });
}
