import { RENEW_MAX_HOURS, RENEW_MIN_HOURS, type Rent } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { CalendarPlus } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatDollars, formatPhone } from '@/lib/format';
import { countryName } from '@/lib/names';
import { renewPriceQuery } from './api';
import { useDebouncedValue } from './hooks';
import { HoursField, wholeNumberWithin } from './hours-field';

const DEFAULT_RENEW_HOURS = 24;

/** The Renew dialog: a period in hours (required, at least 1), its price from the server, then confirm. */
export function RenewDialog({
  rent,
  busy,
  onClose,
  onConfirm,
}: {
  rent: Rent | null;
  busy: boolean;
  onClose(): void;
  onConfirm(rent: Rent, hours: number): void;
}) {
  return (
    <Dialog open={rent !== null} onOpenChange={(open) => !open && !busy && onClose()}>
      <DialogContent>
        {rent && <RenewForm key={rent.id} rent={rent} busy={busy} onCancel={onClose} onConfirm={onConfirm} />}
      </DialogContent>
    </Dialog>
  );
}

function RenewForm({
  rent,
  busy,
  onCancel,
  onConfirm,
}: {
  rent: Rent;
  busy: boolean;
  onCancel(): void;
  onConfirm(rent: Rent, hours: number): void;
}) {
  const { t } = useTranslation('rentals');
  const [hoursText, setHoursText] = useState(String(DEFAULT_RENEW_HOURS));
  const hours = wholeNumberWithin(hoursText, RENEW_MIN_HOURS, RENEW_MAX_HOURS);
  const pricedHours = useDebouncedValue(hours);
  const price = useQuery({
    ...renewPriceQuery(rent.order_id ?? '', pricedHours ?? 0),
    enabled: Boolean(rent.order_id && pricedHours),
  });
  // The price shown is always the one for the hours in the input, never a previous one.
  const quoted = hours !== null && hours === pricedHours ? price.data?.price : undefined;
  // The renewal extends the current end date (or starts now, for a rent already past it).
  const base = Math.max(rent.end_date ? new Date(rent.end_date).getTime() : 0, Date.now());
  const newEnd = hours === null ? null : new Date(base + hours * 3_600_000);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (hours !== null && quoted !== undefined) onConfirm(rent, hours);
  }

  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>{t('renew.title')}</DialogTitle>
        <DialogDescription>
          {t('renew.description', {
            service: rent.service.name,
            number: rent.number ? formatPhone(rent.number) : '',
            country: countryName(rent.country_id, rent.country),
          })}
        </DialogDescription>
      </DialogHeader>
      <HoursField
        value={hoursText}
        onChange={setHoursText}
        minHours={RENEW_MIN_HOURS}
        maxHours={RENEW_MAX_HOURS}
        rangeHint={t('renew.range', { min: RENEW_MIN_HOURS, max: RENEW_MAX_HOURS })}
        autoFocus
      />

      {price.isError && hours !== null ? (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(price.error)}</AlertDescription>
        </Alert>
      ) : (
        <dl className="grid grid-cols-2 gap-3 rounded-lg bg-muted px-4 py-3 text-sm">
          <div>
            <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
              {t('renew.price')}
            </dt>
            <dd className="text-xl font-bold tabular-nums" data-testid="renew-price">
              {hours === null ? (
                '—'
              ) : quoted !== undefined ? (
                formatDollars(quoted)
              ) : (
                <Skeleton className="mt-1 h-6 w-16" />
              )}
            </dd>
          </div>
          <div>
            <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
              {t('renew.newEnd')}
            </dt>
            <dd className="mt-1 font-medium tabular-nums">{newEnd ? formatDateTime(newEnd) : '—'}</dd>
          </div>
        </dl>
      )}

      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel} disabled={busy}>
          {t('renew.cancel')}
        </Button>
        <Button type="submit" disabled={quoted === undefined} busy={busy}>
          {!busy && <CalendarPlus aria-hidden="true" />}
          {quoted !== undefined ? t('renew.renewFor', { price: formatDollars(quoted) }) : t('renew.renew')}
        </Button>
      </DialogFooter>
    </form>
  );
}
