import { type AdminRentDetailResponse, adminRoutes } from '@simcode/contract';
import { CalendarClock, CalendarPlus, MessageSquareText, Wrench } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { DetailSections } from '@/components/orders/detail-sections';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { formatPhone } from '@/lib/format';
import { rentQuery } from './api';
import { BackLink, ObjectPage } from './detail-page';
import { historySections } from './history-sections';
import { countryName, Fact, Facts, RentStatusBadge, rentName } from './parts';
import { RefundRent } from './refund-action';
import { SmsList } from './sms-list';

type Detail = AdminRentDetailResponse;

function RentFacts({ rent }: { rent: Detail['rent'] }) {
  const { t } = useTranslation('admin');
  return (
    <Facts>
      <Fact label={t('rent.status')}>
        <RentStatusBadge status={rent.status} />
      </Fact>
      <Fact label={t('rent.user')}>
        <Link to={adminRoutes.user(rent.user_id)} className={linkClass}>
          {rent.username}
        </Link>
      </Fact>
      <Fact label={t('rent.charged')}>
        <Money dollars={rent.charged} />
      </Fact>
      <Fact label={t('rent.firstPeriod')}>
        <Money dollars={rent.price} />
      </Fact>
      <Fact label={t('rent.period')}>{rent.period}</Fact>
      <Fact label={t('rent.service')}>{rentName(rent.service)}</Fact>
      <Fact label={t('rent.country')}>{countryName(rent.country_id)}</Fact>
      <Fact label={t('rent.phone')}>{rent.phone ? formatPhone(rent.phone) : '—'}</Fact>
      <Fact label={t('rent.rented')}>
        <DateTime value={rent.created_at} />
      </Fact>
      <Fact label={t('rent.ends')}>{rent.ends_at ? <DateTime value={rent.ends_at} /> : '—'}</Fact>
      <Fact label={t('rent.provider')}>{rent.provider}</Fact>
      <Fact label={t('rent.providerRentId')}>{rent.provider_rent_id ?? '—'}</Fact>
      <Fact label={t('rent.whyEnded')}>{rent.status_reason ?? '—'}</Fact>
    </Facts>
  );
}

function RentDetail({ data }: { data: Detail }) {
  const { t } = useTranslation('admin');
  const { rent } = data;
  return (
    <>
      <BackLink to={adminRoutes.rents} label={t('nav.rents')} />
      <PageHeader
        title={t('rents.rentId', { id: rent.id })}
        description={t('rent.description', {
          service: rentName(rent.service),
          country: countryName(rent.country_id),
          period: rent.period,
          user: rent.username,
        })}
      />
      <DetailSections
        sections={[
          {
            id: 'rent-facts',
            icon: CalendarClock,
            title: t('rent.facts'),
            content: <RentFacts rent={rent} />,
          },
          {
            id: 'rent-actions',
            icon: Wrench,
            title: t('rent.actions'),
            description: t('rent.actionsDescription'),
            content: (
              <div className="flex flex-wrap gap-2">
                <RefundRent rent={rent} hasSms={data.messages.length > 0} />
              </div>
            ),
          },
          {
            id: 'rent-sms',
            icon: MessageSquareText,
            title: t('rent.sms'),
            empty: data.messages.length === 0 && t('rent.noSms'),
            content: <SmsList messages={data.messages} label={t('rent.sms')} />,
          },
          {
            id: 'rent-renewals',
            icon: CalendarPlus,
            title: t('rent.renewals'),
            empty: data.renewals.length === 0 && t('rent.noRenewals'),
            content: (
              <ul className="divide-y" aria-label={t('rent.renewals')}>
                {data.renewals.map((renewal) => (
                  <li
                    key={renewal.id}
                    className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5 text-sm first:pt-0 last:pb-0"
                  >
                    <span className="font-medium">
                      <Trans
                        t={t}
                        i18nKey="rent.renewal"
                        values={{ hours: renewal.hours }}
                        components={{ price: <Money dollars={renewal.price} /> }}
                      />
                    </span>
                    <Badge variant="muted">
                      {t(`status.renewal.${renewal.status}`, { defaultValue: renewal.status })}
                    </Badge>
                    {renewal.automatic && <Badge variant="info">{t('rent.automatic')}</Badge>}
                    <span className="text-xs text-muted-foreground">
                      <DateTime value={renewal.created_at} />
                    </span>
                  </li>
                ))}
              </ul>
            ),
          },
          ...historySections('rent', data),
        ]}
      />
    </>
  );
}

/** `/admin/rents/:id`: a rent's facts, its SMS, renewals, money and what administrators did to it. */
export function RentPage() {
  const { t } = useTranslation('admin');
  return (
    <ObjectPage
      query={rentQuery}
      title={(id) => t('rents.rentId', { id })}
      back={{ to: adminRoutes.rents, label: t('nav.rents') }}
    >
      {(data) => <RentDetail data={data} />}
    </ObjectPage>
  );
}
