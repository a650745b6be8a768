import { adminMessages, adminRoutes } from '@simcode/contract';
import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BellRing,
  CalendarClock,
  ChevronDown,
  CreditCard,
  Landmark,
  LayoutDashboard,
  LifeBuoy,
  ListOrdered,
  type LucideIcon,
  Percent,
  RotateCw,
  Scale,
  ScrollText,
  Server,
  Siren,
  Users,
} from 'lucide-react';
import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, NavLink, Outlet, useLocation } from 'react-router';
import { NotFoundPage } from '@/components/not-found-page';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { publicPath } from '@/i18n';
import { ApiError } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { accessQuery } from './api';

interface ConsoleLink {
  to: string;
  /** Its name's key in the admin catalogue. */
  labelKey: string;
  icon: LucideIcon;
  end?: boolean;
}

const consoleLinks: ConsoleLink[] = [
  { to: adminRoutes.overview, labelKey: 'nav.overview', icon: LayoutDashboard, end: true },
  { to: adminRoutes.users, labelKey: 'nav.users', icon: Users },
  { to: adminRoutes.orders, labelKey: 'nav.orders', icon: ListOrdered },
  { to: adminRoutes.rents, labelKey: 'nav.rents', icon: CalendarClock },
  { to: adminRoutes.payments, labelKey: 'nav.payments', icon: CreditCard },
  { to: adminRoutes.paymentProviders, labelKey: 'nav.paymentProviders', icon: Landmark },
  { to: adminRoutes.pricing, labelKey: 'nav.pricing', icon: Percent },
  { to: adminRoutes.providers, labelKey: 'nav.providers', icon: Server },
  { to: adminRoutes.reconciliation, labelKey: 'nav.reconciliation', icon: Scale },
  { to: adminRoutes.alerts, labelKey: 'nav.alerts', icon: BellRing },
  { to: adminRoutes.audit, labelKey: 'nav.audit', icon: ScrollText },
  { to: adminRoutes.incidents, labelKey: 'nav.incidents', icon: Siren },
  { to: '/dashboard/tickets', labelKey: 'nav.tickets', icon: LifeBuoy },
];

/** The page a path belongs to: /admin/users/12 is under Users. */
function currentLink(pathname: string): ConsoleLink | undefined {
  return consoleLinks.find((link) => (link.end ? pathname === link.to : pathname.startsWith(link.to)));
}

const isForbidden = (error: unknown) => error instanceof ApiError && error.status === 403;

/**
 * Whether any console request was refused as not an administrator's (demoted while the console is open):
 * from then on the console is the 404 page, as it is for any user.
 */
function useRefused(): boolean {
  const client = useQueryClient();
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    const offQueries = client.getQueryCache().subscribe((event) => {
      if (event.query.queryKey[0] === 'admin' && isForbidden(event.query.state.error)) setRefused(true);
    });
    const offMutations = client.getMutationCache().subscribe((event) => {
      if (isForbidden(event.mutation?.state.error)) setRefused(true);
    });
    return () => {
      offQueries();
      offMutations();
    };
  }, [client]);
  return refused;
}

function ConsoleNav() {
  const { t } = useTranslation('admin');
  const { pathname } = useLocation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const current = currentLink(pathname);

  // Choosing a page closes the phone's menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on navigation only.
  useEffect(() => setOpen(false), [pathname]);

  return (
    <nav aria-label={t('nav.label')} className="mb-6 lg:mb-0">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 rounded-lg border bg-white px-4 py-2.5 text-left text-sm font-medium shadow-xs hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring lg:hidden"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="min-w-0 truncate">
          <span className="text-muted-foreground">{t('nav.current')}</span>
          {current ? t(current.labelKey) : t('nav.menu')}
        </span>
        <ChevronDown
          className={cn('size-4 shrink-0 transition-transform', open && 'rotate-180')}
          aria-hidden="true"
        />
      </button>
      <div
        id={listId}
        className={cn(
          'mt-2 rounded-lg border bg-white p-2 shadow-sm lg:sticky lg:top-28 lg:mt-0 lg:block lg:border-0 lg:bg-transparent lg:p-0 lg:shadow-none',
          !open && 'hidden',
        )}
      >
        <p className="hidden px-3 pb-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase lg:block">
          {t('nav.heading')}
        </p>
        <ul className="flex flex-col gap-0.5">
          {consoleLinks.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                end={link.end}
                className={({ isActive }) =>
                  cn(
                    'flex items-center gap-2.5 rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
                    isActive ? 'bg-secondary text-primary' : 'text-slate-700',
                  )
                }
              >
                <link.icon className="size-4 shrink-0" aria-hidden="true" />
                {t(link.labelKey)}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

/** The console's frame: its navigation beside the page on a desktop, above it behind a menu on a phone. */
function ConsoleShell() {
  return (
    <main className="mx-auto w-full max-w-7xl px-4 pt-24 pb-16 sm:px-6 lg:pt-28">
      <div className="lg:grid lg:grid-cols-[12.5rem_minmax(0,1fr)] lg:gap-8">
        <ConsoleNav />
        <div className="min-w-0">
          <Outlet />
        </div>
      </div>
    </main>
  );
}

/** Asks the server first: nothing of the console shows until it has said the caller is an administrator. */
function ConsoleGate() {
  const { t } = useTranslation('admin');
  const access = useQuery(accessQuery);
  const refused = useRefused();
  if (refused || isForbidden(access.error)) return <NotFoundPage />;
  if (access.isPending) {
    return (
      <main className="mx-auto w-full max-w-7xl px-4 pt-24 pb-16 sm:px-6 lg:pt-28" aria-busy="true">
        <SkeletonRows count={4} rowClassName="h-16 rounded-xl" />
      </main>
    );
  }
  if (access.isError) {
    return (
      <main className="mx-auto flex w-full max-w-lg flex-col items-center gap-4 px-4 pt-28 pb-16">
        <h1 className="sr-only">{adminMessages.loadFailed}</h1>
        <Alert variant="destructive">
          <AlertDescription>
            {access.error instanceof ApiError ? access.error.message : adminMessages.loadFailed}
          </AlertDescription>
        </Alert>
        <Button variant="outline" onClick={() => void access.refetch()}>
          <RotateCw aria-hidden="true" />
          {t('tryAgain')}
        </Button>
      </main>
    );
  }
  return <ConsoleShell />;
}

/**
 * `/admin/*`: administrators only, as the server decides. A visitor goes to the sign-in page (the API would
 * answer 401); a user gets the app's 404 page, so the console's existence is not advertised.
 */
export function AdminLayout() {
  const { isSignedIn } = useSession();
  if (!isSignedIn) return <Navigate to={publicPath('/login')} replace />;
  return (
    <QueryClientProvider client={queryClient}>
      <ConsoleGate />
    </QueryClientProvider>
  );
}
