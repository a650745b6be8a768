import {
  type BuyNumberResponse,
  type NumberStatusResponse,
  type NumbersResponse,
  numberMessages,
  type ReportProblemRequest,
  type reportProblemResponseSchema,
} from '@simcode/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DateRange } from '@/components/date-range-fields';
import { apiRequest } from '@/lib/api-client';

type ReportProblemResponse = z.infer<typeof reportProblemResponseSchema>;

/** The history's filters; every one is applied by the server. */
export interface NumberHistoryFilters extends DateRange {
  status?: 'completed' | 'canceled' | 'expired';
  /** A service code (`tg`). */
  service?: string;
}

/** Numbers per page of the history. */
const HISTORY_PAGE_SIZE = 20;
/** More live numbers than anyone holds at once: the active list is one page. */
const LIVE_LIMIT = 100;

export const numbersKeys = {
  list: ['numbers'] as const,
  live: ['numbers', 'live'] as const,
  history: (filters: NumberHistoryFilters) => ['numbers', 'history', filters] as const,
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

export const liveNumbersQuery = queryOptions({
  queryKey: numbersKeys.live,
  queryFn: ({ signal }) =>
    apiRequest<NumbersResponse>(`/api/dashboard/numbers?state=live&limit=${LIVE_LIMIT}`, {
      signal,
      fallbackError: numberMessages.fetchNumbersFailed,
    }),
});

/** Numbers that are over, newest first, a keyset page at a time. */
export function numberHistoryQuery(filters: NumberHistoryFilters) {
  return infiniteQueryOptions({
    queryKey: numbersKeys.history(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams({ state: 'ended', limit: String(HISTORY_PAGE_SIZE) });
      for (const name of ['status', 'service', 'from', 'to'] as const) {
        const value = filters[name];
        if (value) params.set(name, value);
      }
      if (pageParam !== null) params.set('before', String(pageParam));
      return apiRequest<NumbersResponse>(`/api/dashboard/numbers?${params}`, {
        signal,
        fallbackError: numberMessages.fetchNumbersFailed,
      });
    },
    getNextPageParam: (page) => page.next_before ?? null,
  });
}

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

/** Buys the same again; `price` is the price the confirmation showed, which is all it may charge. */
export function repeatNumber(id: number, price: number) {
  return apiRequest<BuyNumberResponse>(`/api/dashboard/numbers/${id}/repeat`, {
    method: 'POST',
    body: { price },
    fallbackError: numberMessages.repeatFailed,
  });
}

/** Waits for another SMS on a number that received its code, at no charge; answers the number. */
export function requestAnotherSms(id: number) {
  return apiRequest<BuyNumberResponse>(`/api/dashboard/numbers/${id}/another-sms`, { method: 'POST' });
}

/** Opens a support ticket about the order; answers its id and the text to show. */
export function reportProblem(id: number, body: ReportProblemRequest) {
  return apiRequest<ReportProblemResponse>(`/api/dashboard/numbers/${id}/report`, { method: 'POST', body });
}
