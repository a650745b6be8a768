import {
  apiPaths,
  type BuyNumberResponse,
  LIST_LIMIT_MAX,
  type NumbersResponse,
  numberMessages,
  type ReportProblemRequest,
  type reportProblemResponseSchema,
} from '@simcode/contract';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DateRange } from '@/components/date-range-fields';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { cancelThenRepeat } from '@/lib/replace';

type ReportProblemResponse = z.infer<typeof reportProblemResponseSchema>;

/** The history's filters; every one is applied by the server. */
export interface NumberHistoryFilters extends DateRange {
  status?: 'completed' | 'canceled' | 'expired';
  /** A service code (`tg`). */
  service?: string;
}

/** Numbers per page of the history. */
const HISTORY_PAGE_SIZE = 20;

export const liveNumbersQuery = queryOptions({
  queryKey: queryKeys.numbers.live,
  queryFn: ({ signal }) =>
    apiRequest<NumbersResponse>(apiPaths.numbers.list, {
      // More live numbers than anyone holds at once: the active list is one page.
      query: { state: 'live', limit: LIST_LIMIT_MAX },
      signal,
      fallbackError: numberMessages.fetchNumbersFailed,
    }),
});

/** Numbers that are over, newest first, a keyset page at a time. */
export function numberHistoryQuery(filters: NumberHistoryFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.numbers.history(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<NumbersResponse>(apiPaths.numbers.list, {
        query: {
          state: 'ended',
          limit: HISTORY_PAGE_SIZE,
          status: filters.status || undefined,
          service: filters.service || undefined,
          from: filters.from || undefined,
          to: filters.to || undefined,
          before: pageParam,
        },
        signal,
        fallbackError: numberMessages.fetchNumbersFailed,
      }),
    getNextPageParam: (page) => page.next_before ?? null,
  });
}

/** A change to numbers: the lists, their status lines and the balance are asked again after it. */
function useNumbersMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.statuses });
      void queryClient.invalidateQueries({ queryKey: queryKeys.summary });
    },
  });
}

const cancelNumber = (id: number) =>
  apiRequest<BuyNumberResponse>(apiPaths.numbers.cancel(id), {
    method: 'POST',
    fallbackError: numberMessages.cancelFailed,
  });

export const useCancelNumber = () => useNumbersMutation(cancelNumber);

/**
 * Replace (spec section 4): cancel, then buy the same again; `price` is the price the confirmation showed,
 * which is all it may charge. A failed cancel buys nothing. Each outcome is a toast.
 */
export const useReplaceNumber = () =>
  useNumbersMutation(({ id, price }: { id: number; price: number }) =>
    cancelThenRepeat({
      cancel: () => cancelNumber(id),
      repeat: () =>
        apiRequest<BuyNumberResponse>(apiPaths.numbers.repeat(id), {
          method: 'POST',
          body: { price },
          fallbackError: numberMessages.repeatFailed,
        }),
      messages: numberMessages,
    }),
  );

/**
 * Reports a problem with the order: a ticket (its id and the text to show), or, for a waiting number the
 * service refused as used, the number given back and refunded (the lists and the balance change).
 */
export const useReportProblem = () =>
  useNumbersMutation(({ id, body }: { id: number; body: ReportProblemRequest }) =>
    apiRequest<ReportProblemResponse>(apiPaths.numbers.report(id), { method: 'POST', body }),
  );
