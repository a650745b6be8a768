import {
  apiPaths,
  type BuyNumberResponse,
  moneyMessages,
  type NumberStatusResponse,
  numberMessages,
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

/** A POST about one number that answers the number: the lists and status lines are asked again after it. */
function useNumberPost(pathOf: (id: number) => string, fallbackError?: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest<BuyNumberResponse>(pathOf(id), { method: 'POST', fallbackError }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.statuses });
    },
  });
}

/** Waits for another SMS on a number that received its code, at no charge; answers the number. */
export const useRequestAnotherSms = () => useNumberPost(apiPaths.numbers.anotherSms);

/** Done with a number that received its code: freed upstream, the code kept in the history. */
export const useFinishNumber = () => useNumberPost(apiPaths.numbers.finish, numberMessages.finishFailed);
