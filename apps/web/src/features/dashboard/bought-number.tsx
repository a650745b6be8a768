import { numberMessages, type PurchasedNumber, serviceByCode } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Clock, X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '@/components/copy-button';
import { CountryFlag } from '@/components/country-flag';
import { NationalCopy } from '@/components/orders/national-copy';
import { useNumberState } from '@/components/orders/use-number-state';
import { ServiceIcon } from '@/components/service-icon';
import { Button } from '@/components/ui/button';
import { formatMinutesSeconds, formatPhone } from '@/lib/format';
import { countryName } from '@/lib/names';
import { useNow } from '@/lib/use-now';
import { numbersQuery } from './api';

/**
 * The number just bought, at the top of the Buy panel where the buyer pressed Buy: the number to type (with
 * copy buttons for the whole number and for the national part), its live status, then its code. It stays
 * until the buyer closes it; a new purchase takes its place. Scrolled into view when it appears, so a buyer
 * deep in a long service list sees it without looking for it.
 */
export function BoughtNumber({ bought, onDismiss }: { bought: PurchasedNumber; onDismiss(): void }) {
  const { t } = useTranslation('dashboard');
  const now = useNow();
  // The list is kept current by the live updates; until it has the new number, the purchase's answer shows.
  const numbers = useQuery(numbersQuery);
  const number = numbers.data?.numbers.find((one) => one.id === bought.id) ?? bought;
  const { statusText, code, secondsLeft } = useNumberState(number, now);
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    card.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, []);
  const country = countryName(number.country, number.country_name);
  return (
    <section
      ref={card}
      aria-label={t('bought.title')}
      data-testid="bought-number"
      className="relative scroll-mt-24 rounded-xl border-2 border-primary/40 bg-card p-4 shadow-sm sm:p-5"
    >
      <Button
        variant="ghost"
        size="icon"
        className="absolute top-2 right-2 size-8"
        onClick={onDismiss}
        aria-label={t('bought.dismiss')}
      >
        <X aria-hidden="true" />
      </Button>
      <p className="flex items-center gap-2 pr-8 text-sm font-medium text-muted-foreground">
        <CheckCircle2 className="size-4 text-success" aria-hidden="true" />
        {t('bought.title')}
      </p>
      <div className="mt-3 flex items-center gap-3">
        <ServiceIcon name={number.service_name} icon={serviceByCode(number.service)?.icon} size="sm" />
        <p className="min-w-0 text-sm">
          <span className="font-medium">{number.service_name}</span>{' '}
          <span className="inline-flex items-center gap-1 text-muted-foreground">
            <CountryFlag country={number.country} /> {country}
          </span>
        </p>
      </div>
      {number.number ? (
        <div className="mt-3 flex flex-wrap items-center gap-x-4 gap-y-2">
          <CopyButton
            value={number.number}
            what="Number"
            className="font-mono text-2xl font-bold tracking-tight whitespace-nowrap hover:text-primary"
            iconClassName="size-5"
          >
            <span data-testid="bought-number-phone">{formatPhone(number.number)}</span>
          </CopyButton>
          <NationalCopy number={number.number} />
        </div>
      ) : (
        <p className="mt-3 text-sm text-muted-foreground">{numberMessages.statusNoNumber}</p>
      )}
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        {/* Stays while the status gives way to the code, so the code's arrival is announced. */}
        <span aria-live="polite">
          {code ? (
            <CopyButton
              value={code}
              what="Code"
              className="rounded-md bg-success-soft px-3 py-1.5 font-mono text-2xl font-bold tracking-widest text-green-800 hover:text-green-950"
            >
              <span data-testid="bought-number-code">{code}</span>
            </CopyButton>
          ) : (
            <span className="text-sm text-muted-foreground" data-testid="bought-number-status">
              {statusText}
            </span>
          )}
        </span>
        <span className="flex items-center gap-3 text-sm">
          <span
            role="timer"
            aria-label={t('active.timeLeft')}
            className="flex items-center gap-1 tabular-nums"
          >
            <Clock className="size-3.5 text-muted-foreground" aria-hidden="true" />
            {secondsLeft > 0 ? formatMinutesSeconds(secondsLeft) : numberMessages.expired}
          </span>
          <Link to="/dashboard/numbers" className="font-medium text-primary hover:underline">
            {t('active.myNumbers')}
          </Link>
        </span>
      </div>
    </section>
  );
}
