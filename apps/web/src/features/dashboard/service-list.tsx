import { DASHBOARD_LIST_PANE_PX, type ServiceOffer, serviceByCode } from '@simcode/contract';
import { ShoppingCart } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchesSearch, SearchInput } from '@/components/search-input';
import { ServiceIcon } from '@/components/service-icon';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { formatDollars, formatNumber } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { useRovingFocus } from '@/lib/use-roving-focus';
import { DeliveryNote } from './delivery-note';
import { FavouriteStar, favouritesFirst, isFavouriteService, useFavourites } from './favourites';

/**
 * The searchable list of a country's services with price, delivery figures, stock, a star and a Buy button
 * (a pane growing with its rows up to 500 px). The user's favourites come first.
 */
export function ServiceList({
  country,
  services,
  loading,
  buyingService,
  onBuy,
}: {
  /** The chosen country: a star here stars the service in it. */
  country: { id: string; name: string };
  services: ServiceOffer[] | undefined;
  loading: boolean;
  /** The service being bought now: its button is busy and the others wait. */
  buyingService: string | null;
  onBuy(service: ServiceOffer): void;
}) {
  const { t } = useTranslation('dashboard');
  const [query, setQuery] = useState('');
  const favourites = useFavourites().data;
  const visible = useMemo(
    () =>
      favouritesFirst(
        (services ?? []).filter(
          (service) => matchesSearch(service.name, query) || service.id === query.trim(),
        ),
        (service) => isFavouriteService(favourites, service.id),
      ),
    [services, query, favourites],
  );
  const isDisabled = (service: ServiceOffer) =>
    service.stock <= 0 || (buyingService !== null && buyingService !== service.id);
  // Dozens of stars and Buy buttons: one Tab stop and the arrow keys, so the page below the list stays a
  // Tab away.
  // The Buy buttons first: Tab lands on the first Buy; the arrows go up and down a column, left to a star.
  const roving = useRovingFocus([
    ...visible.filter((service) => !isDisabled(service)).map((service) => service.id),
    ...visible.map((service) => `star:${service.id}`),
  ]);
  const where = countryName(country.id, country.name);
  return (
    <div className="flex flex-col gap-3">
      <SearchInput label={t('services.search')} value={query} onChange={setQuery} />
      <div
        className="relative overflow-y-auto rounded-lg border bg-white"
        style={{ maxHeight: DASHBOARD_LIST_PANE_PX }}
      >
        {loading && <SkeletonRows count={8} className="p-3" rowClassName="h-12" />}
        {!loading && services && visible.length === 0 && (
          <p className="p-6 text-center text-sm text-muted-foreground">
            {services.length === 0 ? t('services.noneOnSale') : t('services.noMatch', { query })}
          </p>
        )}
        <ul className="divide-y" aria-label={t('services.list')} {...roving.listProps}>
          {visible.map((service) => {
            const outOfStock = service.stock <= 0;
            return (
              <li key={service.id} className="flex items-center gap-2 px-3 py-2.5 sm:gap-3">
                <ServiceIcon name={service.name} icon={serviceByCode(service.id)?.icon} size="sm" />
                <div className="min-w-0 flex-1">
                  <p className="text-sm font-medium break-words">{service.name}</p>
                  <p className="text-xs text-muted-foreground">
                    {outOfStock ? (
                      <Badge variant="muted" className="px-1.5 py-0">
                        {t('services.outOfStock')}
                      </Badge>
                    ) : (
                      t('services.available', { count: service.stock, number: formatNumber(service.stock) })
                    )}
                  </p>
                </div>
                <FavouriteStar
                  favouriteKey={{ service: service.id, countryID: country.id }}
                  label={t('favourites.pair', { service: service.name, country: where })}
                  {...roving.itemProps(`star:${service.id}`, 'star')}
                />
                <span className="flex flex-col items-end">
                  <span className="text-sm font-semibold tabular-nums">{formatDollars(service.price)}</span>
                  <DeliveryNote delivery={service.delivery} />
                </span>
                <Button
                  size="sm"
                  onClick={() => onBuy(service)}
                  disabled={isDisabled(service)}
                  busy={buyingService === service.id}
                  aria-label={t('services.buyLabel', {
                    service: serviceInSentence(service.name),
                    price: formatDollars(service.price),
                  })}
                  {...roving.itemProps(service.id, 'buy')}
                >
                  {buyingService !== service.id && (
                    <ShoppingCart className="max-sm:hidden" aria-hidden="true" />
                  )}
                  {t('services.buy')}
                </Button>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
