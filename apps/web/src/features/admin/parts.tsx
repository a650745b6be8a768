import {
  type AdminLedgerEntry,
  type AdminOrderRow,
  type AuditEntry,
  adminMessages,
  adminRoutes,
  countryById,
  rentServiceByKey,
  serviceByCode,
} from '@simcode/contract';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { DateTime } from '@/features/account/parts';
import { SignedAmount } from '@/features/money/entry-parts';
import { errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';

export { AccountSection as ConsoleSection, DateTime } from '@/features/account/parts';

export const linkClass =
  'font-medium text-primary underline-offset-4 hover:underline focus-visible:underline';

/** A fact of an object's page: label above, value below. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{label}</dt>
      <dd className="mt-0.5 text-sm font-medium wrap-anywhere">{children}</dd>
    </div>
  );
}

export function Facts({ children, className }: { children: ReactNode; className?: string }) {
  return <dl className={cn('grid grid-cols-2 gap-x-4 gap-y-3 lg:grid-cols-3', className)}>{children}</dl>;
}

/** A list's loading, error and empty states; renders nothing once it has rows. */
export function ListState({
  query,
  empty,
  emptyText,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data?: unknown };
  empty: boolean;
  emptyText: string;
}) {
  if (query.isPending) return <SkeletonRows count={4} rowClassName="h-12 rounded-lg" />;
  if (query.isError && !query.data) return <LoadError error={query.error} />;
  if (empty) return <EmptyText>{emptyText}</EmptyText>;
  return null;
}

export function LoadError({ error }: { error: unknown }) {
  return (
    <Alert variant="destructive">
      <AlertDescription>{errorMessage(error, adminMessages.loadFailed)}</AlertDescription>
    </Alert>
  );
}

export function EmptyText({ children }: { children: ReactNode }) {
  return (
    <p className="rounded-lg border border-dashed px-6 py-8 text-center text-sm text-muted-foreground">
      {children}
    </p>
  );
}

/** The next keyset page of a list. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): unknown };
}) {
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="outline"
      className="self-center"
      busy={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      Load more
    </Button>
  );
}

export function Money({ dollars }: { dollars: number | null | undefined }) {
  if (dollars === null || dollars === undefined) return <span className="text-muted-foreground">—</span>;
  return <span className="tabular-nums">{formatDollars(dollars)}</span>;
}

/** A rate from 0 to 1 as a percentage: '97.5%'. */
export const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

/** A duration in milliseconds as people read it: '850 ms', '12.4 s', '3 min 5 s'. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const seconds = Math.round(ms / 1000);
  return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

export function YesNo({ value, yes = 'Yes', no = 'No' }: { value: boolean; yes?: string; no?: string }) {
  return <Badge variant={value ? 'success' : 'muted'}>{value ? yes : no}</Badge>;
}

const ORDER_BADGES: Record<AdminOrderRow['status'], BadgeVariant> = {
  pending: 'info',
  waiting: 'info',
  received: 'success',
  completed: 'success',
  canceled: 'muted',
  expired: 'muted',
  failed: 'destructive',
};

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1).replaceAll('_', ' ');

const RENT_BADGES: Record<string, BadgeVariant> = {
  pending: 'info',
  active: 'success',
  renewed: 'success',
  canceled: 'muted',
  expired: 'muted',
  failed: 'destructive',
};

export function RentStatusBadge({ status }: { status: string }) {
  return <Badge variant={RENT_BADGES[status] ?? 'muted'}>{capitalise(status)}</Badge>;
}

export function OrderStatusBadge({ status }: { status: AdminOrderRow['status'] }) {
  return <Badge variant={ORDER_BADGES[status] ?? 'muted'}>{capitalise(status)}</Badge>;
}

/** Ours, and the provider's own in its events ('paid', 'wrong_amount' ...). */
const PAYMENT_BADGES: Record<string, BadgeVariant> = {
  pending: 'warning',
  completed: 'success',
  paid: 'success',
  paid_over: 'success',
  wrong_amount: 'destructive',
  underpaid: 'destructive',
  failed: 'destructive',
  canceled: 'muted',
  expired: 'muted',
};

export const paymentStatuses = [
  'pending',
  'completed',
  'underpaid',
  'canceled',
  'failed',
  'expired',
] as const;

export function PaymentStatusBadge({ status }: { status: string }) {
  return <Badge variant={PAYMENT_BADGES[status] ?? 'muted'}>{capitalise(status)}</Badge>;
}

export function serviceName(code: string): string {
  return serviceByCode(code)?.name ?? code;
}

/** A rent's service: a long-term option key ('opt29') or a one-time service code. */
export function rentName(service: string): string {
  return rentServiceByKey(service)?.name ?? serviceName(service);
}

export function countryName(id: string): string {
  return countryById(id)?.name ?? id;
}

/** Where the console shows an object the audit log or the ledger names; null when it has no page. */
export function objectPath(type: string, id: string): string | null {
  switch (type) {
    case 'user':
      return adminRoutes.user(id);
    case 'order':
    case 'activation':
      return adminRoutes.order(id);
    case 'rent':
      return adminRoutes.rent(id);
    case 'payment':
      return adminRoutes.payment(id);
    case 'pricing':
      return adminRoutes.pricing;
    case 'provider':
      return adminRoutes.providers;
    default:
      return null;
  }
}

const OBJECT_LABELS: Record<string, string> = {
  user: 'User',
  order: 'Order',
  activation: 'Order',
  payment: 'Payment',
  pricing: 'Pricing',
  provider: 'Provider',
  rent: 'Rent',
  rent_renewal: 'Rent renewal',
};

export function ObjectLink({ type, id }: { type: string; id: string }) {
  const label = `${OBJECT_LABELS[type] ?? capitalise(type)} ${/^\d+$/.test(id) ? `#${id}` : id}`;
  const path = objectPath(type, id);
  if (!path) return <span>{label}</span>;
  return (
    <Link to={path} className={linkClass}>
      {label}
    </Link>
  );
}

/** A value as indented JSON, folded until asked for: before and after of an audit entry, a raw webhook. */
export function Collapsible({ summary, children }: { summary: string; children: string }) {
  return (
    <details className="group min-w-0 rounded-md border bg-slate-50">
      <summary className="cursor-pointer rounded-md px-3 py-1.5 text-xs font-medium text-slate-700 focus-visible:outline-2 focus-visible:outline-ring">
        {summary}
      </summary>
      <pre className="max-h-80 overflow-auto border-t px-3 py-2 text-xs break-all whitespace-pre-wrap">
        {children}
      </pre>
    </details>
  );
}

export const asJson = (value: unknown) => JSON.stringify(value, null, 2);

/** The administrators' actions on an object (or everywhere): who, when, what, why, and what changed. */
export function AuditEntries({
  entries,
  showObject = true,
}: {
  entries: AuditEntry[];
  showObject?: boolean;
}) {
  return (
    <ul className="divide-y" aria-label="Audit entries">
      {entries.map((entry) => (
        <li key={entry.id} className="flex min-w-0 flex-col gap-2 py-3 first:pt-0 last:pb-0">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <Badge variant="secondary" className="font-mono">
              {entry.action}
            </Badge>
            {showObject && <ObjectLink type={entry.object_type} id={entry.object_id} />}
            <span className="text-muted-foreground">
              by <span className="font-medium text-foreground">{entry.admin}</span>
            </span>
            <span className="text-muted-foreground">
              <DateTime value={entry.at} />
            </span>
          </div>
          <p className="text-sm break-words">
            <span className="text-muted-foreground">Reason: </span>
            {entry.reason}
          </p>
          {(entry.before !== null || entry.after !== null) && (
            <div className="grid min-w-0 gap-2 md:grid-cols-2">
              {entry.before !== null && <Collapsible summary="Before">{asJson(entry.before)}</Collapsible>}
              {entry.after !== null && <Collapsible summary="After">{asJson(entry.after)}</Collapsible>}
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

const LEDGER_KIND_LABELS: Record<string, string> = {
  topup: 'Top-up',
  purchase: 'Purchase',
  refund: 'Refund',
  renewal: 'Renewal',
  adjustment: 'Adjustment',
};

const LEDGER_BADGES: Record<string, BadgeVariant> = {
  topup: 'success',
  purchase: 'muted',
  renewal: 'muted',
  refund: 'info',
  adjustment: 'warning',
};

/** Ledger entries, each with what it refers to (an order, a payment) linked to its console page. */
export function LedgerTable({ entries, label = 'Ledger' }: { entries: AdminLedgerEntry[]; label?: string }) {
  return (
    <Table aria-label={label}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col" className="hidden sm:table-cell">
            Date
          </TableHead>
          <TableHead scope="col">Entry</TableHead>
          <TableHead scope="col" className="text-right">
            Amount
          </TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            Balance after
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {entries.map((entry) => (
          <TableRow key={entry.id}>
            <TableCell className="hidden align-top whitespace-nowrap sm:table-cell">
              <DateTime value={entry.created_at} />
            </TableCell>
            <TableCell className="align-top">
              <div className="flex min-w-0 flex-col items-start gap-1">
                {/* On a phone the date sits above the entry: four columns do not fit 360 px. */}
                <span className="text-xs text-muted-foreground sm:hidden">
                  <DateTime value={entry.created_at} />
                </span>
                <Badge variant={LEDGER_BADGES[entry.kind] ?? 'muted'}>
                  {LEDGER_KIND_LABELS[entry.kind] ?? entry.kind}
                </Badge>
                <span className="text-sm">
                  {entry.reference_type === 'admin' ? (
                    <span className="text-muted-foreground">By {entry.reference_id}</span>
                  ) : (
                    <ObjectLink type={entry.reference_type} id={entry.reference_id} />
                  )}
                </span>
                {entry.note && (
                  <span className="text-sm wrap-anywhere text-muted-foreground">{entry.note}</span>
                )}
              </div>
            </TableCell>
            <TableCell className="text-right align-top whitespace-nowrap">
              <SignedAmount dollars={entry.amount} />
              <span className="block text-xs text-muted-foreground tabular-nums sm:hidden">
                after {formatDollars(entry.balance_after)}
              </span>
            </TableCell>
            <TableCell className="hidden text-right align-top tabular-nums sm:table-cell">
              {formatDollars(entry.balance_after)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
