import {
  moneyMessages,
  NUMBERS_REFRESH_MS,
  numberMessages,
  type PurchasedNumber,
  serviceDisplayName,
  services,
} from '@simcode/contract';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Inbox, LayoutGrid, Plus, Rows3 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { toast } from 'sonner';
import { useConfirmCharge } from '@/components/confirm-charge';
import { DateRangeFields, isBackwards } from '@/components/date-range-fields';
import { FilterSelect } from '@/components/filter-select';
import { OrderMoneyDialog } from '@/components/orders/order-money-dialog';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { i18n } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { formatDollars, formatPhone } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { useNow } from '@/lib/use-now';
import { useRememberedChoice } from '@/lib/use-remembered-choice';
import { cn } from '@/lib/utils';
import {
  liveNumbersQuery,
  type NumberHistoryFilters,
  numberHistoryQuery,
  useCancelNumber,
  useReplaceNumber,
} from './api';
import { LiveNumbersTable } from './live-table';
import { type NumberActions, NumberCard } from './number-card';

function NumberGrid({
  numbers,
  now,
  actions,
}: {
  numbers: PurchasedNumber[];
  now: number;
  actions: NumberActions;
}) {
  return (
    <ul className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      {numbers.map((number) => (
        <li key={number.id} aria-label={numberTitle(number)}>
          <NumberCard number={number} now={now} actions={actions} />
        </li>
      ))}
    </ul>
  );
}

type LiveView = 'cards' | 'table';
/** Cards or a dense table for the live numbers, as this browser chose last. */
const useLiveView = () => useRememberedChoice<LiveView>('numbers-live-view', ['cards', 'table'], 'cards');

/** Two pressed-state buttons; shown where the table fits (wide screens). */
function LiveViewSwitch({ view, onChange }: { view: LiveView; onChange(view: LiveView): void }) {
  const { t } = useTranslation('numbers');
  return (
    <fieldset className="hidden gap-1 rounded-lg border bg-muted p-1 xl:inline-flex">
      <legend className="sr-only">{t('table.view')}</legend>
      {(['cards', 'table'] as const).map((option) => (
        <Button
          key={option}
          type="button"
          size="sm"
          variant={view === option ? 'outline' : 'ghost'}
          aria-pressed={view === option}
          onClick={() => onChange(option)}
        >
          {option === 'cards' ? <LayoutGrid aria-hidden="true" /> : <Rows3 aria-hidden="true" />}
          {t(option === 'cards' ? 'table.cards' : 'table.rows')}
        </Button>
      ))}
    </fieldset>
  );
}

/** 'Telegram number in United Kingdom', in the current language. */
function numberTitle(number: PurchasedNumber): string {
  return i18n.t('numbers:numberIn', {
    service: number.service_name,
    country: countryName(number.country, number.country_name),
  });
}

const HISTORY_STATUSES = ['completed', 'canceled', 'expired'] as const;
/** The services to filter by, by name in the reader's language ('Any other' is translated; brands are not). */
function servicesByName() {
  return services
    .map((service) => ({ value: service.code, label: serviceDisplayName(service.code) }))
    .sort((a, b) => a.label.localeCompare(b.label));
}

/** Status, service and dates of the history; the server applies them. */
function HistoryFilters({
  value,
  onChange,
}: {
  value: NumberHistoryFilters;
  onChange(filters: NumberHistoryFilters): void;
}) {
  const { t } = useTranslation('numbers');
  return (
    <form
      className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4"
      aria-label={t('history.filters')}
      onSubmit={(event) => event.preventDefault()}
    >
      <FilterSelect
        label={t('history.status')}
        value={value.status}
        onChange={(status) => onChange({ ...value, status: status as NumberHistoryFilters['status'] })}
        options={HISTORY_STATUSES.map((status) => ({ value: status, label: t(`badge.${status}`) }))}
        anyLabel={t('history.allStatuses')}
      />
      <FilterSelect
        label={t('history.service')}
        value={value.service}
        onChange={(service) => onChange({ ...value, service })}
        options={servicesByName()}
        anyLabel={t('history.allServices')}
      />
      <DateRangeFields value={value} onChange={(range) => onChange({ ...value, ...range })} />
    </form>
  );
}

export function NumbersPage() {
  const { t } = useTranslation('numbers');
  const now = useNow();
  // Refresh every 20 s, only while there is something to refresh (spec section 4).
  const live = useQuery({
    ...liveNumbersQuery,
    refetchInterval: (query) => (query.state.data?.numbers.length ? NUMBERS_REFRESH_MS : false),
  });
  const [filters, setFilters] = useState<NumberHistoryFilters>({});
  const filtered = Object.values(filters).some(Boolean);
  const rangeBackwards = isBackwards(filters);
  const history = useInfiniteQuery({ ...numberHistoryQuery(filters), enabled: !rangeBackwards });
  const cancel = useCancelNumber();
  const replace = useReplaceNumber();
  const busy: NumberActions['busy'] = cancel.isPending
    ? { id: cancel.variables, action: 'cancel' }
    : replace.isPending
      ? { id: replace.variables.id, action: 'replace' }
      : null;
  const charge = useConfirmCharge();
  // The open detail lives in the address (`?order=12`), so the Balance page can link straight to it.
  const [searchParams, setSearchParams] = useSearchParams();
  const detailId = Number(searchParams.get('order')) || null;
  const liveList = live.data?.numbers;
  const historyList = history.data?.pages.flatMap((page) => page.numbers);
  const detailNumber = [...(liveList ?? []), ...(historyList ?? [])].find((number) => number.id === detailId);

  function onDetails(number: PurchasedNumber) {
    setSearchParams({ order: String(number.id) });
  }

  function onCancel(number: PurchasedNumber) {
    cancel.mutate(number.id, {
      onSuccess: () => toast.success(numberMessages.canceled),
      onError: (error) => toast.error(errorMessage(error, numberMessages.cancelFailed)),
    });
  }

  // Replace: asked first (it buys again), then cancel, then repeat; a failed cancel stops there.
  async function onReplace(number: PurchasedNumber) {
    const confirmed = await charge.confirm({
      title: t('replace.title', { service: number.service_name }),
      description: t(number.number ? 'replace.description' : 'replace.descriptionNoNumber', {
        number: number.number ? formatPhone(number.number) : '',
        service: serviceInSentence(number.service_name),
        country: countryName(number.country, number.country_name),
      }),
      price: formatDollars(number.price),
      action: t('replace.action'),
    });
    if (confirmed) replace.mutate({ id: number.id, price: number.price });
  }

  const actions: NumberActions = { busy, onCancel, onReplace, onDetails };
  const [liveView, setLiveView] = useLiveView();
  const nothingYet = liveList?.length === 0 && historyList?.length === 0 && !filtered;
  return (
    <PageContainer>
      <PageHeader
        title={t('page.title')}
        description={t('page.description')}
        actions={
          <Button asChild>
            <Link to="/dashboard">
              <Plus aria-hidden="true" />
              {t('page.buy')}
            </Link>
          </Button>
        }
      />
      {live.isPending && (
        <SkeletonRows
          count={4}
          className="grid grid-cols-1 gap-4 lg:grid-cols-2"
          rowClassName="h-52 rounded-xl"
        />
      )}
      {live.isError && !liveList && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(live.error, numberMessages.fetchNumbersFailed)}</AlertDescription>
        </Alert>
      )}
      {nothingYet && (
        <div className="flex flex-col items-center rounded-xl border border-dashed bg-white px-6 py-16 text-center">
          <Inbox className="size-10 text-indigo-300" aria-hidden="true" />
          <h2 className="mt-4 text-lg font-semibold">{t('empty.title')}</h2>
          <p className="mt-1 max-w-sm text-sm text-muted-foreground">{t('empty.text')}</p>
          <Button asChild className="mt-6">
            <Link to="/dashboard">{t('empty.action')}</Link>
          </Button>
        </div>
      )}
      {liveList && !nothingYet && (
        <div className="flex flex-col gap-8">
          {liveList.length > 0 && (
            <section aria-label={t('active')} className="flex flex-col gap-3">
              <div className="flex flex-wrap items-center justify-between gap-2">
                <h2 className="text-lg font-semibold">
                  {t('active')}{' '}
                  <span className="text-sm font-normal text-muted-foreground">({liveList.length})</span>
                </h2>
                <LiveViewSwitch view={liveView} onChange={setLiveView} />
              </div>
              {/* The table is for wide screens: a phone keeps the cards whatever was chosen. */}
              <div className={cn(liveView === 'table' && 'xl:hidden')}>
                <NumberGrid numbers={liveList} now={now} actions={actions} />
              </div>
              {liveView === 'table' && (
                <div className="hidden xl:block">
                  <LiveNumbersTable numbers={liveList} now={now} actions={actions} />
                </div>
              )}
            </section>
          )}
          <section aria-label={t('history.title')} className="flex flex-col gap-3">
            <h2 className="text-lg font-semibold">{t('history.title')}</h2>
            <HistoryFilters value={filters} onChange={setFilters} />
            {rangeBackwards && (
              <Alert variant="destructive">
                <AlertDescription>{moneyMessages.badDateRange}</AlertDescription>
              </Alert>
            )}
            {history.isError && !historyList && (
              <Alert variant="destructive">
                <AlertDescription>
                  {errorMessage(history.error, numberMessages.fetchNumbersFailed)}
                </AlertDescription>
              </Alert>
            )}
            {!rangeBackwards && history.isPending && (
              <SkeletonRows
                count={2}
                className="grid grid-cols-1 gap-4 lg:grid-cols-2"
                rowClassName="h-52 rounded-xl"
              />
            )}
            {historyList && historyList.length === 0 && (
              <p className="rounded-lg border border-dashed px-6 py-10 text-center text-sm text-muted-foreground">
                {filtered ? t('history.noMatch') : t('history.empty')}
              </p>
            )}
            {historyList && historyList.length > 0 && (
              <NumberGrid numbers={historyList} now={now} actions={actions} />
            )}
            {history.hasNextPage && (
              <Button
                variant="outline"
                className="self-center"
                busy={history.isFetchingNextPage}
                onClick={() => void history.fetchNextPage()}
              >
                {t('history.more')}
              </Button>
            )}
          </section>
        </div>
      )}
      {charge.dialog}
      <OrderMoneyDialog
        target={
          detailId === null
            ? null
            : {
                kind: 'number',
                id: detailId,
                title: detailNumber ? numberTitle(detailNumber) : t('oneTimeNumber'),
              }
        }
        onClose={() => setSearchParams({})}
      />
    </PageContainer>
  );
}
