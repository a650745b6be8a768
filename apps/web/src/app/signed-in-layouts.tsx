import { QueryClientProvider } from '@tanstack/react-query';
import { Navigate, Outlet } from 'react-router';
import { publicPath } from '@/i18n';
import { queryClient } from '@/lib/query-client';
import { useSession } from '@/lib/session';
import { useLiveUpdates } from '@/lib/use-live-updates';

// Loaded with the pages that fetch data, so the public pages and the sign-in forms do not carry TanStack
// Query.

function LiveUpdates() {
  useLiveUpdates();
  return null;
}

/** Dashboard pages: signed-in users only; the rest go to /login. */
export function RequireAuth() {
  const { isSignedIn } = useSession();
  if (!isSignedIn) return <Navigate to={publicPath('/login')} replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <LiveUpdates />
      <Outlet />
    </QueryClientProvider>
  );
}

/** Pages open to everyone that still load data for signed-in users (Support Tickets). */
export function WithQueryClient() {
  return (
    <QueryClientProvider client={queryClient}>
      <Outlet />
    </QueryClientProvider>
  );
}
