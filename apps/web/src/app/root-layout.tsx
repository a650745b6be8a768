import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { Footer } from '@/components/footer';
import { ScrollToTopButton } from '@/components/scroll-to-top';
import { useIdleLogout } from '@/features/auth/use-idle-logout';
import { useSession } from '@/lib/session';
import { useMediaQuery } from '@/lib/use-media-query';
import { markInteractive } from './interactive';
import { Navbar } from './navbar';
import { RouteAnnouncer } from './route-announcer';

// Toasts report the results of signed-in actions only, so the public pages do not load the library.
const Toaster = lazy(() => import('sonner').then(({ Toaster }) => ({ default: Toaster })));
// Signed-in users only, on every page: the public pages' first load does not carry it.
const CodeAlerts = lazy(() => import('@/features/alerts/code-alerts'));
/** Below the tallest navigation bar (80 px) with a gap, so a toast never covers one of its controls. */
const TOAST_OFFSET_BELOW_NAVBAR_PX = 96;
/** Where the navigation bar folds into its menu button: phones and small tablets get toasts at the bottom. */
const PHONE_QUERY = '(max-width: 639px)';

export function RootLayout() {
  const { isSignedIn } = useSession();
  const { t } = useTranslation('common');
  const { pathname } = useLocation();
  const phone = useMediaQuery(PHONE_QUERY);
  useIdleLogout(isSignedIn);
  useEffect(markInteractive, []);
  return (
    <>
      <a
        href="#content"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        {t('skipToContent')}
      </a>
      <Navbar />
      <div id="content" tabIndex={-1} className="flex min-h-dvh flex-col outline-none">
        <Outlet />
      </div>
      <Footer />
      <ScrollToTopButton />
      {(pathname.startsWith('/dashboard') || pathname.startsWith('/admin')) && (
        <Suspense fallback={null}>
          <Toaster
            position={phone ? 'bottom-center' : 'top-right'}
            offset={{ top: TOAST_OFFSET_BELOW_NAVBAR_PX }}
            richColors
            closeButton
            toastOptions={{ duration: 5000 }}
          />
        </Suspense>
      )}
      {isSignedIn && (
        <Suspense fallback={null}>
          <CodeAlerts />
        </Suspense>
      )}
      <RouteAnnouncer contentId="content" />
      <ScrollRestoration />
    </>
  );
}
