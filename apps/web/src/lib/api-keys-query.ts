import { type ApiKeysResponse, apiPaths } from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';

/** The user's API keys: the API page lists them, and the account's sessions show them beside the sessions. */
export const apiKeysQuery = queryOptions({
  queryKey: queryKeys.apiKeys.list,
  queryFn: ({ signal }) => apiRequest<ApiKeysResponse>(apiPaths.apiKeys.list, { signal }),
});
