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
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { EmptyText } from '@/components/empty-text';
import { linkClass } from '@/components/link-class';
import { SignedAmount } from '@/components/money/entry-parts';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { currentLanguage, i18n, locale } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';

/** A fact of an object's page: label above, value below. */
export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide break-words text-muted-foreground uppercase">
        {label}
      </dt>
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

/** The next keyset page of a list. */
export function LoadMore({
  query,
}: {
  query: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage(): unknown };
}) {
  const { t } = useTranslation('admin');
  if (!query.hasNextPage) return null;
  return (
    <Button
      variant="outline"
      className="self-center"
      busy={query.isFetchingNextPage}
      onClick={() => void query.fetchNextPage()}
    >
      {t('loadMore')}
    </Button>
  );
}

/** A rate from 0 to 1 as a percentage: '97.5%', '97,5 %'. */
export const percent = (rate: number) =>
  new Intl.NumberFormat(locale(), {
    style: 'percent',
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  }).format(rate);

const oneDecimal = (value: number) =>
  new Intl.NumberFormat(locale(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);

/** A duration in milliseconds as people read it: '850 ms', '12.4 s', '3 min 5 s'. */
export function duration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1000) return i18n.t('admin:duration.ms', { value: Math.round(ms) });
  if (ms < 60_000) return i18n.t('admin:duration.seconds', { value: oneDecimal(ms / 1000) });
  const seconds = Math.round(ms / 1000);
  return i18n.t('admin:duration.minutes', { minutes: Math.floor(seconds / 60), seconds: seconds % 60 });
}

export function YesNo({ value, yes, no }: { value: boolean; yes?: string; no?: string }) {
  const { t } = useTranslation('admin');
  return <Badge variant={value ? 'success' : 'muted'}>{value ? (yes ?? t('yes')) : (no ?? t('no'))}</Badge>;
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

/**
 * A status the server sends as a code ('received', 'wrong_amount'), in words; a code the catalogue does not
 * know yet is shown as it came.
 */
export function statusLabel(kind: 'order' | 'rent' | 'payment', status: string): string {
  return i18n.t(`admin:status.${kind}.${status}`, { defaultValue: capitalise(status) });
}

const RENT_BADGES: Record<string, BadgeVariant> = {
  pending: 'info',
  active: 'success',
  renewed: 'success',
  canceled: 'muted',
  expired: 'muted',
  failed: 'destructive',
};

export function RentStatusBadge({ status }: { status: string }) {
  return <Badge variant={RENT_BADGES[status] ?? 'muted'}>{statusLabel('rent', status)}</Badge>;
}

/** An order's status; one support refunded reads as the customer's pages say it, not as a cancellation. */
export function OrderStatusBadge({ order }: { order: Pick<AdminOrderRow, 'status' | 'refund_reason'> }) {
  if (order.refund_reason === 'refunded_by_support')
    return <Badge variant="info">{i18n.t('money:refundReason.refunded_by_support')}</Badge>;
  return <Badge variant={ORDER_BADGES[order.status] ?? 'muted'}>{statusLabel('order', order.status)}</Badge>;
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
  return <Badge variant={PAYMENT_BADGES[status] ?? 'muted'}>{statusLabel('payment', status)}</Badge>;
}

export function serviceName(code: string): string {
  return serviceByCode(code)?.name ?? code;
}

/** A rent's service: a long-term option key ('opt29') or a one-time service code. */
export function rentName(service: string): string {
  return rentServiceByKey(service)?.name ?? serviceName(service);
}

/**
 * A country by its ISO code: in English the name the API gave (`given`) or the catalogue's, as the spec words
 * them; in another language that language's own name for it.
 */
export function countryName(id: string, given?: string): string {
  const english = given ?? countryById(id)?.name;
  if (currentLanguage() === 'en') return english ?? id;
  try {
    return new Intl.DisplayNames([locale()], { type: 'region' }).of(id) ?? english ?? id;
  } catch {
    // Not a well-formed region code.
    return english ?? id;
  }
}

/** Where the console shows an object the audit log or the ledger names; null when it has no page. */
function objectPath(type: string, id: string): string | null {
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
    case 'mismatch':
      return adminRoutes.reconciliation;
    default:
      return null;
  }
}

function ObjectLink({ type, id }: { type: string; id: string }) {
  const { t } = useTranslation('admin');
  const label = `${t(`object.${type}`, { defaultValue: capitalise(type) })} ${/^\d+$/.test(id) ? `#${id}` : id}`;
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

const asJson = (value: unknown) => JSON.stringify(value, null, 2);

/** The administrators' actions on an object (or everywhere): who, when, what, why, and what changed. */
export function AuditEntries({
  entries,
  showObject = true,
}: {
  entries: AuditEntry[];
  showObject?: boolean;
}) {
  const { t } = useTranslation('admin');
  return (
    <ul className="divide-y" aria-label={t('auditEntries.label')}>
      {entries.map((entry) => {
        // An action the catalogue does not know yet is shown by its code, as the audit search matches it.
        const action = t(`auditAction.${entry.action}`, { defaultValue: entry.action });
        return (
          <li key={entry.id} className="flex min-w-0 flex-col gap-2 py-3 first:pt-0 last:pb-0">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <Badge
                variant="secondary"
                className={cn(action === entry.action && 'font-mono')}
                title={action === entry.action ? undefined : entry.action}
              >
                {action}
              </Badge>
              {showObject && <ObjectLink type={entry.object_type} id={entry.object_id} />}
              <span className="text-muted-foreground">
                <Trans
                  t={t}
                  i18nKey="auditEntries.by"
                  values={{ admin: entry.admin }}
                  components={{ name: <span className="font-medium text-foreground" /> }}
                />
              </span>
              <span className="text-muted-foreground">
                <DateTime value={entry.at} />
              </span>
            </div>
            <p className="text-sm break-words">
              <span className="text-muted-foreground">{t('auditEntries.reason')}</span>
              {entry.reason}
            </p>
            {(entry.before !== null || entry.after !== null) && (
              <div className="grid min-w-0 gap-2 md:grid-cols-2">
                {entry.before !== null && (
                  <Collapsible summary={t('auditEntries.before')}>{asJson(entry.before)}</Collapsible>
                )}
                {entry.after !== null && (
                  <Collapsible summary={t('auditEntries.after')}>{asJson(entry.after)}</Collapsible>
                )}
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

const LEDGER_BADGES: Record<string, BadgeVariant> = {
  topup: 'success',
  purchase: 'muted',
  renewal: 'muted',
  refund: 'info',
  adjustment: 'warning',
};

/**
 * A ledger entry's note as operators read it: a refund stores why its order ended as a code, worded here in
 * the console's voice (the customer's pages word the same code for the buyer); an adjustment's reason and
 * older notes are shown as they were written.
 */
function ledgerNoteText(note: string): string {
  const key = `admin:ledgerNote.${note}`;
  return /^[a-z_]+$/.test(note) && i18n.exists(key) ? i18n.t(key as never) : note;
}

/** Ledger entries, each with what it refers to (an order, a payment) linked to its console page. */
export function LedgerTable({ entries, label }: { entries: AdminLedgerEntry[]; label?: string }) {
  const { t } = useTranslation('admin');
  return (
    <Table aria-label={label ?? t('ledger.label')}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col" className="hidden sm:table-cell">
            {t('ledger.date')}
          </TableHead>
          <TableHead scope="col">{t('ledger.entry')}</TableHead>
          <TableHead scope="col" className="text-right">
            {t('ledger.amount')}
          </TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            {t('ledger.balanceAfter')}
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
                  {t(`ledgerKind.${entry.kind}`, { defaultValue: entry.kind })}
                </Badge>
                <span className="text-sm">
                  {entry.reference_type === 'admin' ? (
                    <span className="text-muted-foreground">
                      {t('ledger.byAdmin', { admin: entry.reference_id })}
                    </span>
                  ) : (
                    <ObjectLink type={entry.reference_type} id={entry.reference_id} />
                  )}
                </span>
                {entry.note && (
                  <span className="text-sm wrap-anywhere text-muted-foreground">
                    {ledgerNoteText(entry.note)}
                  </span>
                )}
              </div>
            </TableCell>
            <TableCell className="text-right align-top whitespace-nowrap">
              <SignedAmount dollars={entry.amount} />
              <span className="block text-xs text-muted-foreground tabular-nums sm:hidden">
                {t('ledger.after', { amount: formatDollars(entry.balance_after) })}
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
