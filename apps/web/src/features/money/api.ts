import { apiPaths, type LedgerEntryKind, type LedgerResponse, moneyMessages } from '@simcode/contract';
import { infiniteQueryOptions, useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { downloadFile } from '@/lib/download-file';
import { queryKeys } from '@/lib/query-keys';

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

/** Saves the filtered history as the server streams it. */
function downloadLedgerCsv(filters: LedgerFilters): Promise<void> {
  return downloadFile(apiPaths.dashboard.ledgerCsv, filterParams(filters), {
    fallbackError: moneyMessages.exportFailed,
    defaultName: 'transactions.csv',
  });
}

export const useExportLedger = () => useMutation({ mutationFn: downloadLedgerCsv });
