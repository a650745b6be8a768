import { type AdminOrderRow, adminOrderFilterStatuses, adminRoutes, moneyMessages } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { isBackwards } from '@/components/date-range-fields';
import { RecordTable } from '@/components/orders/record-table';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Card } from '@/components/ui/card';
import { type OrderFilters, ordersQuery } from './api';
import { useUrlFilters } from './filters';
import { countryName, ListState, LoadMore, OrderStatusBadge, serviceName, statusLabel } from './parts';
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

/** One-time orders as a table; on a phone the user, service, phone and price fold into two columns. */
export function OrdersTable({ orders, showUser = true }: { orders: AdminOrderRow[]; showUser?: boolean }) {
  const { t } = useTranslation('admin');
  return (
    <RecordTable
      rows={orders}
      label={t('nav.orders')}
      showUser={showUser}
      headers={{
        record: t('orders.order'),
        user: t('orders.user'),
        what: t('orders.service'),
        phone: t('orders.phone'),
        status: t('orders.status'),
        amount: t('orders.price'),
      }}
      record={(order) => ({ to: adminRoutes.order(order.id), label: t('orders.orderId', { id: order.id }) })}
      userPath={(order) => adminRoutes.user(order.user_id)}
      what={(order) => (
        <>
          <span className="block">{serviceName(order.service)}</span>
          <span className="block text-xs text-muted-foreground">
            {countryName(order.country_id)} · {order.provider}
          </span>
        </>
      )}
      status={(order) => (
        <>
          <OrderStatusBadge order={order} />
          {order.problem_note !== null && <Badge variant="warning">{t('orders.problem')}</Badge>}
          {order.code && <span className="font-mono text-xs">{t('orders.code', { code: order.code })}</span>}
        </>
      )}
      dollars={(order) => order.price}
    />
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
          statusOptions={adminOrderFilterStatuses.map((status) => ({
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
