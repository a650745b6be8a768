import {
  type RenewPriceResponse,
  type RentCountriesResponse,
  type RentNumberRequest,
  type RentResponse,
  type RentServicesResponse,
  type RentStatusResponse,
  type RentsResponse,
  rentMessages,
} from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** ['rents'], ['rent-status'] and ['summary'] are what a pushed 'rents' event makes stale (lib/use-live-updates). */
export const rentKeys = {
  list: ['rents'] as const,
  status: (orderId: string) => ['rent-status', orderId] as const,
  countries: ['rent-countries'] as const,
  services: (countryCode: string, hours: number) => ['rent-services', countryCode, hours] as const,
  renewPrice: (orderId: string, hours: number) => ['rent-renew-price', orderId, hours] as const,
};

export const rentsQuery = queryOptions({
  queryKey: rentKeys.list,
  queryFn: ({ signal }) =>
    apiRequest<RentsResponse>('/api/dashboard/rents', {
      signal,
      fallbackError: rentMessages.fetchRentsFailed,
    }),
});

export function rentStatusQuery(orderId: string) {
  return queryOptions({
    queryKey: rentKeys.status(orderId),
    queryFn: ({ signal }) =>
      apiRequest<RentStatusResponse>(`/api/dashboard/rent-status/${encodeURIComponent(orderId)}`, { signal }),
    retry: false,
  });
}

export const rentCountriesQuery = queryOptions({
  queryKey: rentKeys.countries,
  queryFn: ({ signal }) =>
    apiRequest<RentCountriesResponse>('/api/dashboard/rent-countries', {
      signal,
      fallbackError: rentMessages.fetchCountriesFailed,
    }),
  staleTime: 5 * 60_000,
});

export function rentServicesQuery(countryCode: string, hours: number) {
  return queryOptions({
    queryKey: rentKeys.services(countryCode, hours),
    queryFn: ({ signal }) =>
      apiRequest<RentServicesResponse>(
        `/api/dashboard/rent-services?country=${encodeURIComponent(countryCode)}&periodID=${hours}`,
        { signal },
      ),
    // The server keeps prices for a minute; asking sooner would only read its cache.
    staleTime: 60_000,
  });
}

export function renewPriceQuery(orderId: string, hours: number) {
  return queryOptions({
    queryKey: rentKeys.renewPrice(orderId, hours),
    queryFn: ({ signal }) =>
      apiRequest<RenewPriceResponse>(
        `/api/dashboard/rents/${encodeURIComponent(orderId)}/renew-price?periodID=${hours}`,
        {
          signal,
          fallbackError: rentMessages.renewFailed,
        },
      ),
    staleTime: 60_000,
    retry: false,
  });
}

export function rentNumber(body: RentNumberRequest) {
  return apiRequest<RentResponse>('/api/dashboard/rent-number', {
    method: 'POST',
    body,
    fallbackError: rentMessages.rentFailed,
  });
}

function rentAction(orderId: string, action: string, fallbackError: string, body?: unknown) {
  return apiRequest<RentResponse>(`/api/dashboard/rents/${encodeURIComponent(orderId)}/${action}`, {
    method: 'POST',
    body,
    fallbackError,
  });
}

export const cancelRent = (orderId: string) => rentAction(orderId, 'cancel', rentMessages.cancelFailed);
export const repeatRent = (orderId: string) => rentAction(orderId, 'repeat', rentMessages.repeatFailed);
export const renewRent = (orderId: string, hours: number) =>
  rentAction(orderId, 'renew', rentMessages.renewFailed, { periodID: hours });
export const setAutoRenew = (orderId: string, enabled: boolean) =>
  rentAction(orderId, 'auto-renew', rentMessages.autoRenewFailed, { enabled });
