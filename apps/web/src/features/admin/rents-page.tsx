import { type AdminRentListRow, adminRentStatuses, adminRoutes, moneyMessages } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isBackwards } from '@/components/date-range-fields';
import { DateTime } from '@/components/date-time';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Card } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPhone } from '@/lib/format';
import { type RentFilters, rentsQuery } from './api';
import { useUrlFilters } from './filters';
import {
  countryName,
  ListState,
  LoadMore,
  linkClass,
  Money,
  RentStatusBadge,
  rentName,
  statusLabel,
} from './parts';
import { PurchaseFilters } from './purchase-filters';

const FILTER_NAMES = ['q', 'status', 'service', 'country', 'provider', 'user_id', 'from', 'to'] as const;

function RentRow({ rent, showUser }: { rent: AdminRentListRow; showUser: boolean }) {
  const { t } = useTranslation('admin');
  const what = (
    <>
      <span className="block">
        {rentName(rent.service)} <span className="text-muted-foreground">· {rent.period}</span>
      </span>
      <span className="block text-xs text-muted-foreground">
        {countryName(rent.country_id)} · {rent.provider}
      </span>
    </>
  );
  const phone = rent.phone ? formatPhone(rent.phone) : '—';
  return (
    <TableRow>
      <TableCell className="align-top">
        <Link to={adminRoutes.rent(rent.id)} className={linkClass}>
          {t('rents.rentId', { id: rent.id })}
        </Link>
        <span className="block text-xs text-muted-foreground">
          <DateTime value={rent.created_at} />
        </span>
        {/* On a phone the user, the service and the phone sit under the rent: two columns fit 360 px. */}
        <span className="mt-1 block sm:hidden">
          {showUser && (
            <Link to={adminRoutes.user(rent.user_id)} className={`${linkClass} block text-xs`}>
              {rent.username}
            </Link>
          )}
          {what}
        </span>
        <span className="block text-xs whitespace-nowrap tabular-nums md:hidden">{phone}</span>
      </TableCell>
      {showUser && (
        <TableCell className="hidden align-top sm:table-cell">
          <Link to={adminRoutes.user(rent.user_id)} className={linkClass}>
            {rent.username}
          </Link>
        </TableCell>
      )}
      <TableCell className="hidden align-top sm:table-cell">{what}</TableCell>
      <TableCell className="hidden align-top whitespace-nowrap tabular-nums md:table-cell">{phone}</TableCell>
      <TableCell className="align-top">
        <div className="flex flex-col items-start gap-1">
          <RentStatusBadge status={rent.status} />
          {rent.ends_at && (
            <span className="text-xs text-muted-foreground">
              <Trans t={t} i18nKey="rents.ends" components={{ date: <DateTime value={rent.ends_at} /> }} />
            </span>
          )}
          <span className="text-xs font-medium sm:hidden">
            <Money dollars={rent.charged} />
          </span>
        </div>
      </TableCell>
      <TableCell className="hidden text-right align-top font-medium sm:table-cell">
        <Money dollars={rent.charged} />
      </TableCell>
    </TableRow>
  );
}

/** Long-term rents as a table; on a phone the user, service, phone and price fold into two columns. */
export function RentsTable({ rents, showUser = true }: { rents: AdminRentListRow[]; showUser?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <Table aria-label={t('nav.rents')}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{t('rents.rent')}</TableHead>
          {showUser && (
            <TableHead scope="col" className="hidden sm:table-cell">
              {t('rents.user')}
            </TableHead>
          )}
          <TableHead scope="col" className="hidden sm:table-cell">
            {t('rents.service')}
          </TableHead>
          <TableHead scope="col" className="hidden md:table-cell">
            {t('rents.phone')}
          </TableHead>
          <TableHead scope="col">{t('rents.status')}</TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            {t('rents.charged')}
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {rents.map((rent) => (
          <RentRow key={rent.id} rent={rent} showUser={showUser} />
        ))}
      </TableBody>
    </Table>
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
          statusOptions={adminRentStatuses.map((status) => ({
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
