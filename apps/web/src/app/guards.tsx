import { Navigate, Outlet } from 'react-router';
import { useSession } from '@/lib/session';

/** /login and /register: a signed-in user belongs on the dashboard. */
export function GuestOnly() {
  const { isSignedIn } = useSession();
  if (isSignedIn) return <Navigate to="/dashboard" replace />;
  return <Outlet />;
}
