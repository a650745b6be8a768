import { isTicketStatus, type TicketStatus, ticketStatuses } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { cn } from '@/lib/utils';

const variants: Record<TicketStatus, BadgeVariant> = {
  open: 'success',
  waiting_for_reply: 'warning',
  closed: 'muted',
};

const dots: Record<TicketStatus, string> = {
  open: 'bg-green-600',
  waiting_for_reply: 'bg-yellow-500',
  closed: 'bg-slate-400',
};

/** Open green, Waiting for Reply yellow, Closed grey; a status this page does not know looks open. */
export function TicketStatusBadge({ status, className }: { status: string; className?: string }) {
  const { t } = useTranslation('tickets');
  const known = isTicketStatus(status) ? status : 'open';
  return (
    <Badge variant={variants[known]} className={cn('shrink-0', className)} data-status={status}>
      <span className={cn('size-1.5 rounded-full', dots[known])} aria-hidden="true" />
      {/* An unknown status is shown as the server sent it. */}
      {isTicketStatus(status) ? t(`status.${status}`) : status}
    </Badge>
  );
}

export function TicketStatusLegend() {
  const { t } = useTranslation('tickets');
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground sm:flex-nowrap">
      <span id="ticket-status-legend">{t('status.legend')}</span>
      <ul aria-labelledby="ticket-status-legend" className="flex flex-wrap gap-2 sm:flex-nowrap">
        {ticketStatuses.map((status) => (
          <li key={status}>
            <TicketStatusBadge status={status} />
          </li>
        ))}
      </ul>
    </div>
  );
}
