import {
  apiPaths,
  type RenewPriceResponse,
  type RentCountriesResponse,
  type RentNumberRequest,
  type RentResponse,
  type RentServicesResponse,
  type RentStatusResponse,
  type RentsResponse,
  rentMessages,
  rentServiceDisplayName,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { cancelThenRepeat } from '@/lib/replace';

export const rentsQuery = queryOptions({
  queryKey: queryKeys.rents.all,
  queryFn: ({ signal }) =>
    apiRequest<RentsResponse>(apiPaths.rents.list, {
      signal,
      fallbackError: rentMessages.fetchRentsFailed,
    }),
  // Brands stay as written; 'Any other' is a description and is read in the reader's language.
  select: (answer: RentsResponse) => ({
    ...answer,
    rents: answer.rents.map((rent) => ({
      ...rent,
      service: { ...rent.service, name: rentServiceDisplayName(rent.service.key, rent.service.name) },
    })),
  }),
});

export function rentStatusQuery(orderId: string) {
  return queryOptions({
    queryKey: queryKeys.rents.status(orderId),
    queryFn: ({ signal }) => apiRequest<RentStatusResponse>(apiPaths.rents.status(orderId), { signal }),
    retry: false,
  });
}

export const rentCountriesQuery = queryOptions({
  queryKey: queryKeys.rents.countries,
  queryFn: ({ signal }) =>
    apiRequest<RentCountriesResponse>(apiPaths.rents.countries, {
      signal,
      fallbackError: rentMessages.fetchCountriesFailed,
    }),
  staleTime: 5 * 60_000,
});

export function rentServicesQuery(countryCode: string, hours: number) {
  return queryOptions({
    queryKey: queryKeys.rents.services(countryCode, hours),
    queryFn: ({ signal }) =>
      apiRequest<RentServicesResponse>(apiPaths.rents.services, {
        query: { country: countryCode, periodID: hours },
        signal,
      }),
    select: (answer: RentServicesResponse) => ({
      ...answer,
      services: Object.fromEntries(
        Object.entries(answer.services).map(([key, offer]) => [
          key,
          { ...offer, name: rentServiceDisplayName(key, offer.name) },
        ]),
      ),
    }),
    // The server keeps prices for a minute; asking sooner would only read its cache.
    staleTime: 60_000,
  });
}

export function renewPriceQuery(orderId: string, hours: number) {
  return queryOptions({
    queryKey: queryKeys.rents.renewPrice(orderId, hours),
    queryFn: ({ signal }) =>
      apiRequest<RenewPriceResponse>(apiPaths.rents.renewPrice(orderId), {
        query: { periodID: hours },
        signal,
        fallbackError: rentMessages.renewFailed,
      }),
    staleTime: 60_000,
    retry: false,
  });
}

/** A change to rents: the list, their status lines and the balance are asked again after it. */
function useRentsMutation<Input, Output>(
  run: (input: Input) => Promise<Output>,
  alsoStale?: (input: Input) => readonly unknown[],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: (_output, _error, input) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.rents.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.rents.statuses });
      void queryClient.invalidateQueries({ queryKey: queryKeys.summary });
      if (alsoStale) void queryClient.invalidateQueries({ queryKey: alsoStale(input) });
    },
  });
}

/** Rents a number; the stock and price of what was rented are asked again too. */
export const useRentNumber = () =>
  useRentsMutation(
    (body: RentNumberRequest) =>
      apiRequest<RentResponse>(apiPaths.rents.rent, {
        method: 'POST',
        body,
        fallbackError: rentMessages.rentFailed,
      }),
    (body) => queryKeys.rents.services(body.countryID, body.periodID),
  );

const cancelRent = (orderId: string) =>
  apiRequest<RentResponse>(apiPaths.rents.cancel(orderId), {
    method: 'POST',
    fallbackError: rentMessages.cancelFailed,
  });

export const useCancelRent = () => useRentsMutation(cancelRent);

/** Replace (spec section 4): cancel, then rent the same again; a failed cancel rents nothing. */
export const useReplaceRent = () =>
  useRentsMutation((orderId: string) =>
    cancelThenRepeat({
      cancel: () => cancelRent(orderId),
      repeat: () =>
        apiRequest<RentResponse>(apiPaths.rents.repeat(orderId), {
          method: 'POST',
          fallbackError: rentMessages.repeatFailed,
        }),
      messages: rentMessages,
    }),
  );

export const useRenewRent = () =>
  useRentsMutation(({ orderId, hours }: { orderId: string; hours: number }) =>
    apiRequest<RentResponse>(apiPaths.rents.renew(orderId), {
      method: 'POST',
      body: { periodID: hours },
      fallbackError: rentMessages.renewFailed,
    }),
  );

export const useSetAutoRenew = () =>
  useRentsMutation(({ orderId, enabled }: { orderId: string; enabled: boolean }) =>
    apiRequest<RentResponse>(apiPaths.rents.autoRenew(orderId), {
      method: 'POST',
      body: { enabled },
      fallbackError: rentMessages.autoRenewFailed,
    }),
  );
