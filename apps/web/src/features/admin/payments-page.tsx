import { type AdminPaymentRow, adminRoutes } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { FilterSelect } from '@/components/filter-select';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { PageHeader } from '@/components/page-header';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { type PaymentFilters, paymentsQuery } from './api';
import { useUrlFilters } from './filters';
import { ListState, LoadMore, PaymentStatusBadge, paymentStatuses, statusLabel } from './parts';
import { SearchForm } from './search-form';

const FILTER_NAMES = ['q', 'status', 'user_id'] as const;

/** Top-up invoices as a table; on a phone the user and the credited sum fold into the other cells. */
export function PaymentsTable({
  payments,
  showUser = true,
}: {
  payments: AdminPaymentRow[];
  showUser?: boolean;
}) {
  const { t } = useTranslation('admin');
  return (
    <Table aria-label={t('nav.payments')}>
      <TableHeader>
        <TableRow>
          <TableHead scope="col">{t('payments.payment')}</TableHead>
          {showUser && (
            <TableHead scope="col" className="hidden sm:table-cell">
              {t('payments.user')}
            </TableHead>
          )}
          <TableHead scope="col" className="hidden md:table-cell">
            {t('payments.provider')}
          </TableHead>
          <TableHead scope="col">{t('payments.status')}</TableHead>
          <TableHead scope="col" className="text-right">
            {t('payments.amount')}
          </TableHead>
          <TableHead scope="col" className="hidden text-right sm:table-cell">
            {t('payments.credited')}
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {payments.map((payment) => (
          <TableRow key={payment.id}>
            <TableCell className="align-top">
              <Link to={adminRoutes.payment(payment.id)} className={linkClass}>
                {t('payments.paymentId', { id: payment.id })}
              </Link>
              <span className="block text-xs break-all text-muted-foreground">{payment.order_id}</span>
              <span className="block text-xs text-muted-foreground">
                <DateTime value={payment.created_at} />
              </span>
              {showUser && (
                <span className="block text-xs sm:hidden">
                  <Link to={adminRoutes.user(payment.user_id)} className={linkClass}>
                    {payment.username}
                  </Link>
                </span>
              )}
            </TableCell>
            {showUser && (
              <TableCell className="hidden align-top sm:table-cell">
                <Link to={adminRoutes.user(payment.user_id)} className={linkClass}>
                  {payment.username}
                </Link>
              </TableCell>
            )}
            <TableCell className="hidden align-top md:table-cell">{payment.provider}</TableCell>
            <TableCell className="align-top">
              <div className="flex flex-col items-start gap-1">
                <PaymentStatusBadge status={payment.status} />
                <span className="text-xs text-muted-foreground md:hidden">{payment.provider}</span>
                {payment.provider_status && (
                  <span className="text-xs break-all text-muted-foreground">{payment.provider_status}</span>
                )}
              </div>
            </TableCell>
            <TableCell className="text-right align-top font-medium">
              <Money dollars={payment.amount} />
              {payment.credited !== null && (
                <span className="block text-xs font-normal text-muted-foreground sm:hidden">
                  <Trans
                    t={t}
                    i18nKey="payments.creditedAmount"
                    components={{ amount: <Money dollars={payment.credited} /> }}
                  />
                </span>
              )}
            </TableCell>
            <TableCell className="hidden text-right align-top sm:table-cell">
              <Money dollars={payment.credited} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** `/admin/payments`: top-up invoices, newest first, by status, user or invoice id. */
export function PaymentsPage() {
  const { t } = useTranslation('admin');
  const [filters, update] = useUrlFilters(FILTER_NAMES);
  const userIdValid = !filters.user_id || /^[1-9]\d{0,9}$/.test(filters.user_id);
  const payments = useInfiniteQuery({ ...paymentsQuery(filters as PaymentFilters), enabled: userIdValid });
  const rows = payments.data?.pages.flatMap((page) => page.payments) ?? [];

  return (
    <>
      <PageHeader title={t('nav.payments')} description={t('payments.description')} />
      <Card className="flex flex-col gap-4 p-4 sm:p-5">
        <SearchForm
          label={t('payments.search')}
          placeholder={t('payments.placeholder')}
          value={filters.q ?? ''}
          onSearch={(q) => update({ q })}
        >
          <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
            <FilterSelect
              label={t('filters.status')}
              value={filters.status}
              onChange={(status) => update({ status })}
              options={paymentStatuses.map((status) => ({
                value: status,
                label: statusLabel('payment', status),
              }))}
              anyLabel={t('filters.anyStatus')}
            />
            <UserIdFilter
              value={filters.user_id}
              onChange={(user_id) => update({ user_id })}
              valid={userIdValid}
            />
          </div>
        </SearchForm>
        {userIdValid && (
          <ListState query={payments} empty={rows.length === 0} emptyText={t('payments.none')} />
        )}
        {rows.length > 0 && <PaymentsTable payments={rows} />}
        <LoadMore query={payments} />
      </Card>
    </>
  );
}

/** A user id filter, applied when it leaves the box or on Enter (which also sends the search). */
function UserIdFilter({
  value,
  onChange,
  valid,
}: {
  value: string | undefined;
  onChange(value: string | undefined): void;
  valid: boolean;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  return (
    <Field
      id={id}
      label={t('filters.userId')}
      below={!valid && <p className="text-sm text-destructive">{t('filters.userIdInvalid')}</p>}
    >
      <Input
        id={id}
        inputMode="numeric"
        defaultValue={value ?? ''}
        key={value ?? ''}
        aria-invalid={!valid || undefined}
        onBlur={(event) => onChange(event.target.value.trim() || undefined)}
        onKeyDown={(event) => {
          if (event.key === 'Enter') onChange(event.currentTarget.value.trim() || undefined);
        }}
      />
    </Field>
  );
}
