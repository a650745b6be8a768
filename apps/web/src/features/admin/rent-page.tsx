import { type AdminRentDetailResponse, adminRoutes } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { CalendarClock, CalendarPlus, History, MessageSquareText, ReceiptText, Wrench } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { Badge } from '@/components/ui/badge';
import { formatPhone } from '@/lib/format';
import { rentQuery } from './api';
import { BackLink, DetailFrame, useObjectId } from './detail-page';
import {
  AuditEntries,
  countryName,
  EmptyText,
  Fact,
  Facts,
  LedgerTable,
  linkClass,
  Money,
  RentStatusBadge,
  rentName,
} from './parts';
import { RefundRent } from './refund-action';

type Detail = AdminRentDetailResponse;

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
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6">
        <SectionCard id="rent-facts" icon={CalendarClock} title={t('rent.facts')}>
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
        </SectionCard>
        <SectionCard
          id="rent-actions"
          icon={Wrench}
          title={t('rent.actions')}
          description={t('rent.actionsDescription')}
        >
          <div className="flex flex-wrap gap-2">
            <RefundRent rent={rent} hasSms={data.messages.length > 0} />
          </div>
        </SectionCard>
        <SectionCard id="rent-sms" icon={MessageSquareText} title={t('rent.sms')}>
          {data.messages.length === 0 ? (
            <EmptyText>{t('rent.noSms')}</EmptyText>
          ) : (
            <ul className="divide-y" aria-label={t('rent.sms')}>
              {data.messages.map((message) => (
                <li
                  key={`${message.received_at}-${message.text}`}
                  className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
                >
                  <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <DateTime value={message.received_at} />
                    <span className="font-medium text-foreground">{message.sender}</span>
                    {message.code && (
                      <span className="font-mono text-sm text-foreground">{message.code}</span>
                    )}
                  </span>
                  <span className="text-sm wrap-anywhere">{message.text}</span>
                </li>
              ))}
            </ul>
          )}
        </SectionCard>
        <SectionCard id="rent-renewals" icon={CalendarPlus} title={t('rent.renewals')}>
          {data.renewals.length === 0 ? (
            <EmptyText>{t('rent.noRenewals')}</EmptyText>
          ) : (
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
          )}
        </SectionCard>
        <SectionCard id="rent-ledger" icon={ReceiptText} title={t('rent.ledger')}>
          {data.ledger.length === 0 ? (
            <EmptyText>{t('rent.noLedger')}</EmptyText>
          ) : (
            <LedgerTable entries={data.ledger} />
          )}
        </SectionCard>
        <SectionCard id="rent-audit" icon={History} title={t('rent.audit')}>
          {data.audit.length === 0 ? (
            <EmptyText>{t('rent.noAudit')}</EmptyText>
          ) : (
            <AuditEntries entries={data.audit} showObject={false} />
          )}
        </SectionCard>
      </div>
    </>
  );
}

/** `/admin/rents/:id`: a rent's facts, its SMS, renewals, money and what administrators did to it. */
export function RentPage() {
  const { t } = useTranslation('admin');
  const id = useObjectId();
  const rent = useQuery({ ...rentQuery(id ?? 0), enabled: id !== null });
  return (
    <DetailFrame
      id={id}
      query={rent}
      title={t('rents.rentId', { id })}
      back={{ to: adminRoutes.rents, label: t('nav.rents') }}
    >
      {() => <RentDetail data={rent.data!} />}
    </DetailFrame>
  );
}
