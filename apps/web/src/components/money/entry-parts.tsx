import type { LedgerEntryKind, LedgerEntryView } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { formatDateTime, formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';

const KIND_BADGES: Record<LedgerEntryKind, BadgeVariant> = {
  topup: 'success',
  purchase: 'muted',
  renewal: 'muted',
  refund: 'info',
  adjustment: 'warning',
};

export function KindBadge({ kind }: { kind: LedgerEntryKind }) {
  const { t } = useTranslation('money');
  return <Badge variant={KIND_BADGES[kind]}>{t(`kind.${kind}`)}</Badge>;
}

/** A signed amount: credits in green with a plus, debits as they are. */
export function SignedAmount({ dollars, className }: { dollars: number; className?: string }) {
  return (
    <span className={cn('font-semibold tabular-nums', dollars > 0 && 'text-green-800', className)}>
      {dollars > 0 ? `+${formatDollars(dollars)}` : formatDollars(dollars)}
    </span>
  );
}

export function EntryDate({ createdAt }: { createdAt: string }) {
  return <time dateTime={createdAt}>{formatDateTime(createdAt)}</time>;
}

/** Where an entry's order, rent or top-up is shown; the pages open the detail named in the query. */
function referencePath(reference: NonNullable<LedgerEntryView['reference']>): string {
  switch (reference.kind) {
    case 'number':
      return `/dashboard/numbers?order=${reference.id}`;
    case 'rent':
      return `/dashboard/longterm/numbers?rent=${reference.id}`;
    case 'topup':
      return '/dashboard/topup';
  }
}

export function ReferenceLink({ reference }: { reference: LedgerEntryView['reference'] }) {
  const { t } = useTranslation('money');
  if (!reference) return null;
  return (
    <Link
      to={referencePath(reference)}
      className="text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline"
    >
      {t(`reference.${reference.kind}`, { id: reference.id })}
    </Link>
  );
}

export function RefundReasonText({ entry }: { entry: LedgerEntryView }) {
  const { t } = useTranslation('money');
  if (!entry.refund_reason) return null;
  return <span className="text-sm text-muted-foreground">{t(`refundReason.${entry.refund_reason}`)}</span>;
}
