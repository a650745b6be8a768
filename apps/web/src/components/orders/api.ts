import {
  apiPaths,
  type BuyNumberResponse,
  moneyMessages,
  type NumberStatusResponse,
  type OrderMoneyResponse,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

/** The status call of a number (spec section 4), by its upstream number id. */
export function numberStatusQuery(numberId: string) {
  return queryOptions({
    queryKey: queryKeys.numbers.status(numberId),
    queryFn: ({ signal }) => apiRequest<NumberStatusResponse>(apiPaths.numbers.status(numberId), { signal }),
    retry: false,
  });
}

/** The money side of one order or rent: its price, every ledger entry about it, why it was refunded. */
export function orderMoneyQuery(kind: 'number' | 'rent', id: number) {
  return queryOptions({
    queryKey: queryKeys.money.order(kind, id),
    queryFn: ({ signal }) =>
      apiRequest<OrderMoneyResponse>(
        kind === 'number' ? apiPaths.numbers.money(id) : apiPaths.rents.money(id),
        {
          signal,
          fallbackError: moneyMessages.fetchLedgerFailed,
        },
      ),
  });
}

/** Waits for another SMS on a number that received its code, at no charge; answers the number. */
export function useRequestAnotherSms() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      apiRequest<BuyNumberResponse>(apiPaths.numbers.anotherSms(id), { method: 'POST' }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.statuses });
    },
  });
}
