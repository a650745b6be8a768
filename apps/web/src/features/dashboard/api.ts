import {
  type BuyNumberRequest,
  type BuyNumberResponse,
  type CountriesResponse,
  type FavouriteRequest,
  type FavouritesResponse,
  generalMessages,
  numberMessages,
  type ServiceCountriesResponse,
  type ServicesResponse,
  type SummaryResponse,
  serviceDisplayName,
} from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const dashboardKeys = {
  summary: ['summary'] as const,
  countries: ['countries'] as const,
  services: (countryId: string, operator: string) => ['services', countryId, operator] as const,
  serviceCountries: (service: string) => ['service-countries', service] as const,
  favourites: ['favourites'] as const,
};

export const summaryQuery = queryOptions({
  queryKey: dashboardKeys.summary,
  queryFn: ({ signal }) => apiRequest<SummaryResponse>('/api/dashboard/summary', { signal }),
});

export const countriesQuery = queryOptions({
  queryKey: dashboardKeys.countries,
  queryFn: ({ signal }) =>
    apiRequest<CountriesResponse>('/api/dashboard/countries', {
      signal,
      fallbackError: numberMessages.fetchCountriesFailed,
    }),
  staleTime: 60_000,
});

export function servicesQuery(countryId: string, operator: string) {
  return queryOptions({
    queryKey: dashboardKeys.services(countryId, operator),
    queryFn: ({ signal }) =>
      apiRequest<ServicesResponse>(
        `/api/dashboard/services?countryID=${encodeURIComponent(countryId)}&operator=${encodeURIComponent(operator)}`,
        { signal, fallbackError: generalMessages.genericError },
      ),
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
    queryKey: dashboardKeys.serviceCountries(service),
    queryFn: ({ signal }) =>
      apiRequest<ServiceCountriesResponse>(
        `/api/dashboard/service-countries?service=${encodeURIComponent(service)}`,
        { signal, fallbackError: generalMessages.genericError },
      ),
    staleTime: 30_000,
  });
}

export const favouritesQuery = queryOptions({
  queryKey: dashboardKeys.favourites,
  queryFn: ({ signal }) => apiRequest<FavouritesResponse>('/api/dashboard/favourites', { signal }),
});

/** Stars or unstars a service (every country) or a (service, country) pair; answers the whole new list. */
export function saveFavourite(body: FavouriteRequest) {
  return apiRequest<FavouritesResponse>('/api/dashboard/favourites', { method: 'PUT', body });
}

/** `price` is the price the buyer was shown: a higher one now is refused with `price_changed`. */
export function buyNumber(body: BuyNumberRequest) {
  return apiRequest<BuyNumberResponse>('/api/dashboard/buy-number', {
    method: 'POST',
    body,
    fallbackError: numberMessages.purchaseFailed,
  });
}
