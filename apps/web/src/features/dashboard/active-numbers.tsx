import {
  isLiveNumber,
  NUMBERS_REFRESH_MS,
  numberMessages,
  type PurchasedNumber,
  serviceByCode,
} from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Clock } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CopyButton } from '@/components/copy-button';
import { CountryFlag } from '@/components/country-flag';
import { AnotherSms } from '@/components/orders/another-sms';
import { FinishNumber } from '@/components/orders/finish-number';
import { useNumberState } from '@/components/orders/use-number-state';
import { ServiceIcon } from '@/components/service-icon';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatMinutesSeconds, formatPhone } from '@/lib/format';
import { countryName } from '@/lib/names';
import { numbersQuery } from './api';

function ActiveNumberRow({ number, now }: { number: PurchasedNumber; now: number }) {
  const { t } = useTranslation('dashboard');
  const { statusText, code, secondsLeft } = useNumberState(number, now);
  const phone = number.number ? formatPhone(number.number) : null;
  return (
    <li
      className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-3"
      aria-label={t('active.row', {
        service: number.service_name,
        country: countryName(number.country, number.country_name),
      })}
    >
      <ServiceIcon name={number.service_name} icon={serviceByCode(number.service)?.icon} size="sm" />
      <div className="min-w-0 flex-1">
        <p className="flex min-w-0 items-center gap-1.5 text-sm">
          <span className="truncate font-medium">{number.service_name}</span>
          <CountryFlag country={number.country} />
          <span className="truncate text-muted-foreground">
            {countryName(number.country, number.country_name)}
          </span>
        </p>
        {phone ? (
          <CopyButton
            value={phone}
            what="Number"
            className="font-mono text-sm font-semibold whitespace-nowrap hover:text-primary"
          />
        ) : (
          <p className="text-sm text-muted-foreground">{numberMessages.statusNoNumber}</p>
        )}
      </div>
      <div className="flex flex-wrap items-center justify-end gap-3">
        <AnotherSms number={number} secondsLeft={secondsLeft} />
        <FinishNumber number={number} />
        {/* Stays while the status gives way to the code, so the code's arrival is announced politely. */}
        <span aria-live="polite">
          {code ? (
            <CopyButton
              value={code}
              what="Code"
              className="rounded-md bg-success-soft px-2.5 py-1 font-mono text-lg font-bold tracking-widest text-green-800 hover:text-green-950"
            >
              <span data-testid="active-number-code">{code}</span>
            </CopyButton>
          ) : (
            <span className="text-sm text-muted-foreground" data-testid="active-number-status">
              {statusText}
            </span>
          )}
        </span>
        <span
          role="timer"
          aria-label={t('active.timeLeft')}
          className="flex items-center gap-1 text-sm text-muted-foreground tabular-nums"
        >
          <Clock className="size-3.5" aria-hidden="true" />
          {secondsLeft > 0 ? formatMinutesSeconds(secondsLeft) : numberMessages.expired}
        </span>
      </div>
    </li>
  );
}

/**
 * The numbers still waiting for or showing their code, kept current by the live updates and polled while
 * any is live. A number whose 20 minutes are over without a code is left out: it is being refunded.
 */
export function useActiveNumbers(now: number): PurchasedNumber[] {
  const numbers = useQuery({
    ...numbersQuery,
    refetchInterval: (query) => (query.state.data?.numbers.some(isLiveNumber) ? NUMBERS_REFRESH_MS : false),
  });
  return (
    numbers.data?.numbers.filter(
      (number) =>
        isLiveNumber(number) && (number.code !== null || new Date(number.expires_at).getTime() > now),
    ) ?? []
  );
}

/**
 * The live numbers, right on the dashboard beside the Buy panel (a tab of their own on phones): a buyer
 * gets the code without leaving the page.
 */
export function ActiveNumbers({
  active,
  now,
  className,
}: {
  active: PurchasedNumber[];
  now: number;
  className?: string;
}) {
  const { t } = useTranslation('dashboard');
  if (active.length === 0) return null;
  return (
    <Card aria-label={t('active.title')} role="region" className={className}>
      <CardHeader className="flex-row items-center justify-between gap-3 pb-2">
        <CardTitle className="text-base">{t('active.title')}</CardTitle>
        <Link to="/dashboard/numbers" className="text-sm font-medium text-primary hover:underline">
          {t('active.myNumbers')}
        </Link>
      </CardHeader>
      <CardContent className="p-0">
        <ul className="divide-y border-t">
          {active.map((number) => (
            <ActiveNumberRow key={number.id} number={number} now={now} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
