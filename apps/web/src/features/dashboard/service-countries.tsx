import { DASHBOARD_LIST_PANE_PX, type ServiceCountryOffer } from '@simcode/contract';
import { ArrowDown, ArrowUp, ArrowUpDown, ShoppingCart } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryFlag } from '@/components/country-flag';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SkeletonRows } from '@/components/ui/skeleton';
import { locale } from '@/i18n';
import { formatDollars, formatNumber } from '@/lib/format';
import { countryName, serviceInSentence } from '@/lib/names';
import { useRovingFocus } from '@/lib/use-roving-focus';
import { cn } from '@/lib/utils';
import { deliveryDescription, deliveryRate, rateText, secondsToCode, timeToCodeText } from './delivery';
import {
  clearsFloor,
  DELIVERY_FLOORS,
  type DeliveryFloor,
  setDeliveryFloor,
  useDeliveryFloor,
} from './delivery-floor';
import { FavouriteStar } from './favourites';

type SortKey = 'country' | 'price' | 'stock' | 'rate' | 'time';
type Direction = 'asc' | 'desc';
interface Sort {
  key: SortKey;
  direction: Direction;
}

/** The first click on a column sorts the way a buyer wants it: cheapest, most stock, best rate, quickest. */
const FIRST_DIRECTION: Record<SortKey, Direction> = {
  country: 'asc',
  price: 'asc',
  stock: 'desc',
  rate: 'desc',
  time: 'asc',
};

type Row = ServiceCountryOffer & { displayName: string };

/** A row's value for a column; null (a new offer's figures) sorts last either way. */
function sortValue(row: Row, key: Exclude<SortKey, 'country'>): number | null {
  if (key === 'price') return row.price;
  if (key === 'stock') return row.stock;
  if (key === 'rate') return deliveryRate(row.delivery);
  return secondsToCode(row.delivery);
}

function sortRows(rows: Row[], sort: Sort): Row[] {
  const collator = new Intl.Collator(locale());
  const sign = sort.direction === 'asc' ? 1 : -1;
  const byName = (a: Row, b: Row) => collator.compare(a.displayName, b.displayName);
  if (sort.key === 'country') return [...rows].sort((a, b) => sign * byName(a, b));
  const key = sort.key;
  return [...rows].sort((a, b) => {
    const left = sortValue(a, key);
    const right = sortValue(b, key);
    if (left === null || right === null) return left === right ? byName(a, b) : left === null ? 1 : -1;
    return sign * (left - right) || byName(a, b);
  });
}

/** The columns sorted as numbers, right-aligned; their headers are named by `byService.<column>`. */
const NUMERIC_COLUMNS = ['price', 'stock', 'rate', 'time'] as const satisfies readonly SortKey[];

function SortHeader({
  column,
  label,
  sort,
  onSort,
  className,
}: {
  column: SortKey;
  label: string;
  sort: Sort;
  onSort(key: SortKey): void;
  className?: string;
}) {
  const { t } = useTranslation('dashboard');
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
      className={cn('px-1 py-1 text-left font-medium sm:px-2', className)}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        title={t('byService.sortBy', { column: label })}
        className={cn(
          'inline-flex cursor-pointer items-center gap-1 rounded-md px-2 py-1.5 text-xs font-semibold tracking-wide whitespace-nowrap uppercase transition-colors hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring',
          active ? 'bg-secondary text-secondary-foreground sm:bg-transparent' : 'text-muted-foreground',
        )}
      >
        {label}
        <Icon className="size-3.5" aria-hidden="true" />
      </button>
    </th>
  );
}

/**
 * Every country selling one service, with price, stock and SimCode's own delivery figures, sortable by
 * each. A table on a wide screen; on a phone each row is a card and the column headers a row of sort
 * buttons, so nothing scrolls sideways.
 */
export function ServiceCountries({
  service,
  countries,
  loading,
  buyingCountry,
  onBuy,
}: {
  service: { id: string; name: string };
  countries: ServiceCountryOffer[] | undefined;
  loading: boolean;
  /** The country whose Buy is running: its button is busy and the others wait. */
  buyingCountry: string | null;
  onBuy(offer: ServiceCountryOffer): void;
}) {
  const { t } = useTranslation('dashboard');
  const [sort, setSort] = useState<Sort>({ key: 'country', direction: 'asc' });
  const floor = useDeliveryFloor();
  const offered = countries ?? [];
  const rows = sortRows(
    offered
      .filter((offer) => clearsFloor(offer.delivery, floor))
      .map((offer) => ({ ...offer, displayName: countryName(offer.countryID, offer.name) })),
    sort,
  );
  const hidden = offered.length - rows.length;
  const isDisabled = (row: Row) =>
    row.stock <= 0 || (buyingCountry !== null && buyingCountry !== row.countryID);
  // As in the country mode: one Tab stop on the first Buy, the arrows along a column or across a row.
  const roving = useRovingFocus([
    ...rows.filter((row) => !isDisabled(row)).map((row) => row.countryID),
    ...rows.map((row) => `star:${row.countryID}`),
  ]);

  function onSort(key: SortKey) {
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === 'asc' ? 'desc' : 'asc' }
        : { key, direction: FIRST_DIRECTION[key] },
    );
  }

  if (!loading && countries?.length === 0) {
    return (
      <p className="rounded-lg border p-6 text-center text-sm text-muted-foreground">
        {t('byService.noneOnSale', { service: service.name })}
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-2">
      <FloorChoice floor={floor} hidden={hidden} />
      <div
        className="relative overflow-y-auto rounded-lg border bg-white"
        style={{ maxHeight: DASHBOARD_LIST_PANE_PX }}
      >
        <table
          className="w-full text-sm max-sm:block"
          aria-label={t('byService.table', { service: service.name })}
        >
          <thead className="sticky top-0 z-10 border-b bg-white max-sm:block">
            <tr className="max-sm:flex max-sm:flex-wrap max-sm:gap-1 max-sm:p-2">
              <SortHeader column="country" label={t('byService.country')} sort={sort} onSort={onSort} />
              {NUMERIC_COLUMNS.map((column) => (
                <SortHeader
                  key={column}
                  column={column}
                  label={t(`byService.${column}`)}
                  sort={sort}
                  onSort={onSort}
                  className="sm:text-right"
                />
              ))}
              <th scope="col" className="max-sm:hidden">
                <span className="sr-only">{t('byService.actions')}</span>
              </th>
            </tr>
          </thead>
          <tbody className="divide-y max-sm:block" {...roving.listProps}>
            {loading && (
              <tr className="max-sm:block">
                <td colSpan={6} className="max-sm:block">
                  <SkeletonRows count={8} className="p-3" rowClassName="h-10" />
                </td>
              </tr>
            )}
            {rows.map((row) => {
              const outOfStock = row.stock <= 0;
              const time = timeToCodeText(row.delivery);
              return (
                <tr
                  key={row.countryID}
                  data-testid="service-country"
                  className="max-sm:grid max-sm:grid-cols-[minmax(0,1fr)_auto] max-sm:items-center max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2.5"
                >
                  <th scope="row" className="px-3 py-2 text-left font-medium max-sm:p-0">
                    <span className="flex min-w-0 items-center gap-2">
                      <CountryFlag country={row.countryID} />
                      <span className="min-w-0 break-words">{row.displayName}</span>
                    </span>
                  </th>
                  <td
                    className="px-3 py-2 text-right font-semibold tabular-nums max-sm:p-0"
                    data-testid="price"
                  >
                    {formatDollars(row.price)}
                  </td>
                  <td className="px-3 py-2 text-right tabular-nums max-sm:col-start-1 max-sm:p-0 max-sm:text-left max-sm:text-xs max-sm:text-muted-foreground">
                    {outOfStock ? (
                      <Badge variant="muted" className="px-1.5 py-0">
                        {t('services.outOfStock')}
                      </Badge>
                    ) : (
                      <>
                        <span className="sm:hidden">{t('byService.stock')}: </span>
                        {formatNumber(row.stock)}
                      </>
                    )}
                  </td>
                  <td
                    className="px-3 py-2 text-right whitespace-nowrap tabular-nums max-sm:col-start-1 max-sm:p-0 max-sm:text-left max-sm:text-xs"
                    title={deliveryDescription(row.delivery)}
                  >
                    <span className="text-muted-foreground sm:hidden">{t('byService.rate')}: </span>
                    <span
                      className={
                        deliveryRate(row.delivery) === null
                          ? 'text-muted-foreground italic'
                          : 'text-green-700'
                      }
                    >
                      {rateText(row.delivery)}
                    </span>
                    {/* On a phone the time follows the rate on the same line. */}
                    {time && <span className="text-muted-foreground sm:hidden"> · {time}</span>}
                  </td>
                  <td className="px-3 py-2 text-right whitespace-nowrap text-muted-foreground tabular-nums max-sm:hidden">
                    {time ?? '—'}
                  </td>
                  <td className="px-3 py-2 max-sm:col-start-2 max-sm:row-start-2 max-sm:row-span-2 max-sm:p-0">
                    <span className="flex items-center justify-end gap-1">
                      <FavouriteStar
                        favouriteKey={{ service: service.id, countryID: row.countryID }}
                        label={t('favourites.pair', { service: service.name, country: row.displayName })}
                        {...roving.itemProps(`star:${row.countryID}`, 'star')}
                      />
                      <Button
                        size="sm"
                        onClick={() => onBuy(row)}
                        disabled={isDisabled(row)}
                        busy={buyingCountry === row.countryID}
                        aria-label={t('byService.buyLabel', {
                          service: serviceInSentence(service.name),
                          country: row.displayName,
                          price: formatDollars(row.price),
                        })}
                        {...roving.itemProps(row.countryID, 'buy')}
                      >
                        {buyingCountry !== row.countryID && <ShoppingCart aria-hidden="true" />}
                        {t('services.buy')}
                      </Button>
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** The buyer's minimum delivery rate (remembered in this browser) and how many offers it hides. */
function FloorChoice({ floor, hidden }: { floor: DeliveryFloor; hidden: number }) {
  const { t } = useTranslation('dashboard');
  const selectId = useId();
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <label htmlFor={selectId} className="font-medium">
        {t('byService.minRate')}
      </label>
      <select
        id={selectId}
        value={floor ?? ''}
        onChange={(event) =>
          setDeliveryFloor(DELIVERY_FLOORS.find((choice) => String(choice) === event.target.value) ?? null)
        }
        className="h-9 rounded-md border border-input bg-background px-2 text-sm"
      >
        <option value="">{t('byService.minRateAny')}</option>
        {DELIVERY_FLOORS.map((choice) => (
          <option key={choice} value={choice}>
            {t('byService.minRateAtLeast', { rate: choice })}
          </option>
        ))}
      </select>
      {floor !== null && hidden > 0 && (
        <p className="text-muted-foreground" role="status" data-testid="hidden-offers">
          {t('byService.hiddenBelow', { count: hidden, rate: floor })}
        </p>
      )}
    </div>
  );
}
