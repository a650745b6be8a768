import type { LiveEventType } from '@simcode/contract';
import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { toast } from 'sonner';
import { currentLanguage, i18n } from '@/i18n';
import { rememberLanguage } from '@/i18n/preference';
import { accountQuery } from './account-query';
import { RESYNC, subscribeToLiveEvents } from './event-stream';
import { queryKeys } from './query-keys';

/** What each pushed event makes stale. */
const STALE_BY_EVENT: Record<LiveEventType, readonly QueryKey[]> = {
  // A live order's end changes the reserved figure of the Money view.
  numbers: [queryKeys.numbers.all, queryKeys.numbers.statuses, queryKeys.summary, queryKeys.money.ledger],
  rents: [queryKeys.rents.all, queryKeys.rents.statuses, queryKeys.summary, queryKeys.money.ledger],
  // A credited payment (a deposit to the buyer's address arrives unannounced) shows in Top Up's list.
  balance: [queryKeys.summary, queryKeys.money.ledger, queryKeys.money.orders, queryKeys.topups.all],
  tickets: [queryKeys.tickets.all, queryKeys.unreadTickets],
  settings: [queryKeys.account.details],
};

/**
 * The account's language was changed on another device: this browser takes it from its next page on, and
 * offers to switch now rather than reloading under the buyer's hands.
 */
async function followAccountLanguage(queryClient: QueryClient): Promise<void> {
  const { account } = await queryClient.fetchQuery(accountQuery);
  if (!account.language || account.language === currentLanguage()) return;
  rememberLanguage(account.language);
  toast.info(i18n.t('common:language.changedElsewhere'), {
    action: { label: i18n.t('common:language.switchNow'), onClick: () => window.location.reload() },
  });
}

/** Refetches what the server says changed, so an SMS shows up the moment it arrives. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeToLiveEvents((event) => {
        // What happened while disconnected is unknown: refetch it all.
        if (event.type === RESYNC) {
          void queryClient.invalidateQueries();
          return;
        }
        for (const queryKey of STALE_BY_EVENT[event.type]) void queryClient.invalidateQueries({ queryKey });
        if (event.type === 'settings') followAccountLanguage(queryClient).catch(() => undefined);
      }),
    [queryClient],
  );
}
