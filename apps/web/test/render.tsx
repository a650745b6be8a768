import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router';

/**
 * Renders routes in a memory router at `at`, inside a fresh query cache that does not retry (or the one
 * given; `null` for pages that have none, as the sign-in pages). Answers the router, the cache and a user.
 */
export function renderWithProviders(
  routes: RouteObject[],
  { at, queryClient }: { at: string; queryClient?: QueryClient | null },
) {
  const router = createMemoryRouter(routes, { initialEntries: [at] });
  const client =
    queryClient === undefined
      ? new QueryClient({ defaultOptions: { queries: { retry: false } } })
      : queryClient;
  render(
    client ? (
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    ) : (
      <RouterProvider router={router} />
    ),
  );
  return { router, queryClient: client, user: userEvent.setup() };
}
