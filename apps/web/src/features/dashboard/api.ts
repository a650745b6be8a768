import {
  apiPaths,
  type BuyNumberRequest,
  type BuyNumberResponse,
  type CountriesResponse,
  type FavouriteRequest,
  type FavouritesResponse,
  generalMessages,
  type NumbersResponse,
  numberMessages,
  type ServiceCountriesResponse,
  type ServicesResponse,
  serviceDisplayName,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export const countriesQuery = queryOptions({
  queryKey: queryKeys.catalog.countries,
  queryFn: ({ signal }) =>
    apiRequest<CountriesResponse>(apiPaths.dashboard.countries, {
      signal,
      fallbackError: numberMessages.fetchCountriesFailed,
    }),
  staleTime: 60_000,
});

export function servicesQuery(countryId: string, operator: string) {
  return queryOptions({
    queryKey: queryKeys.catalog.services(countryId, operator),
    queryFn: ({ signal }) =>
      apiRequest<ServicesResponse>(apiPaths.dashboard.services, {
        query: { countryID: countryId, operator },
        signal,
        fallbackError: generalMessages.genericError,
      }),
    // The catalog names services as brands do; the one description among them ('Any other') is translated.
    select: (answer: ServicesResponse) => ({
      ...answer,
      services: answer.services.map((offer) => ({
        ...offer,
        name: serviceDisplayName(offer.id, offer.name),
      })),
    }),
    staleTime: 30_000,
  });
}

/** Every country selling one service, for the "By service" mode. */
export function serviceCountriesQuery(service: string) {
  return queryOptions({
    queryKey: queryKeys.catalog.serviceCountries(service),
    queryFn: ({ signal }) =>
      apiRequest<ServiceCountriesResponse>(apiPaths.dashboard.serviceCountries, {
        query: { service },
        signal,
        fallbackError: generalMessages.genericError,
      }),
    staleTime: 30_000,
  });
}

export const favouritesQuery = queryOptions({
  queryKey: queryKeys.catalog.favourites,
  queryFn: ({ signal }) => apiRequest<FavouritesResponse>(apiPaths.dashboard.favourites, { signal }),
});

/** The user's numbers as the spec's list gives them: the Active numbers panel shows the live ones. */
export const numbersQuery = queryOptions({
  queryKey: queryKeys.numbers.all,
  queryFn: ({ signal }) =>
    apiRequest<NumbersResponse>(apiPaths.numbers.list, {
      signal,
      fallbackError: numberMessages.fetchNumbersFailed,
    }),
});

/** Stars or unstars a service (every country) or a (service, country) pair; answers the whole new list. */
export function useSaveFavourite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: FavouriteRequest) =>
      apiRequest<FavouritesResponse>(apiPaths.dashboard.favourites, { method: 'PUT', body }),
    // The answer is the whole new list: no second request.
    onSuccess: (data) => queryClient.setQueryData(queryKeys.catalog.favourites, data),
  });
}

/**
 * `price` is the price the buyer was shown: a higher one now is refused with `price_changed`. Whatever the
 * outcome, the balance, the numbers, the recent purchases and the stock and price of what was bought (in
 * both modes) are asked again.
 */
export function useBuyNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BuyNumberRequest) =>
      apiRequest<BuyNumberResponse>(apiPaths.numbers.buy, {
        method: 'POST',
        body,
        fallbackError: numberMessages.purchaseFailed,
      }),
    onSettled: (_answer, _error, body) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.summary });
      void queryClient.invalidateQueries({ queryKey: queryKeys.numbers.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.favourites });
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.servicesIn(body.countryID) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.catalog.serviceCountries(body.service) });
    },
  });
}
