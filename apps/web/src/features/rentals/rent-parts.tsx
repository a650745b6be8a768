import {
  RENT_CANCEL_WINDOW_MS,
  RENTS_REFRESH_MS,
  type Rent,
  rentMessages,
  rentServiceByKey,
} from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Ban, CalendarPlus, Clock, Copy, Loader2, ReceiptText, RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '@/components/copy-button';
import { CountryFlag } from '@/components/country-flag';
import { ServiceIcon } from '@/components/service-icon';
import { Badge, type BadgeVariant } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { copyToClipboard } from '@/lib/copy';
import { formatDateTime, formatDayTime, formatDollars, formatPhone } from '@/lib/format';
import { countryName } from '@/lib/names';
import { useNow } from '@/lib/use-now';
import { cn } from '@/lib/utils';
import { rentStatusQuery } from './api';
import { AutoRenewSwitch } from './auto-renew-switch';
import { displayPeriod, formatTimeLeft } from './period-text';
import { rentSmsView, secondsLeft, splitAroundCode } from './sms-text';

type RentAction = 'cancel' | 'replace' | 'renew' | 'auto-renew';

export interface RentActions {
  /** The rent (by order id) whose action is running: its buttons are busy. */
  busy: { orderId: string; action: RentAction } | null;
  onCancel(rent: Rent): void;
  onReplace(rent: Rent): void;
  onRenew(rent: Rent): void;
  onAutoRenew(rent: Rent, enabled: boolean): void;
  /** Opens the rent's money: price with renewals, transactions, why it was refunded. */
  onDetails(rent: Rent): void;
}

/** Each status's badge colour; its label is `rentals:badge.<status>`. */
const BADGE_VARIANTS: Record<Rent['status'], BadgeVariant> = {
  pending: 'info',
  active: 'success',
  renewed: 'success',
  canceled: 'muted',
  expired: 'muted',
};

const isLiveRent = (rent: Pick<Rent, 'status'>) =>
  rent.status === 'active' || rent.status === 'renewed' || rent.status === 'pending';

type RentForRules = Pick<Rent, 'status' | 'order_id' | 'created_at' | 'end_date' | 'sms_received'>;

/**
 * Why Cancel (and Replace, which cancels first) cannot succeed on this rent, in the server's words, or
 * null when it may: past the cancel window, or once an SMS has arrived.
 */
function rentCancelBlockedReason(rent: RentForRules, now: number): string | null {
  if (rent.status === 'pending' || rent.order_id === null) return rentMessages.stillIssuing;
  if (!isLiveRent(rent)) return rentMessages.alreadyEnded;
  if (rent.sms_received || now - new Date(rent.created_at).getTime() > RENT_CANCEL_WINDOW_MS)
    return rentMessages.cannotCancel;
  return null;
}

/** Why Renew cannot succeed on this rent, or null when it may. */
function rentRenewBlockedReason(rent: RentForRules, now: number): string | null {
  if (rent.status === 'pending' || rent.order_id === null) return rentMessages.stillIssuing;
  if (!isLiveRent(rent) || (rent.end_date !== null && new Date(rent.end_date).getTime() <= now))
    return rentMessages.cannotRenew;
  return null;
}

export function RentIdentity({ rent }: { rent: Rent }) {
  return (
    <div className="flex min-w-0 items-center gap-3">
      <ServiceIcon name={rent.service.name} icon={rentServiceByKey(rent.service.key)?.icon} />
      <div className="min-w-0">
        <p className="font-semibold break-words">{rent.service.name}</p>
        <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
          <CountryFlag country={rent.country_id} />
          <span className="break-words">{countryName(rent.country_id, rent.country)}</span>
        </p>
      </div>
    </div>
  );
}

export function RentNumber({ rent }: { rent: Rent }) {
  const { t } = useTranslation('rentals');
  if (!rent.number) return <span className="text-sm text-muted-foreground">{t('rent.issuing')}</span>;
  const phone = formatPhone(rent.number);
  return (
    <CopyButton
      value={phone}
      what="Number"
      className="font-mono text-base font-semibold tracking-tight whitespace-nowrap hover:text-primary"
    />
  );
}

export function RentStatusBadges({ rent }: { rent: Rent }) {
  const { t } = useTranslation('rentals');
  const period = displayPeriod(rent.period);
  return (
    <div className="flex flex-wrap items-center gap-1.5">
      {/* A renewed rent is still active: it says so, and that it was renewed beside it. */}
      <Badge variant={BADGE_VARIANTS[rent.status]} data-testid="rent-status">
        {t(`badge.${rent.status === 'renewed' ? 'active' : rent.status}`)}
      </Badge>
      {rent.status === 'renewed' && (
        <Badge variant="outline" className="text-muted-foreground">
          {t('badge.renewed')}
        </Badge>
      )}
      <Badge variant="outline" className="text-muted-foreground">
        {rent.renewable ? t('rent.renewablePeriod', { period }) : period}
      </Badge>
      {rent.renewal_pending && (
        <Badge variant="warning">
          <Loader2 className="size-3 animate-spin" aria-hidden="true" />
          {t('rent.renewalConfirming')}
        </Badge>
      )}
    </div>
  );
}

/** The received-SMS column (spec section 4), read from the rent-status call and refreshed every 30 s. */
export function RentSms({ rent }: { rent: Rent }) {
  const { t } = useTranslation('rentals');
  const live = isLiveRent(rent);
  const status = useQuery({
    ...rentStatusQuery(rent.order_id ?? ''),
    enabled: rent.order_id !== null,
    refetchInterval: live ? RENTS_REFRESH_MS : false,
  });
  if (!rent.order_id)
    return <p className="text-sm text-muted-foreground">{rent.status_reason ?? t('rent.beingIssued')}</p>;
  const view = rentSmsView({
    response: status.data,
    rentStatus: rent.status,
    failed: status.isError && !status.data,
  });
  if (view.kind === 'text') {
    return (
      <p
        data-testid="rent-sms"
        aria-live="polite"
        className={cn(
          'flex items-center gap-1.5 text-sm',
          view.tone === 'error' && 'text-destructive',
          view.tone === 'muted' && 'text-muted-foreground',
          view.tone === 'active' && 'font-medium text-green-800',
          view.tone === 'waiting' && 'text-muted-foreground',
        )}
      >
        {view.tone === 'waiting' && live && <Loader2 className="size-3.5 animate-spin" aria-hidden="true" />}
        {view.text}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1.5">
      {view.messages.length > 1 && (
        <p className="text-xs text-muted-foreground">{t('rent.messages', { count: view.messages.length })}</p>
      )}
      <ul
        data-testid="rent-sms"
        aria-label={t('list.receivedSms')}
        aria-live="polite"
        className="flex max-h-52 flex-col gap-1.5 overflow-y-auto pr-1"
      >
        {view.messages.map((sms, index) => {
          const [before, code, after] = splitAroundCode(sms.text, sms.code);
          return (
            <li
              key={`${sms.date}-${sms.phoneFrom}-${sms.text}`}
              className={cn(
                'rounded-md px-2.5 py-1.5 text-sm break-words',
                index === 0 ? 'bg-success-soft/70' : 'bg-muted',
              )}
            >
              <span className="font-semibold">{sms.phoneFrom}: </span>
              {before}
              {code && (
                <button
                  type="button"
                  onClick={() => copyToClipboard(code, t('rent.code'))}
                  className="mx-0.5 inline-flex items-center gap-1 rounded bg-white px-1.5 font-mono font-bold tracking-wider text-green-800 ring-1 ring-green-200 hover:text-green-950"
                  aria-label={t('rent.copyCode', { code })}
                >
                  <mark className="bg-transparent text-inherit" data-testid="rent-code">
                    {code}
                  </mark>
                  <Copy className="size-3 opacity-60" aria-hidden="true" />
                </button>
              )}
              {after}
              <span className="ml-1.5 text-xs whitespace-nowrap text-muted-foreground">
                {formatDayTime(sms.date)}
              </span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** Time left to the end date, ticking each second; 'Expired' at zero. Only this cell re-renders each second. */
export function RentTimeLeft({ rent }: { rent: Rent }) {
  const { t } = useTranslation('rentals');
  const now = useNow();
  // A cancelled rent has no time left to show, and a rent being issued has no end date yet.
  if (rent.status === 'canceled' || rent.status === 'pending')
    return <span className="text-sm text-muted-foreground">—</span>;
  const seconds = rent.status === 'expired' ? 0 : secondsLeft(rent.end_date, now);
  return (
    <div className="flex flex-col gap-0.5">
      <span
        className={cn(
          'flex items-center gap-1.5 font-mono text-sm font-semibold tabular-nums',
          seconds === 0 ? 'text-muted-foreground' : 'text-foreground',
        )}
        data-testid="rent-time-left"
      >
        <Clock className="size-3.5 text-muted-foreground" aria-hidden="true" />
        {seconds > 0 ? formatTimeLeft(seconds) : rentMessages.expired}
      </span>
      {rent.end_date && (
        <span className="text-xs text-muted-foreground" data-testid="rent-end-date">
          {t(seconds > 0 ? 'rent.ends' : 'rent.ended', { date: formatDateTime(rent.end_date) })}
        </span>
      )}
    </div>
  );
}

export function RentAutoRenew({ rent, actions }: { rent: Rent; actions: RentActions }) {
  if (!rent.renewable) return null;
  const busy = actions.busy?.orderId === rent.order_id;
  return (
    <div className="flex flex-col gap-1">
      <AutoRenewSwitch
        id={`auto-renew-${rent.id}`}
        checked={rent.auto_renew}
        disabled={busy || !isLiveRent(rent) || rent.status === 'pending'}
        onCheckedChange={(enabled) => actions.onAutoRenew(rent, enabled)}
      />
      {rent.auto_renew_error && (
        <p className="flex max-w-xs gap-1.5 text-xs text-yellow-800" role="note">
          <TriangleAlert className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
          {rent.auto_renew_error}
        </p>
      )}
    </div>
  );
}

export function RentActionButtons({
  rent,
  actions,
  className,
}: {
  rent: Rent;
  actions: RentActions;
  className?: string;
}) {
  const { t } = useTranslation('rentals');
  const busy = actions.busy?.orderId === rent.order_id ? actions.busy.action : null;
  // Minute precision is enough for the 20-minute cancel window; the list refreshes every 30 s anyway.
  const now = useNow(60_000);
  const cancelBlocked = rentCancelBlockedReason(rent, now);
  const renewBlocked = rentRenewBlockedReason(rent, now);
  return (
    <div className={cn('flex flex-wrap gap-2', className)}>
      <Button
        variant="outline"
        size="sm"
        disabled={busy !== null || cancelBlocked !== null}
        title={cancelBlocked ?? undefined}
        busy={busy === 'cancel'}
        onClick={() => actions.onCancel(rent)}
      >
        {busy !== 'cancel' && <Ban aria-hidden="true" />}
        {t('rent.cancel')}
      </Button>
      {/* Replace cancels first: when Cancel cannot succeed, neither can Replace. */}
      <Button
        variant="secondary"
        size="sm"
        disabled={busy !== null || cancelBlocked !== null}
        title={cancelBlocked ?? undefined}
        busy={busy === 'replace'}
        onClick={() => actions.onReplace(rent)}
      >
        {busy !== 'replace' && <RefreshCw aria-hidden="true" />}
        {t('rent.replace')}
      </Button>
      <Button
        size="sm"
        disabled={busy !== null || renewBlocked !== null}
        title={renewBlocked ?? undefined}
        busy={busy === 'renew'}
        onClick={() => actions.onRenew(rent)}
      >
        {busy !== 'renew' && <CalendarPlus aria-hidden="true" />}
        {t('rent.renew')}
      </Button>
      <Button
        variant="ghost"
        size="sm"
        onClick={() => actions.onDetails(rent)}
        aria-label={t('rent.detailsLabel', { id: rent.id })}
      >
        <ReceiptText aria-hidden="true" />
        {t('rent.details')}
      </Button>
    </div>
  );
}

export function RentPrice({ rent }: { rent: Rent }) {
  return <span className="tabular-nums">{formatDollars(rent.price)}</span>;
}
