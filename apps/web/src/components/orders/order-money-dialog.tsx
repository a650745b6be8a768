import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { EntryDate, KindBadge, SignedAmount } from '@/components/money/entry-parts';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { SkeletonRows } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { orderMoneyQuery } from './api';

interface OrderDetailTarget {
  kind: 'number' | 'rent';
  id: number;
  /** What the dialog is about, e.g. 'Telegram number in United Kingdom', in the current language. */
  title: string;
}

/** The money side of one order or rent: what it cost, every ledger entry about it, and why money came back. */
export function OrderMoneyDialog({ target, onClose }: { target: OrderDetailTarget | null; onClose(): void }) {
  const { t } = useTranslation('money');
  const money = useQuery({
    ...orderMoneyQuery(target?.kind ?? 'number', target?.id ?? 0),
    enabled: !!target,
  });
  const data = money.data;
  return (
    <Dialog open={!!target} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>
            {target && t(target.kind === 'rent' ? 'order.rent' : 'order.number', { id: target.id })}
          </DialogTitle>
          <DialogDescription>{target?.title}</DialogDescription>
        </DialogHeader>
        {money.isPending && <SkeletonRows count={3} rowClassName="h-10 rounded-lg" />}
        {money.isError && (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(money.error)}</AlertDescription>
          </Alert>
        )}
        {data && (
          <>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-muted-foreground">{t('order.price')}</dt>
                <dd className="font-semibold tabular-nums">{formatDollars(data.price)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">{t('order.refund')}</dt>
                <dd className="font-semibold">
                  {data.refund_reason ? t(`refundReason.${data.refund_reason}`) : t('order.none')}
                </dd>
              </div>
            </dl>
            <ul className="divide-y rounded-lg border" aria-label={t('order.transactions')}>
              {data.entries.map((entry) => (
                <li key={entry.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2.5">
                  <KindBadge kind={entry.kind} />
                  <span className="font-mono text-xs">{entry.transaction_id}</span>
                  <span className="text-xs text-muted-foreground">
                    <EntryDate createdAt={entry.created_at} />
                  </span>
                  <SignedAmount dollars={entry.amount} className="ml-auto" />
                </li>
              ))}
            </ul>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
