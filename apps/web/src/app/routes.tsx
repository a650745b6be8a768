import { DEFAULT_LANGUAGE, LANGUAGES } from '@simcode/contract';
import type { RouteObject } from 'react-router';
import { NotFoundPage } from '@/components/not-found-page';
import { ErrorPage } from './error-page';
import { GuestOnly } from './guards';
import { RootLayout } from './root-layout';

/** The prerendered public pages (a fresh set of route objects per language: the router loads each). */
function publicPages(): RouteObject[] {
  return [
    {
      index: true,
      lazy: async () => ({ Component: (await import('@/features/landing/landing-page')).LandingPage }),
    },
    { path: 'faq', lazy: async () => ({ Component: (await import('@/features/faq/faq-page')).FaqPage }) },
    {
      path: 'stats',
      lazy: async () => ({ Component: (await import('@/features/stats/stats-page')).StatsPage }),
    },
    {
      path: 'status',
      lazy: async () => ({ Component: (await import('@/features/status/status-page')).StatusPage }),
    },
    {
      // Not prerendered either (one per country), like a service's page.
      path: 'stats/country/:country',
      lazy: async () => ({
        Component: (await import('@/features/stats/country-page')).StatsCountryPage,
      }),
    },
    {
      // Not prerendered (one per service): served as the app's shell and rendered in the browser.
      path: 'stats/:service',
      lazy: async () => ({
        Component: (await import('@/features/stats/service-page')).StatsServicePage,
      }),
    },
    {
      Component: GuestOnly,
      children: [
        {
          path: 'login',
          lazy: async () => ({ Component: (await import('@/features/auth/login-page')).LoginPage }),
        },
        {
          path: 'register',
          lazy: async () => ({ Component: (await import('@/features/auth/register-page')).RegisterPage }),
        },
      ],
    },
  ];
}

/**
 * Every route of spec section 2. Pages load lazily, so the landing page does not carry the dashboard's
 * code; main.tsx resolves the current route's module before the first render.
 */
export const routes: RouteObject[] = [
  {
    Component: RootLayout,
    ErrorBoundary: ErrorPage,
    children: [
      ...publicPages(),
      {
        path: 'docs/api',
        lazy: async () => ({ Component: (await import('@/features/api-docs/api-docs-page')).ApiDocsPage }),
      },
      // Reached from the sign-in form and from e-mails; open signed in too (a reset or a new address
      // confirmed from the account's own browser).
      {
        path: 'forgot-password',
        lazy: async () => ({
          Component: (await import('@/features/auth/forgot-password-page')).ForgotPasswordPage,
        }),
      },
      {
        path: 'reset-password',
        lazy: async () => ({
          Component: (await import('@/features/auth/reset-password-page')).ResetPasswordPage,
        }),
      },
      {
        path: 'confirm-email',
        lazy: async () => ({
          Component: (await import('@/features/auth/confirm-email-page')).ConfirmEmailPage,
        }),
      },
      {
        path: 'revert-email',
        lazy: async () => ({
          Component: (await import('@/features/auth/confirm-email-page')).RevertEmailPage,
        }),
      },
      {
        path: 'dashboard/tickets',
        lazy: async () => ({ Component: (await import('./signed-in-layouts')).WithQueryClient }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('./tickets-route')).TicketsRoute }),
          },
        ],
      },
      {
        path: 'dashboard',
        lazy: async () => ({ Component: (await import('./signed-in-layouts')).RequireAuth }),
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await import('@/features/dashboard/dashboard-page')).DashboardPage,
            }),
          },
          {
            path: 'numbers',
            lazy: async () => ({ Component: (await import('@/features/numbers/numbers-page')).NumbersPage }),
          },
          {
            path: 'longterm',
            lazy: async () => ({ Component: (await import('@/features/rentals/rent-page')).RentPage }),
          },
          {
            path: 'longterm/numbers',
            lazy: async () => ({ Component: (await import('@/features/rentals/rents-page')).RentsPage }),
          },
          {
            path: 'renewable',
            lazy: async () => ({
              Component: (await import('@/features/rentals/renewable-page')).RenewablePage,
            }),
          },
          {
            path: 'balance',
            lazy: async () => ({ Component: (await import('@/features/money/balance-page')).BalancePage }),
          },
          {
            path: 'account',
            lazy: async () => ({ Component: (await import('@/features/account/account-page')).AccountPage }),
          },
          {
            path: 'api',
            lazy: async () => ({ Component: (await import('@/features/api-keys/api-page')).ApiPage }),
          },
          {
            path: 'topup',
            lazy: async () => ({ Component: (await import('@/features/topup/topup-page')).TopupPage }),
          },
        ],
      },
      {
        // The operator console: administrators only, as the server decides; anyone else sees the 404 page.
        path: 'admin',
        lazy: async () => ({ Component: (await import('@/features/admin/admin-layout')).AdminLayout }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('@/features/admin/overview-page')).OverviewPage }),
          },
          {
            path: 'users',
            lazy: async () => ({ Component: (await import('@/features/admin/users-page')).UsersPage }),
          },
          {
            path: 'users/:id',
            lazy: async () => ({ Component: (await import('@/features/admin/user-page')).UserPage }),
          },
          {
            path: 'orders',
            lazy: async () => ({ Component: (await import('@/features/admin/orders-page')).OrdersPage }),
          },
          {
            path: 'orders/:id',
            lazy: async () => ({ Component: (await import('@/features/admin/order-page')).OrderPage }),
          },
          {
            path: 'rents',
            lazy: async () => ({ Component: (await import('@/features/admin/rents-page')).RentsPage }),
          },
          {
            path: 'rents/:id',
            lazy: async () => ({ Component: (await import('@/features/admin/rent-page')).RentPage }),
          },
          {
            path: 'payments',
            lazy: async () => ({ Component: (await import('@/features/admin/payments-page')).PaymentsPage }),
          },
          {
            path: 'payments/:id',
            lazy: async () => ({ Component: (await import('@/features/admin/payment-page')).PaymentPage }),
          },
          {
            path: 'payment-providers',
            lazy: async () => ({
              Component: (await import('@/features/admin/payment-providers-page')).PaymentProvidersPage,
            }),
          },
          {
            path: 'pricing',
            lazy: async () => ({ Component: (await import('@/features/admin/pricing-page')).PricingPage }),
          },
          {
            path: 'providers',
            lazy: async () => ({
              Component: (await import('@/features/admin/providers-page')).ProvidersPage,
            }),
          },
          {
            path: 'reconciliation',
            lazy: async () => ({
              Component: (await import('@/features/admin/reconciliation-page')).ReconciliationPage,
            }),
          },
          {
            path: 'alerts',
            lazy: async () => ({
              Component: (await import('@/features/admin/alerts-page')).AlertsPage,
            }),
          },
          {
            path: 'audit',
            lazy: async () => ({ Component: (await import('@/features/admin/audit-page')).AuditPage }),
          },
          {
            path: 'incidents',
            lazy: async () => ({
              Component: (await import('@/features/admin/incidents-page')).IncidentsPage,
            }),
          },
        ],
      },
      // The public pages again under each other language's prefix ('/ru/', '/zh/faq'), prerendered in it.
      ...LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE).map((language) => ({
        path: language,
        children: publicPages(),
      })),
      { path: '*', Component: NotFoundPage },
    ],
  },
];
