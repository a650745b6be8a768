import {
  type LedgerEntryKind,
  type LedgerResponse,
  moneyMessages,
  type OrderMoneyResponse,
} from '@simcode/contract';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { getToken } from '@/lib/session';

export interface LedgerFilters {
  kind?: LedgerEntryKind;
  /** `YYYY-MM-DD`, UTC days, both included. */
  from?: string;
  to?: string;
}

/** Entries per page of the ledger table. */
const LEDGER_PAGE_SIZE = 50;

export const moneyKeys = {
  ledger: ['ledger'] as const,
  ledgerFiltered: (filters: LedgerFilters) => ['ledger', filters] as const,
  order: (kind: 'number' | 'rent', id: number) => ['order-money', kind, id] as const,
};

function filterParams(filters: LedgerFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.kind) params.set('kind', filters.kind);
  if (filters.from) params.set('from', filters.from);
  if (filters.to) params.set('to', filters.to);
  return params;
}

/** The ledger, newest first, one keyset page at a time: each page asks for entries before the last one. */
export function ledgerQuery(filters: LedgerFilters) {
  return infiniteQueryOptions({
    queryKey: moneyKeys.ledgerFiltered(filters),
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const params = filterParams(filters);
      params.set('limit', String(LEDGER_PAGE_SIZE));
      if (pageParam !== null) params.set('before', String(pageParam));
      return apiRequest<LedgerResponse>(`/api/dashboard/ledger?${params}`, {
        signal,
        fallbackError: moneyMessages.fetchLedgerFailed,
      });
    },
    getNextPageParam: (page) => page.next_before,
  });
}

export function orderMoneyQuery(kind: 'number' | 'rent', id: number) {
  return queryOptions({
    queryKey: moneyKeys.order(kind, id),
    queryFn: ({ signal }) =>
      apiRequest<OrderMoneyResponse>(
        `/api/dashboard/${kind === 'number' ? 'numbers' : 'rents'}/${id}/money`,
        {
          signal,
          fallbackError: moneyMessages.fetchLedgerFailed,
        },
      ),
  });
}

const ATTACHMENT_NAME = /filename="([^"]+)"/;

/**
 * Saves the filtered history as the server streams it. The session is a bearer token, which a plain link
 * cannot send, so the file is fetched with it and handed to the browser as a download.
 */
export async function downloadLedgerCsv(filters: LedgerFilters): Promise<void> {
  const token = getToken();
  const response = await fetch(`/api/dashboard/ledger.csv?${filterParams(filters)}`, {
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
