import {
  type CancelBlock,
  cancelBlockText,
  numberMessages,
  type PurchasedNumber,
  serviceByCode,
} from '@simcode/contract';
import { Ban, Clock, ReceiptText, RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/copy-button';
import { CountryLine } from '@/components/country-flag';
import { AnotherSms } from '@/components/orders/another-sms';
import { FinishNumber } from '@/components/orders/finish-number';
import { NationalCopy } from '@/components/orders/national-copy';
import { useNumberState } from '@/components/orders/use-number-state';
import { ServiceIcon } from '@/components/service-icon';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { formatDateTime, formatDollars, formatMinutesSeconds, formatPhone } from '@/lib/format';
import { countryName } from '@/lib/names';
import { cn } from '@/lib/utils';
import { ReportProblem } from './report-problem';
import { SmsHistory } from './sms-history';

/** Each status's badge colour; its label is `numbers:badge.<status>`. */
const NUMBER_BADGE_VARIANTS: Record<PurchasedNumber['status'], BadgeVariant> = {
  pending: 'info',
  waiting: 'warning',
  received: 'success',
  completed: 'success',
  canceled: 'muted',
  expired: 'muted',
};

export interface NumberActions {
  /** The number whose Cancel or Replace is running (buttons of that card are busy). */
  busy: { id: number; action: 'cancel' | 'replace' } | null;
  onCancel(number: PurchasedNumber): void;
  onReplace(number: PurchasedNumber): void;
  /** Opens the number's money: price, transactions, why it was refunded. */
  onDetails(number: PurchasedNumber): void;
}

/** Why Cancel and Replace are off, as their title says it; within the supplier's window, when it opens. */
export function useCancelBlockText(cancelBlock: CancelBlock | null, cancelOpensIn: number) {
  const { t } = useTranslation('numbers');
  const cancelOpensText =
    cancelBlock === 'early_cancel'
      ? t('card.cancelOpensIn', { time: formatMinutesSeconds(cancelOpensIn) })
      : null;
  // Within the supplier's window the buttons say when it opens, the one thing the buyer can act on.
  return { cancelOpensText, blockedReason: cancelOpensText ?? (cancelBlock && cancelBlockText(cancelBlock)) };
}

/** Cancel and Replace of a live number: off while they cannot succeed, saying why in their title. */
export function CancelReplace({
  number,
  blockedReason,
  actions,
}: {
  number: PurchasedNumber;
  blockedReason: string | null;
  actions: NumberActions;
}) {
  const { t } = useTranslation('numbers');
  const isBusy = actions.busy?.id === number.id;
  return (
    <>
      <Button
        variant="outline"
        size="sm"
        disabled={isBusy || blockedReason !== null}
        title={blockedReason ?? undefined}
        busy={isBusy && actions.busy?.action === 'cancel'}
        onClick={() => actions.onCancel(number)}
      >
        <Ban aria-hidden="true" />
        {t('card.cancel')}
      </Button>
      {/* Replace cancels first: when Cancel cannot succeed, neither can Replace. */}
      <Button
        variant="secondary"
        size="sm"
        disabled={isBusy || blockedReason !== null}
        title={blockedReason ?? undefined}
        busy={isBusy && actions.busy?.action === 'replace'}
        onClick={() => actions.onReplace(number)}
      >
        <RefreshCw aria-hidden="true" />
        {t('card.replace')}
      </Button>
    </>
  );
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
  const { t } = useTranslation('numbers');
  const { live, statusText, code, secondsLeft, cancelBlock, cancelOpensIn } = useNumberState(number, now);
  const { cancelOpensText, blockedReason } = useCancelBlockText(cancelBlock, cancelOpensIn);
  const serviceIcon = serviceByCode(number.service)?.icon;

  return (
    <Card className="flex h-full flex-col gap-4 p-4 sm:p-5">
      <div className="flex flex-wrap items-start gap-3">
        <ServiceIcon name={number.service_name} icon={serviceIcon} />
        <div className="min-w-0 flex-1">
          <p className="font-semibold">{number.service_name}</p>
          <CountryLine
            country={number.country}
            name={countryName(number.country, number.country_name)}
            detail={formatDollars(number.price)}
          />
        </div>
        {number.via_api && (
          <Badge variant="outline" title={t('card.viaApi')}>
            API
          </Badge>
        )}
        <Badge variant={NUMBER_BADGE_VARIANTS[number.status]}>{t(`badge.${number.status}`)}</Badge>
      </div>

      <div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
        <div className="rounded-lg bg-muted px-3 py-2.5">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {t('card.number')}
          </p>
          {number.number ? (
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <CopyButton
                value={formatPhone(number.number)}
                what="Number"
                className="gap-2 font-mono text-lg font-semibold tracking-tight hover:text-primary"
                iconClassName="size-4"
              />
              {live && <NationalCopy number={number.number} />}
            </div>
          ) : (
            <p className="text-lg font-semibold text-muted-foreground">{numberMessages.statusNoNumber}</p>
          )}
        </div>
        {/* A polite live region that stays while its content changes from status to code, so both a new
            status and the arriving code are announced without moving focus. */}
        <div
          className={cn('rounded-lg px-3 py-2.5', code ? 'bg-success-soft' : 'bg-muted')}
          aria-live="polite"
        >
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {code ? t('card.code') : t('card.status')}
          </p>
          {code ? (
            <CopyButton
              value={code}
              what="Code"
              className="gap-2 font-mono text-2xl font-bold tracking-widest text-green-800 hover:text-green-950"
              iconClassName="size-4 opacity-60"
            >
              <span data-testid="number-code">{code}</span>
            </CopyButton>
          ) : (
            <p className="text-sm font-medium" data-testid="number-status">
              {statusText}
            </p>
          )}
        </div>
      </div>

      <SmsHistory sms={number.sms} />
      {number.status_reason && (number.status === 'canceled' || number.status === 'expired') && (
        <p className="text-sm text-muted-foreground">{number.status_reason}</p>
      )}

      <div className="flex flex-wrap items-center gap-2">
        <div className="mr-auto flex flex-col gap-0.5">
          {/* Only a number still waiting for its code has time left; the others show when they were bought. */}
          {live && (
            <span
              role="timer"
              className="flex items-center gap-1.5 text-sm text-muted-foreground tabular-nums"
              aria-label={t('card.timeLeft')}
            >
              <Clock className="size-4" aria-hidden="true" />
              {secondsLeft > 0 ? formatMinutesSeconds(secondsLeft) : numberMessages.expired}
            </span>
          )}
          <span className="text-xs text-muted-foreground" data-testid="number-bought-at">
            {t('card.bought', { date: formatDateTime(number.created_at) })}
          </span>
        </div>
        {/* An ended number can no longer be canceled or replaced: its card offers neither. */}
        {live && (
          <>
            {cancelOpensText && (
              <span className="text-sm text-muted-foreground tabular-nums" data-testid="cancel-opens-in">
                {cancelOpensText}
              </span>
            )}
            <CancelReplace number={number} blockedReason={blockedReason} actions={actions} />
          </>
        )}
        <AnotherSms number={number} secondsLeft={secondsLeft} />
        <FinishNumber number={number} />
        <ReportProblem number={number} cancelOpensIn={cancelOpensIn} />
        <Button
          variant="ghost"
          size="sm"
          onClick={() => actions.onDetails(number)}
          aria-label={t('card.detailsLabel', { id: number.id })}
        >
          <ReceiptText aria-hidden="true" />
          {t('card.details')}
        </Button>
      </div>
    </Card>
  );
}
