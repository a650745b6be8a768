import { DASHBOARD_LIST_PANE_PX } from '@simcode/contract';
import { Check } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { SkeletonRows } from '@/components/ui/skeleton';
import { cn } from '@/lib/utils';
import { SearchInput } from './search-input';

interface PickItem {
  id: string;
  /** The row's text, in the reader's language. */
  name: string;
  /** A flag or an icon before the name. */
  leading: ReactNode;
  /** A detail after the name (a dialling code). */
  trailing?: ReactNode;
  /** A line under the name (a country's price and stock). */
  detail?: ReactNode;
}

/**
 * A searchable pick-one list (the countries of the dashboard and the rent pages, the services of the "By
 * service" mode): a pane that grows with its rows up to 500 px. A native radio group: one Tab stop, arrow
 * keys move, the choice is announced.
 */
export function PickList({
  name,
  legend,
  searchLabel,
  items,
  loading,
  selectedId,
  matches,
  noMatch,
  onSelect,
}: {
  /** The radios' form name. */
  name: string;
  legend: string;
  searchLabel: string;
  /** In the order shown. */
  items: PickItem[];
  loading: boolean;
  selectedId: string | null;
  /** Whether an item is found by the search text. */
  matches(item: PickItem, query: string): boolean;
  noMatch(query: string): string;
  onSelect(id: string): void;
}) {
  const [query, setQuery] = useState('');
  const visible = items.filter((item) => matches(item, query));
  return (
    <div className="flex flex-col gap-3">
      <SearchInput label={searchLabel} value={query} onChange={setQuery} />
      {/* Relative: the visually hidden radios are placed inside the pane, so focusing or checking one low
          in the list scrolls the pane, never the page (they are absolutely positioned by sr-only). */}
      <fieldset
        className="relative min-w-0 overflow-y-auto rounded-lg border bg-white"
        style={{ maxHeight: DASHBOARD_LIST_PANE_PX }}
      >
        <legend className="sr-only">{legend}</legend>
        {loading && <SkeletonRows count={9} className="p-3" rowClassName="h-10" />}
        {!loading && visible.length === 0 && (
          <p className="p-6 text-center text-sm text-muted-foreground">{noMatch(query)}</p>
        )}
        <ul className="divide-y">
          {visible.map((item) => {
            const selected = item.id === selectedId;
            return (
              <li key={item.id}>
                <label
                  className={cn(
                    'relative flex w-full cursor-pointer items-center gap-3 px-3 py-2.5 text-left text-sm transition-colors hover:bg-accent has-[:focus-visible]:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-inset',
                    selected && 'bg-secondary font-medium text-secondary-foreground hover:bg-secondary',
                  )}
                >
                  <input
                    type="radio"
                    name={name}
                    value={item.id}
                    checked={selected}
                    onChange={() => onSelect(item.id)}
                    className="sr-only"
                  />
                  {item.leading}
                  <span className="min-w-0 flex-1">
                    <span className="block truncate">{item.name}</span>
                    {item.detail && (
                      <span className="block text-xs font-normal text-muted-foreground tabular-nums">
                        {item.detail}
                      </span>
                    )}
                  </span>
                  {item.trailing}
                  <Check className={cn('size-4 text-primary', !selected && 'invisible')} aria-hidden="true" />
                </label>
              </li>
            );
          })}
        </ul>
      </fieldset>
    </div>
  );
}
