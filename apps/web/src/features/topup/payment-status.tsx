import { formatCents } from '@simcode/contract';
import { CheckCircle2, Clock, ExternalLink, Loader2, RefreshCw, TriangleAlert, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { statusDetail } from './status-labels';
import type { PaymentFlow } from './use-payment-flow';

interface PaymentStatusProps {
  flow: PaymentFlow;
  checking: boolean;
  onCheck(): void;
  onReopen(): void;
  onDismiss(): void;
}

function Panel({
  tone,
  icon,
  title,
  children,
}: {
  tone: 'wait' | 'ok' | 'bad';
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  return (
    <Card
      role="status"
      aria-live="polite"
      className={cn(
        'flex animate-fade-in gap-4 p-5',
        tone === 'wait' && 'border-indigo-200 bg-secondary/60',
        tone === 'ok' && 'border-green-200 bg-success-soft/60',
        tone === 'bad' && 'border-yellow-300 bg-warning-soft/60',
      )}
    >
      <span className="mt-0.5 shrink-0 [&_svg]:size-6" aria-hidden="true">
        {icon}
      </span>
      <div className="flex min-w-0 flex-1 flex-col gap-3">
        <h2 className="font-semibold leading-tight">{title}</h2>
        {children}
      </div>
    </Card>
  );
}

/** What happens with the payment being followed, and what the user can do about it. */
export function PaymentStatus({ flow, checking, onCheck, onReopen, onDismiss }: PaymentStatusProps) {
  const { t } = useTranslation('topup');
  if (flow.stage === 'idle' || flow.stage === 'creating') return null;
  const amount = formatCents(flow.amountCents);
  const checkButton = (
    <Button variant="ghost" size="sm" busy={checking} onClick={onCheck}>
      {!checking && <RefreshCw aria-hidden="true" />}
      {t('payment.check')}
    </Button>
  );
  const dismissButton = (
    <Button variant="ghost" size="sm" onClick={onDismiss}>
      {t('payment.newTopup')}
    </Button>
  );

  switch (flow.stage) {
    case 'waiting':
      return (
        <Panel
          tone="wait"
          icon={<Loader2 className="animate-spin text-primary" />}
          title={t('payment.waitingTitle', { amount })}
        >
          <p className="text-sm text-muted-foreground">{t('payment.waiting')}</p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={onReopen}>
              <ExternalLink aria-hidden="true" />
              {t('payment.showWindow')}
            </Button>
          </div>
        </Panel>
      );
    case 'blocked':
      return (
        <Panel
          tone="wait"
          icon={<TriangleAlert className="text-yellow-700" />}
          title={t('payment.blockedTitle')}
        >
          <p className="text-sm text-muted-foreground">{t('payment.blocked', { amount })}</p>
          <div className="flex flex-wrap gap-2">
            <Button asChild size="sm">
              <a href={flow.url} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                {t('payment.openPage')}
              </a>
            </Button>
            {dismissButton}
          </div>
        </Panel>
      );
    case 'away':
      return (
        <Panel
          tone="wait"
          icon={<Clock className="text-primary" />}
          title={t('payment.waitingTitle', { amount })}
        >
          <p className="text-sm text-muted-foreground">{t('payment.away')}</p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={onReopen}>
              <ExternalLink aria-hidden="true" />
              {t('payment.openPage')}
            </Button>
            {checkButton}
            {dismissButton}
          </div>
        </Panel>
      );
    case 'completed':
      return (
        <Panel
          tone="ok"
          icon={<CheckCircle2 className="text-success" />}
          title={t('payment.completedTitle', { amount })}
        >
          <p className="text-sm text-muted-foreground">{t('payment.completed')}</p>
        </Panel>
      );
    case 'ended':
      return (
        <Panel tone="bad" icon={<XCircle className="text-yellow-700" />} title={t(`ended.${flow.status}`)}>
          <p className="text-sm text-muted-foreground">{statusDetail(flow.status)}</p>
          <div className="flex flex-wrap gap-2">
            {flow.status === 'UNDERPAID' && (
              <Button asChild variant="outline" size="sm">
                <Link to="/dashboard/tickets">{t('payment.contactSupport')}</Link>
              </Button>
            )}
            {dismissButton}
          </div>
        </Panel>
      );
  }
}
