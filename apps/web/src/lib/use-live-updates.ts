import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { RESYNC, subscribeToLiveEvents } from './event-stream';

/** What each pushed event makes stale. */
const STALE_BY_EVENT: Record<string, string[][]> = {
  // A live order's end changes the reserved figure of the Money view.
  numbers: [['numbers'], ['number-status'], ['summary'], ['ledger']],
  rents: [['rents'], ['rent-status'], ['summary'], ['ledger']],
  balance: [['summary'], ['ledger'], ['order-money']],
};

/** Refetches what the server says changed, so an SMS shows up the moment it arrives. */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      subscribeToLiveEvents((event) => {
        // What happened while disconnected is unknown: refetch it all.
        if (event === RESYNC) {
          void queryClient.invalidateQueries();
          return;
        }
        for (const queryKey of STALE_BY_EVENT[event] ?? []) void queryClient.invalidateQueries({ queryKey });
      }),
    [queryClient],
  );
}
