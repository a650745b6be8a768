import {
  type AdminRentListRow,
  adminRentFilterStatuses,
  adminRoutes,
  moneyMessages,
} from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { isBackwards } from '@/components/date-range-fields';
import { DateTime } from '@/components/date-time';
import { RecordTable } from '@/components/orders/record-table';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { type RentFilters, rentsQuery } from './api';
import { useUrlFilters } from './filters';
import { countryName, ListState, LoadMore, RentStatusBadge, rentName, statusLabel } from './parts';
import { PurchaseFilters } from './purchase-filters';

const FILTER_NAMES = ['q', 'status', 'service', 'country', 'provider', 'user_id', 'from', 'to'] as const;

/** Long-term rents as a table; on a phone the user, service, phone and price fold into two columns. */
export function RentsTable({ rents, showUser = true }: { rents: AdminRentListRow[]; showUser?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <RecordTable
      rows={rents}
      label={t('nav.rents')}
      showUser={showUser}
      headers={{
        record: t('rents.rent'),
        user: t('rents.user'),
        what: t('rents.service'),
        phone: t('rents.phone'),
        status: t('rents.status'),
        amount: t('rents.charged'),
      }}
      record={(rent) => ({ to: adminRoutes.rent(rent.id), label: t('rents.rentId', { id: rent.id }) })}
      userPath={(rent) => adminRoutes.user(rent.user_id)}
      what={(rent) => (
        <>
          <span className="block">
            {rentName(rent.service)} <span className="text-muted-foreground">· {rent.period}</span>
          </span>
          <span className="block text-xs text-muted-foreground">
            {countryName(rent.country_id)} · {rent.provider}
          </span>
        </>
      )}
      status={(rent) => (
        <>
          <RentStatusBadge status={rent.status} />
          {rent.ends_at && (
            <span className="text-xs text-muted-foreground">
              <Trans t={t} i18nKey="rents.ends" components={{ date: <DateTime value={rent.ends_at} /> }} />
            </span>
          )}
        </>
      )}
      dollars={(rent) => rent.charged}
    />
  );
}

/** `/admin/rents`: long-term rents, newest first, filtered like the orders. */
export function RentsPage() {
  const { t } = useTranslation('admin');
  const [filters, update] = useUrlFilters(FILTER_NAMES);
  const backwards = isBackwards(filters);
  const rents = useInfiniteQuery({ ...rentsQuery(filters as RentFilters), enabled: !backwards });
  const rows = rents.data?.pages.flatMap((page) => page.rents) ?? [];

  return (
    <>
      <PageHeader title={t('nav.rents')} description={t('rents.description')} />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <PurchaseFilters
          label={t('rents.filter')}
          qLabel={t('rents.q')}
          names={FILTER_NAMES}
          statusOptions={adminRentFilterStatuses.map((status) => ({
            value: status,
            label: statusLabel('rent', status),
          }))}
          filters={filters as RentFilters}
          update={update}
        />
        {backwards ? (
          <Alert variant="destructive">
            <AlertDescription>{moneyMessages.badDateRange}</AlertDescription>
          </Alert>
        ) : (
          <ListState query={rents} empty={rows.length === 0} emptyText={t('rents.none')} />
        )}
        {rows.length > 0 && <RentsTable rents={rows} />}
        <LoadMore query={rents} />
      </Card>
    </>
  );
}
