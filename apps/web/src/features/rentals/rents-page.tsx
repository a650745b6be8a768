import { RENTS_REFRESH_MS, type Rent, rentMessages } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { CalendarRange, Plus } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { OrderMoneyDialog } from '@/components/orders/order-money-dialog';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { i18n } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime, formatDollars, formatPhone } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { useMediaQuery } from '@/lib/use-media-query';
import { rentsQuery, useCancelRent, useRenewRent, useReplaceRent, useSetAutoRenew } from './api';
import { displayPeriod } from './period-text';
import { RenewDialog } from './renew-dialog';
import {
  RentActionButtons,
  type RentActions,
  RentAutoRenew,
  RentIdentity,
  RentNumber,
  RentPrice,
  RentSms,
  RentStatusBadges,
  RentTimeLeft,
} from './rent-parts';

const WIDE_QUERY = '(min-width: 1024px)';
const SKELETON_ROWS = ['a', 'b', 'c'];

/** 'Telegram number in United Kingdom', in the current language. */
function rentTitle(rent: Rent): string {
  return i18n.t('rentals:numberIn', {
    service: rent.service.name,
    country: countryName(rent.country_id, rent.country),
  });
}

function RentsTable({ rents, actions }: { rents: Rent[]; actions: RentActions }) {
  const { t } = useTranslation('rentals');
  return (
    <Card className="overflow-hidden">
      <Table aria-label={t('list.label')}>
        <TableHeader className="bg-muted/60">
          <TableRow className="hover:bg-transparent">
            <TableHead className="pl-5">{t('list.number')}</TableHead>
            <TableHead>{t('list.receivedSms')}</TableHead>
            <TableHead>{t('list.timeLeft')}</TableHead>
            <TableHead>{t('list.status')}</TableHead>
            <TableHead className="pr-5 text-right">{t('list.actions')}</TableHead>
          </TableRow>
        </TableHeader>
        <TableBody>
          {rents.map((rent) => (
            <TableRow key={rent.id} aria-label={rentTitle(rent)} className="align-top">
              <TableCell className="w-64 pl-5 align-top">
                <div className="flex flex-col gap-2">
                  <RentIdentity rent={rent} />
                  <RentNumber rent={rent} />
                  <span className="text-xs text-muted-foreground">
                    <RentPrice rent={rent} /> · {displayPeriod(rent.period)}
                  </span>
                </div>
              </TableCell>
              <TableCell className="min-w-72 align-top whitespace-normal">
                <RentSms rent={rent} />
                {rent.status_reason && rent.status !== 'active' && rent.order_id && (
                  <p className="mt-1.5 text-xs text-muted-foreground">{rent.status_reason}</p>
                )}
              </TableCell>
              <TableCell className="w-44 align-top">
                <RentTimeLeft rent={rent} />
              </TableCell>
              <TableCell className="w-56 align-top">
                <div className="flex flex-col gap-2">
                  <RentStatusBadges rent={rent} />
                  <RentAutoRenew rent={rent} actions={actions} />
                </div>
              </TableCell>
              <TableCell className="pr-5 align-top">
                <RentActionButtons
                  rent={rent}
                  actions={actions}
                  className="ml-auto w-32 flex-col [&>button]:w-full"
                />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </Card>
  );
}

function RentCard({ rent, actions }: { rent: Rent; actions: RentActions }) {
  const { t } = useTranslation('rentals');
  return (
    <Card className="flex flex-col gap-4 p-4">
      <div className="flex items-start justify-between gap-3">
        <RentIdentity rent={rent} />
        <span className="text-sm font-semibold">
          <RentPrice rent={rent} />
        </span>
      </div>
      <div className="flex flex-wrap items-end justify-between gap-3 rounded-lg bg-muted px-3 py-2.5">
        <div>
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">
            {t('list.number')}
          </p>
          <RentNumber rent={rent} />
        </div>
        <RentTimeLeft rent={rent} />
      </div>
      <RentStatusBadges rent={rent} />
      <div>
        <p className="mb-1.5 text-xs font-medium tracking-wide text-muted-foreground uppercase">
          {t('list.receivedSms')}
        </p>
        <RentSms rent={rent} />
        {rent.status_reason && rent.status !== 'active' && rent.order_id && (
          <p className="mt-1.5 text-xs text-muted-foreground">{rent.status_reason}</p>
        )}
      </div>
      <RentAutoRenew rent={rent} actions={actions} />
      <RentActionButtons rent={rent} actions={actions} className="[&>button]:flex-1" />
    </Card>
  );
}

export function RentsPage() {
  const { t } = useTranslation('rentals');
  const wide = useMediaQuery(WIDE_QUERY);
  const rents = useQuery({ ...rentsQuery, refetchInterval: RENTS_REFRESH_MS });
  const cancel = useCancelRent();
  const replace = useReplaceRent();
  const renewal = useRenewRent();
  const autoRenew = useSetAutoRenew();
  const busy: RentActions['busy'] = cancel.isPending
    ? { orderId: cancel.variables, action: 'cancel' }
    : replace.isPending
      ? { orderId: replace.variables, action: 'replace' }
      : renewal.isPending
        ? { orderId: renewal.variables.orderId, action: 'renew' }
        : autoRenew.isPending
          ? { orderId: autoRenew.variables.orderId, action: 'auto-renew' }
          : null;
  const [renewing, setRenewing] = useState<Rent | null>(null);
  const charge = useConfirmCharge();

  // The open detail lives in the address (`?rent=7`), so the Balance page can link straight to it.
  const [searchParams, setSearchParams] = useSearchParams();
  const detailId = Number(searchParams.get('rent')) || null;
  const detailRent = rents.data?.rents.find((rent) => rent.id === detailId);

  const toastFailure = (failure: string) => (error: unknown) => toast.error(errorMessage(error, failure));

  const actions: RentActions = {
    busy,
    onDetails: (rent) => setSearchParams({ rent: String(rent.id) }),
    onCancel: (rent) => void cancelRent(rent),
    onReplace: (rent) => void replaceRent(rent),
    onRenew: (rent) => setRenewing(rent),
    onAutoRenew: (rent, enabled) => void setAutoRenew(rent, enabled),
  };

  // Switching automatic renewal off means the number ends on its date: asked first. Switching on is not.
  async function setAutoRenew(rent: Rent, enabled: boolean) {
    if (
      !enabled &&
      !(await charge.confirm({
        title: t('stopAutoRenew.title'),
        description: t('stopAutoRenew.description', {
          number: formatPhone(rent.number ?? ''),
          date: rent.end_date ? formatDateTime(rent.end_date) : '',
        }),
        action: t('stopAutoRenew.action'),
      }))
    )
      return;
    autoRenew.mutate(
      { orderId: rent.order_id!, enabled },
      { onError: toastFailure(rentMessages.autoRenewFailed) },
    );
  }

  // Cancelling ends the number for good: asked first, with what comes back.
  async function cancelRent(rent: Rent) {
    const confirmed = await charge.confirm({
      title: t('cancelRent.title', { service: rent.service.name }),
      // Cancel is offered once the number is issued (rentCancelBlockedReason).
      description: t('cancelRent.description', { number: formatPhone(rent.number ?? '') }),
      price: formatDollars(rent.price),
      action: t('cancelRent.action'),
      refund: true,
    });
    if (!confirmed) return;
    cancel.mutate(rent.order_id!, {
      onSuccess: () => toast.success(rentMessages.canceled),
      onError: toastFailure(rentMessages.cancelFailed),
    });
  }

  // Replace (spec section 4): asked first, since it rents again; then cancel, then repeat, and no repeat
  // when the cancel fails.
  async function replaceRent(rent: Rent) {
    const confirmed = await charge.confirm({
      title: t('replace.title', { service: rent.service.name }),
      description: t(rent.number ? 'replace.description' : 'replace.descriptionNoNumber', {
        number: rent.number ? formatPhone(rent.number) : '',
        service: serviceInSentence(rent.service.name),
        country: countryName(rent.country_id, rent.country),
        period: displayPeriod(rent.period),
      }),
      price: formatDollars(rent.price),
      action: t('replace.action'),
    });
    if (confirmed) replace.mutate(rent.order_id!);
  }

  function renew(rent: Rent, hours: number) {
    renewal.mutate(
      { orderId: rent.order_id!, hours },
      {
        onSuccess: () => {
          toast.success(rentMessages.renewed);
          setRenewing(null);
        },
        onError: toastFailure(rentMessages.renewFailed),
      },
    );
  }

  const list = rents.data?.rents;
  return (
    <PageContainer>
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <>
            <Button asChild variant="outline">
              <Link to="/dashboard/renewable">{t('list.buyRenewable')}</Link>
            </Button>
            <Button asChild>
              <Link to="/dashboard/longterm">
                <Plus aria-hidden="true" />
                {t('list.rent')}
              </Link>
            </Button>
          </>
        }
      />
      {rents.isPending && (
        <div className="flex flex-col gap-3">
          {SKELETON_ROWS.map((row) => (
            <Skeleton key={row} className="h-32 rounded-xl" />
          ))}
        </div>
      )}
      {rents.isError && !list && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(rents.error, rentMessages.fetchRentsFailed)}</AlertDescription>
        </Alert>
      )}
      {list && list.length === 0 && (
        <div className="flex flex-col items-center rounded-xl border border-dashed bg-white px-6 py-16 text-center">
          <CalendarRange className="size-10 text-indigo-300" aria-hidden="true" />
          <h2 className="mt-4 text-lg font-semibold">{t('list.emptyTitle')}</h2>
          <p className="mt-1 max-w-sm text-sm text-muted-foreground">{t('list.emptyText')}</p>
          <div className="mt-6 flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link to="/dashboard/longterm">{t('list.emptyRent')}</Link>
            </Button>
            <Button asChild variant="outline">
              <Link to="/dashboard/renewable">{t('list.emptyRenewable')}</Link>
            </Button>
          </div>
        </div>
      )}
      {list &&
        list.length > 0 &&
        (wide ? (
          <RentsTable rents={list} actions={actions} />
        ) : (
          <ul aria-label={t('list.label')} className="grid gap-4 sm:grid-cols-2">
            {list.map((rent) => (
              <li key={rent.id} aria-label={rentTitle(rent)}>
                <RentCard rent={rent} actions={actions} />
              </li>
            ))}
          </ul>
        ))}
      <RenewDialog
        rent={renewing}
        busy={busy?.action === 'renew'}
        onClose={() => setRenewing(null)}
        onConfirm={renew}
      />
      {charge.dialog}
      <OrderMoneyDialog
        target={
          detailId === null
            ? null
            : {
                kind: 'rent',
                id: detailId,
                title: detailRent ? rentTitle(detailRent) : t('longTermNumber'),
              }
        }
        onClose={() => setSearchParams({})}
      />
    </PageContainer>
  );
}
