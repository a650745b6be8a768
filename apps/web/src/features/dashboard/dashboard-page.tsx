import { type DashboardCountry, numberMessages, type ServiceOffer } from '@simcode/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { RadioTower } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { CountryFlag } from '@/components/country-flag';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { StepCard } from '@/components/ui/card';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { formatDollars } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { numbersKeys } from '../numbers/api';
import { ActiveNumbers } from './active-numbers';
import { buyNumber, countriesQuery, dashboardKeys, servicesQuery, summaryQuery } from './api';
import { CountryStep } from './country-list';
import { LongTermPromo, LowBalanceBanner, SupportNotice } from './notices';
import { ServiceList } from './service-list';
import { StatCards } from './stat-cards';

export function DashboardPage() {
  const { t } = useTranslation('dashboard');
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const charge = useConfirmCharge();
  const summary = useQuery(summaryQuery);
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

  const purchase = useMutation({
    mutationFn: (service: ServiceOffer) =>
      buyNumber({ country: country!.name, countryID: country!.id, operator: operator!, service: service.id }),
    onSuccess: (_response, service) => {
      toast.success(numberMessages.purchased(service.name), {
        action: { label: t('buy.view'), onClick: () => navigate('/dashboard/numbers') },
      });
    },
    onError: (error) => toast.error(errorMessage(error, numberMessages.purchaseFailed)),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: dashboardKeys.summary });
      void queryClient.invalidateQueries({ queryKey: numbersKeys.list });
      if (country && operator)
        void queryClient.invalidateQueries({ queryKey: dashboardKeys.services(country.id, operator) });
    },
  });

  async function buy(service: ServiceOffer) {
    // The server checks again; this spares a request the answer is already known for.
    if (summary.data && summary.data.balance < service.price) {
      toast.error(numberMessages.insufficientBalance);
      return;
    }
    const confirmed = await charge.confirm({
      title: t('buy.title', { service: serviceInSentence(service.name) }),
      description: t('buy.description', {
        country: countryName(country!.id, country!.name),
        service: service.name,
      }),
      price: formatDollars(service.price),
      action: t('buy.action'),
    });
    if (confirmed) purchase.mutate(service);
  }

  const operators = country ? Object.entries(country.operators) : [];
  return (
    <PageContainer>
      <PageHeader title={t('page.title')} description={t('page.description')} />
      <div className="flex flex-col gap-4">
        <StatCards summary={summary.data} />
        {summary.data && <LowBalanceBanner balance={summary.data.balance} />}
        <SupportNotice />
        <ActiveNumbers />
        <LongTermPromo />
      </div>

      <div className="mt-6 grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
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
                    {operators.map(([key, name]) => (
                      <SelectItem key={key} value={key}>
                        {name}
                      </SelectItem>
                    ))}
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
                  services={services.data?.services}
                  loading={services.isPending}
                  buyingService={purchase.isPending ? (purchase.variables?.id ?? null) : null}
                  onBuy={(service) => void buy(service)}
                />
              )}
            </>
          )}
        </StepCard>
      </div>
      {charge.dialog}
    </PageContainer>
  );
}
