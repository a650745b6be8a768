import { accountMessages, type accountResponseSchema, apiPaths } from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';

/** The signed-in account: the Account page shows it, and the dashboard reads its buying preference. */
export const accountQuery = queryOptions({
  queryKey: queryKeys.account.details,
  queryFn: ({ signal }) =>
    apiRequest<z.infer<typeof accountResponseSchema>>(apiPaths.account.account, {
      signal,
      fallbackError: accountMessages.fetchAccountFailed,
    }),
});
