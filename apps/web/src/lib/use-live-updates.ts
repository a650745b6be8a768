import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { getToken } from '@/features/auth/session';

/** What each pushed event makes stale. */
const STALE_BY_EVENT: Record<string, string[][]> = {
  // A live order's end changes the reserved figure of the Money view.
  numbers: [['numbers'], ['number-status'], ['summary'], ['ledger']],
  rents: [['rents'], ['rent-status'], ['summary'], ['ledger']],
  balance: [['summary'], ['ledger'], ['order-money']],
};
const RECONNECT_MS = [1000, 3000, 10_000, 30_000];

/**
 * Listens to the server's event stream and refetches what changed, so an SMS shows up the moment it
 * arrives. fetch() rather than EventSource, because the stream needs the bearer token in a header.
 */
export function useLiveUpdates(): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    const controller = new AbortController();
    let attempt = 0;

    async function listen(): Promise<void> {
      const token = getToken();
      if (!token) return;
      const response = await fetch('/api/dashboard/events', {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: controller.signal,
      });
      // A refused token is the API calls' business (they end the session); do not hammer the server.
      if (response.status === 401 || response.status === 403) return;
      if (!response.ok || !response.body) throw new Error(`event stream answered ${response.status}`);
      attempt = 0;
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) throw new Error('event stream ended');
        buffer += value;
        let boundary = buffer.indexOf('\n\n');
        while (boundary >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const type = /^event: (.+)$/m.exec(block)?.[1];
          for (const queryKey of (type && STALE_BY_EVENT[type]) || [])
            void queryClient.invalidateQueries({ queryKey });
          boundary = buffer.indexOf('\n\n');
        }
      }
    }

    async function run(): Promise<void> {
      while (!controller.signal.aborted) {
        try {
          await listen();
          return;
        } catch {
          if (controller.signal.aborted) return;
          const delayMs = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
          attempt += 1;
          await new Promise((resolve) => setTimeout(resolve, delayMs));
          // What happened while disconnected is unknown: refetch it all.
          void queryClient.invalidateQueries();
        }
      }
    }

    void run();
    return () => controller.abort();
  }, [queryClient]);
}
