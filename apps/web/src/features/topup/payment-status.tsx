import { formatCents } from '@simcode/contract';
import { CheckCircle2, Clock, ExternalLink, Loader2, RefreshCw, TriangleAlert, XCircle } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { STATUS_LABELS } from './status-labels';
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
  if (flow.stage === 'idle' || flow.stage === 'creating') return null;
  const amount = formatCents(flow.amountCents);
  const checkButton = (
    <Button variant="ghost" size="sm" busy={checking} onClick={onCheck}>
      {!checking && <RefreshCw aria-hidden="true" />}
      Check status
    </Button>
  );
  const dismissButton = (
    <Button variant="ghost" size="sm" onClick={onDismiss}>
      New top-up
    </Button>
  );

  switch (flow.stage) {
    case 'waiting':
      return (
        <Panel
          tone="wait"
          icon={<Loader2 className="animate-spin text-primary" />}
          title={`Waiting for your payment of ${amount}`}
        >
          <p className="text-sm text-muted-foreground">
            Complete the payment in the window that opened. This page updates by itself as soon as the money
            arrives.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" size="sm" onClick={onReopen}>
              <ExternalLink aria-hidden="true" />
              Show the payment window
            </Button>
          </div>
        </Panel>
      );
    case 'blocked':
      return (
        <Panel
          tone="wait"
          icon={<TriangleAlert className="text-yellow-700" />}
          title="Your browser blocked the payment window"
        >
          <p className="text-sm text-muted-foreground">
            Open the payment page with the link below to pay {amount}. This page keeps checking and updates
            when the money arrives.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild size="sm">
              <a href={flow.url} target="_blank" rel="noopener noreferrer">
                <ExternalLink aria-hidden="true" />
                Open the payment page
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
          title={`Waiting for your payment of ${amount}`}
        >
          <p className="text-sm text-muted-foreground">
            This page keeps checking and updates by itself as soon as the money arrives. Not paid yet? Open
            the payment page again.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" onClick={onReopen}>
              <ExternalLink aria-hidden="true" />
              Open the payment page
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
          title={`${amount} added to your balance`}
        >
          <p className="text-sm text-muted-foreground">Taking you to the dashboard…</p>
        </Panel>
      );
    case 'ended':
      return (
        <Panel
          tone="bad"
          icon={<XCircle className="text-yellow-700" />}
          title={`Top-up ${STATUS_LABELS[flow.status].label.toLowerCase()}`}
        >
          <p className="text-sm text-muted-foreground">{STATUS_LABELS[flow.status].detail}</p>
          <div className="flex flex-wrap gap-2">
            {flow.status === 'UNDERPAID' && (
              <Button asChild variant="outline" size="sm">
                <Link to="/dashboard/tickets">Contact support</Link>
              </Button>
            )}
            {dismissButton}
          </div>
        </Panel>
      );
  }
}
