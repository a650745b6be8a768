import { apiPaths, type SummaryResponse } from '@simcode/contract';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { queryKeys } from './query-keys';

/** The balance and counts: the dashboard's cards, and the balance a purchase, a rent or a top-up checks. */
export const summaryQuery = queryOptions({
  queryKey: queryKeys.summary,
  queryFn: ({ signal }) => apiRequest<SummaryResponse>(apiPaths.dashboard.summary, { signal }),
});
