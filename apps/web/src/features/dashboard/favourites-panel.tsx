import { serviceByCode } from '@simcode/contract';
import { ArrowRight, History, RotateCcw, ShoppingCart, Star } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryFlag } from '@/components/country-flag';
import { ServiceIcon } from '@/components/service-icon';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format';
import { countryName } from '@/lib/names';
import { FavouriteStar, useFavourites } from './favourites';
import type { usePurchase } from './use-purchase';

function Entry({
  service,
  serviceName,
  where,
  detail,
  children,
}: {
  service: string;
  serviceName: string;
  /** The country line, flag first. */
  where: ReactNode;
  detail?: string;
  children: ReactNode;
}) {
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 px-4 py-2.5">
      <ServiceIcon name={serviceName} icon={serviceByCode(service)?.icon} size="sm" />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium break-words">{serviceName}</p>
        <p className="flex min-w-0 flex-wrap items-center gap-x-1.5 text-xs text-muted-foreground">
          {where}
          {/* The separator goes with what follows it, so a wrapped line never ends with it. */}
          {detail && (
            <span className="whitespace-nowrap">
              <span aria-hidden="true">· </span>
              {detail}
            </span>
          )}
        </p>
      </div>
      <div className="ml-auto flex items-center gap-1">{children}</div>
    </li>
  );
}

function Section({ icon, title, children }: { icon: ReactNode; title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="min-w-0">
      <h3 className="flex items-center gap-2 px-4 pt-3 pb-1 text-xs font-semibold tracking-wide text-muted-foreground uppercase [&_svg]:size-3.5">
        {icon}
        {title}
      </h3>
      <ul className="divide-y">{children}</ul>
    </section>
  );
}

/**
 * The starred services and pairs and the last five purchases, above everything else to buy: one click
 * buys a pair again at today's price (after the price confirmation); a service starred in every country
 * opens "By service" on it.
 */
export function FavouritesPanel({
  purchase,
  onOpenService,
}: {
  purchase: ReturnType<typeof usePurchase>;
  onOpenService(service: string): void;
}) {
  const { t } = useTranslation('dashboard');
  const { data } = useFavourites();
  if (!data || (data.favourites.length === 0 && data.recent.length === 0)) return null;
  const isBuying = (service: string, countryID: string) =>
    purchase.buying?.service === service && purchase.buying.countryID === countryID;

  return (
    <Card role="region" aria-label={t('favourites.title')}>
      <CardHeader className="pb-0">
        <CardTitle className="text-base">{t('favourites.title')}</CardTitle>
      </CardHeader>
      <CardContent className="grid grid-cols-1 gap-x-4 p-0 pb-2 lg:grid-cols-2">
        {data.favourites.length > 0 && (
          <Section icon={<Star aria-hidden="true" />} title={t('favourites.starred')}>
            {data.favourites.map((favourite) => {
              const where =
                favourite.countryID === null
                  ? null
                  : countryName(favourite.countryID, favourite.country_name ?? favourite.countryID);
              return (
                <Entry
                  key={`${favourite.service}:${favourite.countryID}`}
                  service={favourite.service}
                  serviceName={favourite.service_name}
                  where={
                    favourite.countryID === null ? (
                      t('favourites.anyCountry')
                    ) : (
                      <>
                        <CountryFlag country={favourite.countryID} />
                        <span className="break-words">{where}</span>
                      </>
                    )
                  }
                >
                  <FavouriteStar
                    favouriteKey={{ service: favourite.service, countryID: favourite.countryID }}
                    label={
                      where === null
                        ? t('favourites.service', { service: favourite.service_name })
                        : t('favourites.pair', { service: favourite.service_name, country: where })
                    }
                  />
                  {favourite.countryID === null ? (
                    <Button
                      size="sm"
                      variant="outline"
                      onClick={() => onOpenService(favourite.service)}
                      aria-label={t('favourites.chooseCountryLabel', { service: favourite.service_name })}
                    >
                      {t('favourites.chooseCountry')}
                      <ArrowRight aria-hidden="true" />
                    </Button>
                  ) : (
                    <Button
                      size="sm"
                      busy={isBuying(favourite.service, favourite.countryID)}
                      disabled={purchase.buying !== null && !isBuying(favourite.service, favourite.countryID)}
                      onClick={() =>
                        void purchase.buyAgain({
                          service: favourite.service,
                          serviceName: favourite.service_name,
                          countryID: favourite.countryID!,
                          countryName: favourite.country_name ?? favourite.countryID!,
                          operator: 'any',
                        })
                      }
                      aria-label={t('favourites.buyLabel', {
                        service: favourite.service_name,
                        country: where,
                      })}
                    >
                      <ShoppingCart aria-hidden="true" />
                      {t('services.buy')}
                    </Button>
                  )}
                </Entry>
              );
            })}
          </Section>
        )}
        {data.recent.length > 0 && (
          <Section icon={<History aria-hidden="true" />} title={t('favourites.recent')}>
            {data.recent.map((recent) => {
              const where = countryName(recent.countryID, recent.country_name);
              const busy = isBuying(recent.service, recent.countryID);
              return (
                <Entry
                  key={`${recent.service}:${recent.countryID}:${recent.operator}`}
                  service={recent.service}
                  serviceName={recent.service_name}
                  where={
                    <>
                      <CountryFlag country={recent.countryID} />
                      <span className="break-words">{where}</span>
                    </>
                  }
                  detail={formatDateTime(recent.bought_at)}
                >
                  <Button
                    size="sm"
                    variant="secondary"
                    busy={busy}
                    disabled={purchase.buying !== null && !busy}
                    onClick={() =>
                      void purchase.buyAgain({
                        service: recent.service,
                        serviceName: recent.service_name,
                        countryID: recent.countryID,
                        countryName: recent.country_name,
                        operator: recent.operator,
                      })
                    }
                    aria-label={t('favourites.buyAgainLabel', {
                      service: recent.service_name,
                      country: where,
                    })}
                  >
                    {!busy && <RotateCcw aria-hidden="true" />}
                    {t('favourites.buyAgain')}
                  </Button>
                </Entry>
              );
            })}
          </Section>
        )}
      </CardContent>
    </Card>
  );
}
