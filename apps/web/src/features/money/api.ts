import { apiPaths, type LedgerEntryKind, type LedgerResponse, moneyMessages } from '@simcode/contract';
import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import { ApiError, apiRequest, withQuery } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { getToken } from '@/lib/session';

export interface LedgerFilters {
  kind?: LedgerEntryKind;
  /** `YYYY-MM-DD`, UTC days, both included. */
  from?: string;
  to?: string;
}

/** Entries per page of the ledger table. */
const LEDGER_PAGE_SIZE = 50;

function filterParams(filters: LedgerFilters) {
  return { kind: filters.kind || undefined, from: filters.from || undefined, to: filters.to || undefined };
}

/** The ledger, newest first, one keyset page at a time: each page asks for entries before the last one. */
export function ledgerQuery(filters: LedgerFilters) {
  return infiniteQueryOptions({
    queryKey: queryKeys.money.ledgerPages(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      apiRequest<LedgerResponse>(apiPaths.dashboard.ledger, {
        query: { ...filterParams(filters), limit: LEDGER_PAGE_SIZE, before: pageParam },
        signal,
        fallbackError: moneyMessages.fetchLedgerFailed,
      }),
    getNextPageParam: (page) => page.next_before,
  });
}

const ATTACHMENT_NAME = /filename="([^"]+)"/;

/**
 * Saves the filtered history as the server streams it. The session is a bearer token, which a plain link
 * cannot send, so the file is fetched with it and handed to the browser as a download.
 */
async function downloadLedgerCsv(filters: LedgerFilters): Promise<void> {
  const token = getToken();
  const response = await fetch(withQuery(apiPaths.dashboard.ledgerCsv, filterParams(filters)), {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(body?.error ?? moneyMessages.exportFailed, response.status);
  }
  const name = ATTACHMENT_NAME.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name ?? 'transactions.csv';
  link.click();
  // Released later: the browser reads the file after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const useExportLedger = () => useMutation({ mutationFn: downloadLedgerCsv });
