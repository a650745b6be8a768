import {
  type BuyNumberRequest,
  type BuyNumberResponse,
  type CountriesResponse,
  generalMessages,
  numberMessages,
  type ServicesResponse,
  type SummaryResponse,
} from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const dashboardKeys = {
  summary: ['summary'] as const,
  countries: ['countries'] as const,
  services: (countryId: string, operator: string) => ['services', countryId, operator] as const,
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
    staleTime: 30_000,
  });
}

export function buyNumber(body: BuyNumberRequest) {
  return apiRequest<BuyNumberResponse>('/api/dashboard/buy-number', {
    method: 'POST',
    body,
    fallbackError: numberMessages.purchaseFailed,
  });
}
