import { type DashboardCountry, numberMessages } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { RadioTower } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryFlag } from '@/components/country-flag';
import { CountryStep } from '@/components/country-list';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { StepCard } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { formatDollars, formatNumber } from '@/lib/format';
import { countryName } from '@/lib/names';
import { countriesQuery, servicesQuery } from './api';
import { ServiceList } from './service-list';
import type { usePurchase } from './use-purchase';

/** "By country" (the spec's way): a country, then its operator, then a service with its price and Buy. */
export function ByCountry({ purchase }: { purchase: ReturnType<typeof usePurchase> }) {
  const { t } = useTranslation('dashboard');
  const countries = useQuery(countriesQuery);
  const [country, setCountry] = useState<DashboardCountry | null>(null);
  const [operator, setOperator] = useState<string | null>(null);
  const services = useQuery({
    ...servicesQuery(country?.id ?? '', operator ?? ''),
    enabled: Boolean(country && operator),
  });

  // Selecting a country clears the operator and service; its first operator is picked for the user.
  function selectCountry(next: DashboardCountry) {
    setCountry(next);
    setOperator(Object.keys(next.operators)[0] ?? null);
  }

  const operators = country ? Object.entries(country.operators) : [];
  return (
    <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <CountryStep
        failure={
          countries.isError ? errorMessage(countries.error, numberMessages.fetchCountriesFailed) : null
        }
        countries={countries.data?.countries}
        loading={countries.isPending}
        selectedId={country?.id ?? null}
        onSelect={selectCountry}
      />

      <StepCard icon={RadioTower} title={t('services.step')} contentClassName="flex flex-col gap-4">
        {!country ? (
          <Alert variant="info">
            <AlertDescription>{t('services.selectCountry')}</AlertDescription>
          </Alert>
        ) : (
          <>
            <div className="flex flex-col gap-2">
              <Label htmlFor="operator" className="flex items-center gap-2">
                <CountryFlag country={country.id} />{' '}
                {t('services.operatorIn', { country: countryName(country.id, country.name) })}
              </Label>
              <Select value={operator ?? undefined} onValueChange={setOperator}>
                <SelectTrigger id="operator" aria-label={t('services.operator')}>
                  <SelectValue placeholder={t('services.selectOperator')} />
                </SelectTrigger>
                <SelectContent>
                  {operators.map(([key, name]) => {
                    const figures = country.operatorFigures?.[key];
                    return (
                      <SelectItem key={key} value={key}>
                        {/* Operators are brands, but for the one that means "whichever": it is a phrase. */}
                        {key === 'any' ? t('services.anyOperator') : name}
                        {figures && (
                          <span className="text-xs text-muted-foreground tabular-nums">
                            {' · '}
                            {figures.fromPrice === null
                              ? t('countries.outOfStock')
                              : `${t('countries.fromPrice', { price: formatDollars(figures.fromPrice) })} · ${t('countries.inStock', { count: formatNumber(figures.stock) })}`}
                          </span>
                        )}
                      </SelectItem>
                    );
                  })}
                </SelectContent>
              </Select>
            </div>
            {!operator ? (
              <Alert variant="info">
                <AlertDescription>{t('services.selectOperatorHint')}</AlertDescription>
              </Alert>
            ) : services.isError ? (
              <Alert variant="destructive">
                <AlertDescription>{errorMessage(services.error)}</AlertDescription>
              </Alert>
            ) : (
              <ServiceList
                country={country}
                services={services.data?.services}
                loading={services.isPending}
                buyingService={purchase.buying?.countryID === country.id ? purchase.buying.service : null}
                onBuy={(service) =>
                  void purchase.buy({
                    service: service.id,
                    serviceName: service.name,
                    countryID: country.id,
                    countryName: country.name,
                    operator,
                    price: service.price,
                  })
                }
              />
            )}
          </>
        )}
      </StepCard>
    </div>
  );
}
