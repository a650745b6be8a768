import { DASHBOARD_LIST_PANE_PX, type RentServiceOffer } from '@simcode/contract';
import { Check } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { matchesSearch, SearchInput } from '@/components/search-input';
import { ServiceIcon } from '@/components/service-icon';
import { Badge } from '@/components/ui/badge';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDollars, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';

const SKELETON_ROWS = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];

export type RentServiceEntry = RentServiceOffer & { key: string };

/** The rentable services of a country with the price for the period and the stock; one is chosen (a radio group). */
export function RentServiceList({
  services,
  loading,
  selectedKey,
  onSelect,
  periodLabel,
}: {
  services: RentServiceEntry[] | undefined;
  loading: boolean;
  selectedKey: string | null;
  onSelect(service: RentServiceEntry): void;
  /** The period the prices are for, said beside each price (in the current language). */
  periodLabel: string;
}) {
  const { t } = useTranslation('rentals');
  const [query, setQuery] = useState('');
  const radioName = useId();
  const visible = useMemo(
    () => (services ?? []).filter((service) => matchesSearch(service.name, query)),
    [services, query],
  );
  return (
    <div className="flex flex-col gap-3">
      <SearchInput label={t('services.search')} value={query} onChange={setQuery} />
      <div
        role="radiogroup"
        aria-label={t('services.group')}
        className="relative overflow-y-auto rounded-lg border bg-white"
        style={{ maxHeight: DASHBOARD_LIST_PANE_PX }}
      >
        {loading && (
          <div className="flex flex-col gap-2 p-3">
            {SKELETON_ROWS.map((row) => (
              <Skeleton key={row} className="h-12" />
            ))}
          </div>
        )}
        {!loading && services && visible.length === 0 && (
          <p className="p-6 text-center text-sm text-muted-foreground">
            {services.length === 0 ? t('services.none') : t('services.noMatch', { query })}
          </p>
        )}
        <ul className="divide-y">
          {visible.map((service) => {
            const selected = service.key === selectedKey;
            const outOfStock = service.count <= 0;
            return (
              <li key={service.key}>
                {/* A real radio per row: arrow keys move through the list, the row is its label. */}
                <label
                  className={cn(
                    'relative flex w-full cursor-pointer items-center gap-3 px-3 py-2.5 text-left transition-colors hover:bg-accent has-[:focus-visible]:bg-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:-outline-offset-2 has-[:focus-visible]:outline-ring has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60',
                    selected && 'bg-secondary hover:bg-secondary',
                  )}
                >
                  <input
                    type="radio"
                    name={radioName}
                    value={service.key}
                    checked={selected}
                    disabled={outOfStock}
                    onChange={() => onSelect(service)}
                    aria-label={t(outOfStock ? 'services.optionOutOfStock' : 'services.option', {
                      service: service.name,
                      price: formatDollars(service.price),
                      period: periodLabel,
                    })}
                    className="sr-only"
                  />
                  <ServiceIcon name={service.name} icon={service.img} size="sm" />
                  <span className="min-w-0 flex-1">
                    <span
                      className={cn(
                        'block text-sm break-words',
                        selected ? 'font-semibold text-secondary-foreground' : 'font-medium',
                      )}
                    >
                      {service.name}
                    </span>
                    <span className="block text-xs text-muted-foreground">
                      {outOfStock ? (
                        <Badge variant="muted" className="px-1.5 py-0">
                          {t('services.outOfStock')}
                        </Badge>
                      ) : (
                        t('services.available', { count: service.count, number: formatNumber(service.count) })
                      )}
                    </span>
                  </span>
                  <span className="text-sm font-semibold tabular-nums">{formatDollars(service.price)}</span>
                  <Check
                    className={cn('size-4 shrink-0 text-primary', !selected && 'invisible')}
                    aria-hidden="true"
                  />
                </label>
              </li>
            );
          })}
        </ul>
      </div>
    </div>
  );
}
