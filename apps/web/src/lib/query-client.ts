import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** One cache for every signed-in screen, so moving between them keeps what was loaded. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: true,
      // A 4xx will answer the same next time; network trouble may not.
      retry: (failureCount, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
    },
    mutations: { retry: false },
  },
});
