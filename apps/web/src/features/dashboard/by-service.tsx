import { serviceByCode, serviceDisplayName, services } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Globe2, LayoutGrid } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { PickList } from '@/components/pick-list';
import { matchesSearch } from '@/components/search-input';
import { ServiceIcon } from '@/components/service-icon';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { StepCard } from '@/components/ui/card';
import { errorMessage } from '@/lib/api-client';
import { serviceCountriesQuery } from './api';
import { FavouriteStar, favouritesFirst, isFavouriteService, useFavourites } from './favourites';
import { ServiceCountries } from './service-countries';
import type { usePurchase } from './use-purchase';

/**
 * "By service": the service first (as buyers think of it), then every country selling it, to choose by
 * price, stock and how reliably codes arrive. The chosen service is the page's, so a starred service can
 * open here.
 */
export function ByService({
  serviceId,
  onServiceChange,
  purchase,
}: {
  serviceId: string | null;
  onServiceChange(service: string): void;
  purchase: ReturnType<typeof usePurchase>;
}) {
  const { t } = useTranslation('dashboard');
  const favourites = useFavourites().data;
  const items = favouritesFirst(
    services.map((service) => ({
      id: service.code,
      name: serviceDisplayName(service.code),
      leading: <ServiceIcon name={service.name} icon={service.icon} size="sm" />,
    })),
    (item) => isFavouriteService(favourites, item.id),
  );
  const known = serviceId ? serviceByCode(serviceId) : undefined;
  const service = known && { ...known, name: serviceDisplayName(known.code) };
  const offers = useQuery({ ...serviceCountriesQuery(serviceId ?? ''), enabled: Boolean(service) });
  const buyingCountry = purchase.buying?.service === serviceId ? purchase.buying.countryID : null;

  return (
    <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-[minmax(0,4fr)_minmax(0,8fr)]">
      <StepCard icon={LayoutGrid} title={t('byService.step1')}>
        <PickList
          name="service"
          legend={t('byService.legend')}
          searchLabel={t('services.search')}
          items={items}
          loading={false}
          selectedId={serviceId}
          matches={(item, query) => matchesSearch(item.name, query) || item.id === query.trim()}
          noMatch={(query) => t('services.noMatch', { query })}
          onSelect={onServiceChange}
        />
      </StepCard>
      <StepCard icon={Globe2} title={t('byService.step2')} contentClassName="flex flex-col gap-4">
        {!service ? (
          <Alert variant="info">
            <AlertDescription>{t('byService.selectService')}</AlertDescription>
          </Alert>
        ) : (
          <>
            <div className="flex items-center gap-2">
              <ServiceIcon name={service.name} icon={service.icon} size="sm" />
              <p className="min-w-0 flex-1 font-medium break-words">{service.name}</p>
              <FavouriteStar
                favouriteKey={{ service: service.code, countryID: null }}
                label={t('favourites.service', { service: service.name })}
              />
            </div>
            {offers.isError ? (
              <Alert variant="destructive">
                <AlertDescription>{errorMessage(offers.error)}</AlertDescription>
              </Alert>
            ) : (
              <ServiceCountries
                service={{ id: service.code, name: service.name }}
                countries={offers.data?.countries}
                loading={offers.isPending}
                buyingCountry={buyingCountry}
                onBuy={(offer) =>
                  void purchase.buy({
                    service: service.code,
                    serviceName: service.name,
                    countryID: offer.countryID,
                    countryName: offer.name,
                    // Every operator of the country: the price shown is the "any operator" one.
                    operator: 'any',
                    price: offer.price,
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
