import {
  ACTIVATION_LIFETIME_MS,
  NUMBER_STATUS,
  NUMBERS_REFRESH_MS,
  numberMessages,
  type PurchasedNumber,
  serviceByCode,
} from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Ban, Clock, Copy, RefreshCw } from 'lucide-react';
import { CountryFlag } from '@/components/country-flag';
import { ServiceIcon } from '@/components/service-icon';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { copyToClipboard } from '@/lib/copy';
import { formatMinutesSeconds, formatPhone, formatUsd } from '@/lib/format';
import { cn } from '@/lib/utils';
import { numberStatusQuery } from './api';
import { finalStatusString, isLive, numberStatusText } from './status-text';

const BADGES: Record<PurchasedNumber['status'], { label: string; variant: BadgeVariant }> = {
  pending: { label: 'Issuing', variant: 'info' },
  waiting: { label: 'Waiting', variant: 'warning' },
  received: { label: 'Code received', variant: 'success' },
  completed: { label: 'Completed', variant: 'success' },
  canceled: { label: 'Canceled', variant: 'muted' },
  expired: { label: 'Refunded', variant: 'muted' },
};

export interface NumberActions {
  /** The number whose Cancel or Replace is running (buttons of that card are busy). */
  busy: { id: number; action: 'cancel' | 'replace' } | null;
  onCancel(number: PurchasedNumber): void;
  onReplace(number: PurchasedNumber): void;
}

/** One number: service, country, the number, the code big and copyable, status, time left, actions. */
export function NumberCard({
  number,
  now,
  actions,
}: {
  number: PurchasedNumber;
  now: number;
  actions: NumberActions;
}) {
  const live = isLive(number);
  const status = useQuery({
    ...numberStatusQuery(number.number_id ?? ''),
    enabled: live && number.number_id !== null,
    refetchInterval: live ? NUMBERS_REFRESH_MS : false,
  });
  const remoteStatus = live ? status.data?.status : finalStatusString(number);
  const statusText = numberStatusText({
    numberId: number.number_id,
    remoteStatus,
    failed: live && status.isError && !status.data,
  });
  const code = remoteStatus?.startsWith(NUMBER_STATUS.okPrefix)
    ? remoteStatus.slice(NUMBER_STATUS.okPrefix.length)
    : number.code;
  const secondsLeft = Math.max(
    0,
    Math.floor((new Date(number.created_at).getTime() + ACTIVATION_LIFETIME_MS - now) / 1000),
  );
  const remoteCanceled = remoteStatus === NUMBER_STATUS.canceled;
  const isBusy = actions.busy?.id === number.id;
  const cancelDisabled = isBusy || number.status === 'canceled' || remoteCanceled;
  const badge = BADGES[number.status];
  const serviceIcon = serviceByCode(number.service)?.icon;

  return (
    <Card
      className="flex flex-col gap-4 p-4 sm:p-5"
      aria-label={`${number.service_name} number in ${number.country_name}`}
    >
      <div className="flex flex-wrap items-start gap-3">
        <ServiceIcon name={number.service_name} icon={serviceIcon} />
        <div className="min-w-0 flex-1">
          <p className="font-semibold">{number.service_name}</p>
          <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
            <CountryFlag country={number.country} />
            {number.country_name}
            <span aria-hidden="true">·</span>
            {formatUsd(number.price)}
          </p>
        </div>
        {number.via_api && (
          <Badge variant="outline" title="Bought through the API">
            API
          </Badge>
        )}
        <Badge variant={badge.variant}>{badge.label}</Badge>
      </div>

      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="rounded-lg bg-muted px-3 py-2.5">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Number</p>
          {number.number ? (
            <button
              type="button"
              onClick={() => copyToClipboard(formatPhone(number.number!), 'Number')}
              className="group flex items-center gap-2 rounded font-mono text-lg font-semibold tracking-tight hover:text-primary"
              aria-label={`Copy number ${formatPhone(number.number)}`}
            >
              {formatPhone(number.number)}
              <Copy className="size-4 opacity-50 group-hover:opacity-100" aria-hidden="true" />
            </button>
          ) : (
            <p className="text-lg font-semibold text-muted-foreground">{numberMessages.statusNoNumber}</p>
          )}
        </div>
        <div className={cn('rounded-lg px-3 py-2.5', code ? 'bg-success-soft' : 'bg-muted')}>
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {code ? 'Code' : 'Status'}
          </p>
          {code ? (
            <button
              type="button"
              onClick={() => copyToClipboard(code, 'Code')}
              className="group flex items-center gap-2 rounded font-mono text-2xl font-bold tracking-widest text-green-800 hover:text-green-950"
              aria-label={`Copy code ${code}`}
            >
              <span data-testid="number-code">{code}</span>
              <Copy className="size-4 opacity-60 group-hover:opacity-100" aria-hidden="true" />
            </button>
          ) : (
            <p className="text-sm font-medium" data-testid="number-status" aria-live="polite">
              {statusText}
            </p>
          )}
        </div>
      </div>

      {number.sms.length > 1 && (
        <ul className="flex flex-col gap-1 text-sm text-muted-foreground" aria-label="Messages">
          {number.sms.map((sms) => (
            <li key={`${sms.received_at}-${sms.text}`} className="break-words">
              {sms.text}
            </li>
          ))}
        </ul>
      )}
      {number.status_reason && (number.status === 'canceled' || number.status === 'expired') && (
        <p className="text-sm text-muted-foreground">{number.status_reason}</p>
      )}

      <div className="flex flex-wrap items-center gap-2">
        <span
          role="timer"
          className="mr-auto flex items-center gap-1.5 text-sm text-muted-foreground tabular-nums"
          aria-label="Time left"
        >
          <Clock className="size-4" aria-hidden="true" />
          {secondsLeft > 0 ? formatMinutesSeconds(secondsLeft) : numberMessages.expired}
        </span>
        <Button
          variant="outline"
          size="sm"
          disabled={cancelDisabled}
          busy={isBusy && actions.busy?.action === 'cancel'}
          onClick={() => actions.onCancel(number)}
        >
          <Ban aria-hidden="true" />
          Cancel
        </Button>
        <Button
          variant="secondary"
          size="sm"
          disabled={isBusy}
          busy={isBusy && actions.busy?.action === 'replace'}
          onClick={() => actions.onReplace(number)}
        >
          <RefreshCw aria-hidden="true" />
          Replace
        </Button>
      </div>
    </Card>
  );
}
