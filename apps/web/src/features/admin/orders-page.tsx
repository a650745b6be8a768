import { type AdminOrderRow, adminOrderStatuses, adminRoutes, moneyMessages } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isBackwards } from '@/components/date-range-fields';
import { DateTime } from '@/components/date-time';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPhone } from '@/lib/format';
import { type OrderFilters, ordersQuery } from './api';
import { useUrlFilters } from './filters';
import {
  countryName,
  ListState,
  LoadMore,
  linkClass,
  Money,
  OrderStatusBadge,
  serviceName,
  statusLabel,
} from './parts';
import { PurchaseFilters } from './purchase-filters';

const FILTER_NAMES = [
  'q',
  'status',
  'service',
  'country',
  'provider',
  'user_id',
  'from',
  'to',
  'problem',
] as const;

function OrderRow({ order, showUser }: { order: AdminOrderRow; showUser: boolean }) {
  const { t } = useTranslation('admin');
  const where = (
    <>
      <span className="block">{serviceName(order.service)}</span>
      <span className="block text-xs text-muted-foreground">
        {countryName(order.country_id)} · {order.provider}
      </span>
    </>
  );
  const phone = order.phone ? formatPhone(order.phone) : '—';
  return (
    <TableRow>
      <TableCell className="align-top">
        <Link to={adminRoutes.order(order.id)} className={linkClass}>
          {t('orders.orderId', { id: order.id })}
        </Link>
        <span className="block text-xs text-muted-foreground">
          <DateTime value={order.created_at} />
        </span>
        {/* On a phone the user, the service and the phone sit under the order: two columns fit 360 px. */}
        <span className="mt-1 block sm:hidden">
          {showUser && (
            <Link to={adminRoutes.user(order.user_id)} className={`${linkClass} block text-xs`}>
              {order.username}
            </Link>
          )}
          {where}
        </span>
        <span className="block text-xs whitespace-nowrap tabular-nums md:hidden">{phone}</span>
      </TableCell>
      {showUser && (
        <TableCell className="hidden align-top sm:table-cell">
          <Link to={adminRoutes.user(order.user_id)} className={linkClass}>
            {order.username}
          </Link>
        </TableCell>
      )}
      <TableCell className="hidden align-top sm:table-cell">{where}</TableCell>
      <TableCell className="hidden align-top whitespace-nowrap tabular-nums md:table-cell">{phone}</TableCell>
      <TableCell className="align-top">
        <div className="flex flex-col items-start gap-1">
          <OrderStatusBadge status={order.status} />
          {order.problem_note !== null && <Badge variant="warning">{t('orders.problem')}</Badge>}
          {order.code && <span className="font-mono text-xs">{t('orders.code', { code: order.code })}</span>}
          <span className="text-xs font-medium sm:hidden">
            <Money dollars={order.price} />
          </span>
        </div>
      </TableCell>
      <TableCell className="hidden text-right align-top font-medium sm:table-cell">
        <Money dollars={order.price} />
      </TableCell>
    </TableRow>
  );
}

/** One-time orders as a table; on a phone the user, service, phone and price fold into two columns. */
export function OrdersTable({ orders, showUser = true }: { orders: AdminOrderRow[]; showUser?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <Table aria-label={t('nav.orders')}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{t('orders.order')}</TableHead>
          {showUser && (
            <TableHead scope="col" className="hidden sm:table-cell">
              {t('orders.user')}
            </TableHead>
          )}
          <TableHead scope="col" className="hidden sm:table-cell">
            {t('orders.service')}
          </TableHead>
          <TableHead scope="col" className="hidden md:table-cell">
            {t('orders.phone')}
          </TableHead>
          <TableHead scope="col">{t('orders.status')}</TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            {t('orders.price')}
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {orders.map((order) => (
          <OrderRow key={order.id} order={order} showUser={showUser} />
        ))}
      </TableBody>
    </Table>
  );
}

/** `/admin/orders`: one-time orders, newest first, filtered by anything an operator is asked about. */
export function OrdersPage() {
  const { t } = useTranslation('admin');
  const [filters, update] = useUrlFilters(FILTER_NAMES);
  const backwards = isBackwards(filters);
  const orders = useInfiniteQuery({ ...ordersQuery(filters as OrderFilters), enabled: !backwards });
  const rows = orders.data?.pages.flatMap((page) => page.orders) ?? [];

  return (
    <>
      <PageHeader title={t('nav.orders')} description={t('orders.description')} />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <PurchaseFilters
          label={t('orders.filter')}
          qLabel={t('orders.q')}
          names={FILTER_NAMES}
          statusOptions={adminOrderStatuses.map((status) => ({
            value: status,
            label: statusLabel('order', status),
          }))}
          filters={filters as OrderFilters}
          update={update}
        />
        {backwards ? (
          <Alert variant="destructive">
            <AlertDescription>{moneyMessages.badDateRange}</AlertDescription>
          </Alert>
        ) : (
          <ListState query={orders} empty={rows.length === 0} emptyText={t('orders.none')} />
        )}
        {rows.length > 0 && <OrdersTable orders={rows} />}
        <LoadMore query={orders} />
      </Card>
    </>
  );
}
