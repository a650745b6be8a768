import { type DashboardCountry, type RentCountry, rentMessages } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock, ListChecks, ShoppingCart, Wallet } from 'lucide-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { CountryLine } from '@/components/country-flag';
import { CountryStep } from '@/components/country-list';
import { ServiceIcon } from '@/components/service-icon';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, StepCard } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { toastShortfall } from '@/lib/shortfall';
import { summaryQuery } from '@/lib/summary-query';
import { rentCountriesQuery, rentServicesQuery, useRentNumber } from './api';
import { useDebouncedValue } from './hooks';
import { displayPeriod } from './period-text';
import { type RentServiceEntry, RentServiceList } from './rent-service-list';

interface ChosenPeriod {
  /** What the rent-number call sends: '24 hours', '2 weeks' (English whatever the language; see displayPeriod). */
  text: string;
  hours: number;
}

/** The dashboard's country list shows rent countries as they are: no operators to choose. */
function asListCountry(country: RentCountry): DashboardCountry {
  return {
    id: country.code,
    name: country.name,
    code: country.code.toLowerCase(),
    dialCode: country.dialCode,
    operators: {},
  };
}

/**
 * What the long-term and renewable pages share: a country, the page's own period control, a service with
 * its price for that period, and the rent button. Prices come from the server for the chosen period; the
 * server prices the rent again itself.
 */
export function RentBuilder({
  period,
  periodTitle,
  periodControl,
  successMessage,
  autoRenew,
}: {
  /** Null while the period input is not a valid period. */
  period: ChosenPeriod | null;
  periodTitle: string;
  periodControl: ReactNode;
  successMessage: string;
  /** Renewable rents only. */
  autoRenew?: boolean;
}) {
  const { t } = useTranslation('rentals');
  const navigate = useNavigate();
  const charge = useConfirmCharge();
  const summary = useQuery(summaryQuery);
  const countries = useQuery(rentCountriesQuery);
  const [country, setCountry] = useState<RentCountry | null>(null);
  const [serviceKey, setServiceKey] = useState<string | null>(null);
  // Prices are asked for once the period has stopped changing.
  const pricedHours = useDebouncedValue(period?.hours ?? null);
  const services = useQuery({
    ...rentServicesQuery(country?.code ?? '', pricedHours ?? 0),
    enabled: Boolean(country && pricedHours),
  });
  const entries = useMemo<RentServiceEntry[] | undefined>(
    () =>
      services.data
        ? Object.entries(services.data.services).map(([key, offer]) => ({ key, ...offer }))
        : undefined,
    [services.data],
  );
  const listCountries = useMemo(() => countries.data?.countries.map(asListCountry), [countries.data]);
  const pricesAreCurrent = period !== null && pricedHours === period.hours && services.isSuccess;
  const selected = pricesAreCurrent ? (entries?.find((entry) => entry.key === serviceKey) ?? null) : null;

  const purchase = useRentNumber();

  function selectCountry(next: DashboardCountry) {
    setCountry(countries.data?.countries.find((entry) => entry.code === next.id) ?? null);
    setServiceKey(null);
  }

  async function rent() {
    if (!country || !selected || !period) return;
    // The server checks again; this spares a request the answer is already known for.
    if (summary.data && summary.data.balance < selected.price) {
      toastShortfall(
        rentMessages.insufficientBalance,
        { priceDollars: selected.price, balanceDollars: summary.data.balance },
        () => navigate('/dashboard/topup'),
      );
      return;
    }
    const periodLabel = displayPeriod(period.text);
    const confirmed = await charge.confirm({
      title: t('builder.confirmTitle', { service: serviceInSentence(selected.name), period: periodLabel }),
      description: t(autoRenew ? 'builder.confirmDescriptionAutoRenew' : 'builder.confirmDescription', {
        country: countryName(country.code, country.name),
        service: selected.name,
        period: periodLabel,
      }),
      price: formatDollars(selected.price),
      action: t('builder.confirmAction'),
    });
    if (!confirmed) return;
    purchase.mutate(
      {
        country: country.name,
        countryID: country.code,
        service: selected.key,
        period: period.text,
        periodID: period.hours,
        ...(autoRenew === undefined ? {} : { autoRenew }),
      },
      {
        onSuccess: () => {
          toast.success(successMessage, {
            action: { label: t('builder.view'), onClick: () => navigate('/dashboard/longterm/numbers') },
          });
        },
        onError: (error) => toast.error(errorMessage(error, rentMessages.rentFailed)),
      },
    );
  }

  const missing = [
    !country && t('builder.missing.country'),
    !period && t('builder.missing.period'),
    !serviceKey && t('builder.missing.service'),
  ].filter((item): item is string => Boolean(item));
  // 'a country, a valid period and a service': the language's own separators, no serial comma.
  const missingList =
    missing.length > 1
      ? `${missing.slice(0, -1).join(t('builder.listSeparator'))}${t('builder.listAnd')}${missing.at(-1)}`
      : missing[0];
  return (
    <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <CountryStep
        failure={countries.isError ? errorMessage(countries.error, rentMessages.fetchCountriesFailed) : null}
        countries={listCountries}
        loading={countries.isPending}
        selectedId={country?.code ?? null}
        onSelect={selectCountry}
      />

      <div className="flex flex-col gap-4">
        <StepCard icon={CalendarClock} title={`2. ${periodTitle}`}>
          {periodControl}
        </StepCard>

        <StepCard icon={ListChecks} title={t('builder.serviceStep')} contentClassName="flex flex-col gap-4">
          {!country ? (
            <Alert variant="info">
              <AlertDescription>{t('builder.selectCountry')}</AlertDescription>
            </Alert>
          ) : !period ? (
            <Alert variant="info">
              <AlertDescription>{t('builder.enterPeriod')}</AlertDescription>
            </Alert>
          ) : services.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(services.error)}</AlertDescription>
            </Alert>
          ) : (
            <RentServiceList
              services={entries}
              loading={services.isPending || !pricesAreCurrent}
              selectedKey={serviceKey}
              onSelect={(service) => setServiceKey(service.key)}
              periodLabel={displayPeriod(period.text)}
            />
          )}
        </StepCard>

        {/* On a phone the choice and its button stay in view while the lists scroll by. */}
        <Card
          className="sticky bottom-3 z-10 border-indigo-200 bg-gradient-to-br from-white to-indigo-50 shadow-lg lg:static lg:shadow-sm"
          role="region"
          aria-label={t('builder.yourRental')}
        >
          {/* Room on the right for the scroll-to-top button, which floats over this corner on a phone. */}
          <CardContent className="flex flex-col gap-4 pt-5 pr-16 sm:flex-row sm:items-center sm:justify-between sm:pr-20 lg:pr-5">
            <div className="flex min-w-0 items-center gap-3">
              {selected && country ? (
                <>
                  <ServiceIcon name={selected.name} icon={selected.img} />
                  <div className="min-w-0">
                    <p className="font-semibold break-words">{selected.name}</p>
                    <CountryLine
                      country={country.code}
                      name={countryName(country.code, country.name)}
                      detail={period && displayPeriod(period.text)}
                    />
                  </div>
                </>
              ) : (
                <p className="text-sm text-muted-foreground">
                  {missingList ? t('builder.choose', { items: missingList }) : t('builder.loadingPrice')}
                </p>
              )}
            </div>
            <div className="flex items-center justify-between gap-4 sm:justify-end">
              <div className="text-right">
                <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
                  {t('builder.price')}
                </p>
                <div className="text-xl font-bold tabular-nums" data-testid="rent-price">
                  {selected ? (
                    formatDollars(selected.price)
                  ) : period && serviceKey && country ? (
                    <Skeleton className="ml-auto h-7 w-16" />
                  ) : (
                    '—'
                  )}
                </div>
                {summary.data && (
                  <p className="flex items-center justify-end gap-1 text-xs text-muted-foreground tabular-nums">
                    <Wallet className="size-3" aria-hidden="true" />
                    {t('builder.balance', { amount: formatDollars(summary.data.balance) })}
                  </p>
                )}
              </div>
              <Button
                size="lg"
                onClick={() => void rent()}
                disabled={!selected || !country || !period}
                busy={purchase.isPending}
              >
                {!purchase.isPending && <ShoppingCart aria-hidden="true" />}
                {t('builder.rentNow')}
              </Button>
            </div>
          </CardContent>
        </Card>
      </div>
      {charge.dialog}
    </div>
  );
}
