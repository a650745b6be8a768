import { useEffect, useState } from 'react';
import { apiRequest } from '@/lib/api-client';

/**
 * One answer of an open API (the Delivery Index, the status page), fetched in the browser once the page's app runs (public pages
 * carry no inline data: ADR 0007). Null while it loads; an error text when it failed.
 */
export function useOpenAnswer<T>(url: string): { data: T | null; failed: boolean } {
  const [state, setState] = useState<{ url: string; data: T | null; failed: boolean }>({
    url,
    data: null,
    failed: false,
  });
  useEffect(() => {
    const controller = new AbortController();
    apiRequest<T>(url, { signal: controller.signal }).then(
      (data) => setState({ url, data, failed: false }),
      (error: unknown) => {
        if ((error as Error).name !== 'AbortError') setState({ url, data: null, failed: true });
      },
    );
    return () => controller.abort();
  }, [url]);
  // The previous window's answer is not shown as this one's while the new one loads.
  return state.url === url ? state : { data: null, failed: false };
}
