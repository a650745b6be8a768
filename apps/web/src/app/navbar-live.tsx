import { apiPaths, type UnreadTicketsResponse } from '@simcode/contract';
import { QueryClientProvider, queryOptions, useQuery } from '@tanstack/react-query';
import { Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { apiRequest } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { queryClient } from '@/lib/query-client';
import { queryKeys } from '@/lib/query-keys';
import { summaryQuery } from '@/lib/summary-query';

// What the signed-in bar shows live. Loaded lazily (the public pages do not carry TanStack Query), and on
// the pages' own query cache, so the live updates move it too: a `balance` event refreshes the summary, a
// `tickets` event the unread count.

function WithQueries({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/** The balance on every signed-in page, as the leaders show it: what a purchase can spend, a tap from Top Up. */
export function NavbarBalance() {
  return (
    <WithQueries>
      <BalanceLink />
    </WithQueries>
  );
}

function BalanceLink() {
  const { t } = useTranslation('common');
  const summary = useQuery(summaryQuery);
  if (!summary.data) return null;
  const amount = formatDollars(summary.data.balance);
  return (
    <Link
      to="/dashboard/topup"
      aria-label={t('nav.balanceTopUp', { amount })}
      className="inline-flex items-center gap-1.5 rounded-md px-1 py-1.5 text-sm font-semibold tabular-nums text-slate-700 hover:bg-accent hover:text-foreground sm:mr-1 sm:px-2"
      data-testid="navbar-balance"
    >
      {/* On a phone the amount alone: the bar holds the logo, four controls and the menu button in 360 px. */}
      <Wallet className="hidden size-4 text-primary sm:block" aria-hidden="true" />
      {amount}
    </Link>
  );
}

const unreadTicketsQuery = queryOptions({
  queryKey: queryKeys.unreadTickets,
  queryFn: ({ signal }) => apiRequest<UnreadTicketsResponse>(apiPaths.tickets.unread, { signal }),
  staleTime: 60_000,
});

/** Inside the Support link: how many of the user's tickets hold an answer they have not read. */
export function UnreadTicketsMarker() {
  return (
    <WithQueries>
      <UnreadCount />
    </WithQueries>
  );
}

function UnreadCount() {
  const { t } = useTranslation('common');
  const count = useQuery(unreadTicketsQuery).data?.count ?? 0;
  if (count === 0) return null;
  return (
    <>
      <span
        className="ml-1.5 inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-primary px-1.5 text-xs font-semibold text-primary-foreground tabular-nums"
        aria-hidden="true"
        data-testid="unread-tickets"
      >
        {count}
      </span>
      <span className="sr-only">{t('nav.unreadAnswers', { count })}</span>
    </>
  );
}
