import { type AdminOrderRow, adminOrderStatuses, adminRoutes, moneyMessages } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Search, SlidersHorizontal, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { DateRangeFields, isBackwards } from '@/components/date-range-fields';
import { PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatPhone } from '@/lib/format';
import { cn } from '@/lib/utils';
import { type OrderFilters, ordersQuery } from './api';
import { countryOptions, FilterSelect, serviceOptions, useUrlFilters } from './filters';
import {
  countryName,
  DateTime,
  ListState,
  LoadMore,
  linkClass,
  Money,
  OrderStatusBadge,
  serviceName,
} from './parts';

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
const statusOptions = adminOrderStatuses.map((status) => ({
  value: status,
  label: status.charAt(0).toUpperCase() + status.slice(1),
}));

function OrderRow({ order, showUser }: { order: AdminOrderRow; showUser: boolean }) {
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
          Order #{order.id}
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
          {order.problem_note !== null && <Badge variant="warning">Problem</Badge>}
          {order.code && <span className="font-mono text-xs">Code {order.code}</span>}
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
  return (
    <Table aria-label="Orders">
      <TableHeader>
        <TableRow>
          <TableHead scope="col">Order</TableHead>
          {showUser && (
            <TableHead scope="col" className="hidden sm:table-cell">
              User
            </TableHead>
          )}
          <TableHead scope="col" className="hidden sm:table-cell">
            Service
          </TableHead>
          <TableHead scope="col" className="hidden md:table-cell">
            Phone
          </TableHead>
          <TableHead scope="col">Status</TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            Price
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

/** The text filters wait for Search; the choices apply at once. */
function OrderFiltersForm({
  filters,
  update,
}: {
  filters: OrderFilters;
  update(changes: Partial<OrderFilters>): void;
}) {
  const qId = useId();
  const providerId = useId();
  const userId = useId();
  const problemId = useId();
  const moreId = useId();
  const [moreOpen, setMoreOpen] = useState(false);
  const moreSet = FILTER_NAMES.filter((name) => name !== 'q' && name !== 'problem' && filters[name]).length;
  const [text, setText] = useState({
    q: filters.q ?? '',
    provider: filters.provider ?? '',
    user_id: filters.user_id ?? '',
  });
  useEffect(
    () => setText({ q: filters.q ?? '', provider: filters.provider ?? '', user_id: filters.user_id ?? '' }),
    [filters.q, filters.provider, filters.user_id],
  );
  const userIdValid = text.user_id === '' || /^[1-9]\d{0,9}$/.test(text.user_id.trim());

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!userIdValid) return;
    update({ q: text.q.trim(), provider: text.provider.trim(), user_id: text.user_id.trim() });
  }

  const anySet = FILTER_NAMES.some((name) => filters[name]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is from 2023 and unknown to the tests' DOM; the role works everywhere.
    <form role="search" aria-label="Filter orders" onSubmit={submit} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field id={qId} label="Phone or order id">
          <Input
            id={qId}
            type="search"
            value={text.q}
            onChange={(event) => setText({ ...text, q: event.target.value })}
          />
        </Field>
        {/* On a phone the other filters fold behind a button, so the list is not a screen away. */}
        <div id={moreId} className={cn('grid-cols-1 gap-3 sm:contents', moreOpen ? 'grid' : 'hidden')}>
          <FilterSelect
            label="Status"
            value={filters.status}
            onChange={(status) => update({ status })}
            options={statusOptions}
            anyLabel="Any status"
          />
          <FilterSelect
            label="Service"
            value={filters.service}
            onChange={(service) => update({ service })}
            options={serviceOptions}
            anyLabel="Any service"
          />
          <FilterSelect
            label="Country"
            value={filters.country}
            onChange={(country) => update({ country })}
            options={countryOptions}
            anyLabel="Any country"
          />
          <Field id={providerId} label="Provider">
            <Input
              id={providerId}
              value={text.provider}
              onChange={(event) => setText({ ...text, provider: event.target.value })}
            />
          </Field>
          <Field
            id={userId}
            label="User id"
            below={!userIdValid && <p className="text-sm text-destructive">A user id is a whole number.</p>}
          >
            <Input
              id={userId}
              inputMode="numeric"
              value={text.user_id}
              aria-invalid={!userIdValid || undefined}
              onChange={(event) => setText({ ...text, user_id: event.target.value })}
            />
          </Field>
          <DateRangeFields value={filters} onChange={(range) => update({ from: range.from, to: range.to })} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          type="button"
          variant="outline"
          className="sm:hidden"
          aria-expanded={moreOpen}
          aria-controls={moreId}
          onClick={() => setMoreOpen((open) => !open)}
        >
          <SlidersHorizontal aria-hidden="true" />
          {moreOpen ? 'Fewer filters' : `More filters${moreSet ? ` (${moreSet} set)` : ''}`}
        </Button>
        <label
          htmlFor={problemId}
          className="mr-auto flex cursor-pointer items-center gap-2 text-sm font-medium"
        >
          <input
            id={problemId}
            type="checkbox"
            checked={filters.problem === 'true'}
            onChange={(event) => update({ problem: event.target.checked ? 'true' : undefined })}
            className="size-4 accent-primary"
          />
          Problems only
        </label>
        {anySet && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => update(Object.fromEntries(FILTER_NAMES.map((name) => [name, undefined])))}
          >
            <X aria-hidden="true" />
            Clear filters
          </Button>
        )}
        <Button type="submit">
          <Search aria-hidden="true" />
          Search
        </Button>
      </div>
    </form>
  );
}

/** `/admin/orders`: one-time orders, newest first, filtered by anything an operator is asked about. */
export function OrdersPage() {
  const [filters, update] = useUrlFilters(FILTER_NAMES);
  const backwards = isBackwards(filters);
  const orders = useInfiniteQuery({ ...ordersQuery(filters as OrderFilters), enabled: !backwards });
  const rows = orders.data?.pages.flatMap((page) => page.orders) ?? [];

  return (
    <>
      <PageHeader
        title="Orders"
        description="One-time numbers: find an order by its phone number or id, or by who bought what, where and when."
      />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <OrderFiltersForm filters={filters as OrderFilters} update={update} />
        {backwards ? (
          <Alert variant="destructive">
            <AlertDescription>{moneyMessages.badDateRange}</AlertDescription>
          </Alert>
        ) : (
          <ListState query={orders} empty={rows.length === 0} emptyText="No order matches these filters." />
        )}
        {rows.length > 0 && <OrdersTable orders={rows} />}
        <LoadMore query={orders} />
      </Card>
    </>
  );
}
