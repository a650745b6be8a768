import { type Topup, topupMessages } from '@simcode/contract';
import { ExternalLink, History, RefreshCw, Wallet } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';
import { pendingDetail, STATUS_LABELS, statusDetail, statusLabel } from './status-labels';

const SKELETON_ROWS = ['first', 'second', 'third'];

interface RecentTopupsProps {
  payments: Topup[] | undefined;
  loading: boolean;
  error: unknown;
  refreshing: boolean;
  onRefresh(): void;
  /** Opens a pending top-up's payment page again; absent while another payment is being followed. */
  onPay?: (payment: Topup) => void;
}

function TopupRow({ payment, onPay }: { payment: Topup; onPay?: (payment: Topup) => void }) {
  const { t } = useTranslation('topup');
  const look = STATUS_LABELS[payment.status];
  const label = statusLabel(payment.status);
  const detail =
    payment.status === 'PENDING' ? pendingDetail(payment.provider_status) : statusDetail(payment.status);
  const paidMore = payment.credited_amount !== null && payment.credited_amount !== payment.amount;
  return (
    <li
      className="flex flex-wrap items-center gap-x-4 gap-y-2 py-3.5 first:pt-0 last:pb-0"
      aria-label={t('recent.row', { amount: formatDollars(payment.amount), status: label })}
    >
      <span
        className={cn('flex size-10 shrink-0 items-center justify-center rounded-full', look.iconTone)}
        aria-hidden="true"
      >
        <look.icon className="size-5" />
      </span>
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 font-semibold tabular-nums">
          {formatDollars(payment.amount)}
          {paidMore && (
            <span className="text-sm font-medium text-green-800">
              {t('recent.credited', { amount: formatDollars(payment.credited_amount!) })}
            </span>
          )}
        </p>
        <p className="text-xs text-muted-foreground">
          <time dateTime={payment.created_at}>{formatDateTime(payment.created_at)}</time>
        </p>
        <p className="mt-0.5 text-sm text-muted-foreground">{detail}</p>
      </div>
      <div className="flex items-center gap-2 max-sm:w-full max-sm:justify-between max-sm:pl-14">
        <Badge variant={look.badge}>{label}</Badge>
        {payment.url && onPay && (
          <Button variant="outline" size="sm" onClick={() => onPay(payment)}>
            <ExternalLink aria-hidden="true" />
            {t('recent.pay')}
          </Button>
        )}
      </div>
    </li>
  );
}

/** The user's latest top-ups with their statuses: proof that a payment is pending or credited. */
export function RecentTopups({ payments, loading, error, refreshing, onRefresh, onPay }: RecentTopupsProps) {
  const { t } = useTranslation('topup');
  return (
    <Card>
      <CardHeader className="flex-row items-start justify-between gap-4 space-y-0">
        <div className="flex flex-col gap-1.5">
          <CardTitle className="flex items-center gap-2">
            <History className="size-5 text-primary" aria-hidden="true" />
            {t('recent.title')}
          </CardTitle>
          <CardDescription>{t('recent.description')}</CardDescription>
        </div>
        <Button
          variant="ghost"
          size="icon-sm"
          onClick={onRefresh}
          busy={refreshing}
          aria-label={t('recent.refresh')}
          className="shrink-0"
        >
          {!refreshing && <RefreshCw aria-hidden="true" />}
        </Button>
      </CardHeader>
      <CardContent>
        {loading && (
          <div className="flex flex-col gap-3" role="status" aria-label={t('recent.loading')}>
            {SKELETON_ROWS.map((row) => (
              <Skeleton key={row} className="h-14 rounded-lg" />
            ))}
          </div>
        )}
        {!loading && error !== null && !payments && (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(error, topupMessages.fetchPaymentsFailed)}</AlertDescription>
          </Alert>
        )}
        {payments && payments.length === 0 && (
          <div className="flex flex-col items-center rounded-lg border border-dashed px-6 py-10 text-center">
            <Wallet className="size-8 text-indigo-300" aria-hidden="true" />
            <p className="mt-3 font-medium">{t('recent.emptyTitle')}</p>
            <p className="mt-1 max-w-xs text-sm text-muted-foreground">{t('recent.empty')}</p>
          </div>
        )}
        {payments && payments.length > 0 && (
          <ul className="divide-y" aria-label={t('recent.title')}>
            {payments.map((payment) => (
              <TopupRow key={payment.order_id} payment={payment} onPay={onPay} />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
