import { Search, SlidersHorizontal, X } from 'lucide-react';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateRangeFields } from '@/components/date-range-fields';
import { FilterSelect, type Option } from '@/components/filter-select';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';
import { countryOptions, serviceOptions } from './filters';

/** The filters of the one-time orders and of the rents, as the address holds them. */
interface PurchaseFilterValues {
  q?: string;
  status?: string;
  service?: string;
  country?: string;
  provider?: string;
  user_id?: string;
  from?: string;
  to?: string;
  problem?: 'true';
}

/**
 * Search a list of purchases (orders, rents): the text filters wait for Search, the choices apply at once.
 * On a phone all but the search box fold behind a button.
 */
export function PurchaseFilters({
  label,
  qLabel,
  names,
  statusOptions,
  filters,
  update,
}: {
  /** The form's accessible name ('Filter orders'). */
  label: string;
  /** The search box's label ('Phone or order id'). */
  qLabel: string;
  /** Every filter the list has: 'problem' adds the Problems only box. */
  names: readonly (keyof PurchaseFilterValues)[];
  statusOptions: readonly Option[];
  filters: PurchaseFilterValues;
  update(changes: Partial<PurchaseFilterValues>): void;
}) {
  const { t } = useTranslation('admin');
  const qId = useId();
  const providerId = useId();
  const userId = useId();
  const problemId = useId();
  const moreId = useId();
  const [moreOpen, setMoreOpen] = useState(false);
  const moreSet = names.filter((name) => name !== 'q' && name !== 'problem' && filters[name]).length;
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

  const anySet = names.some((name) => filters[name]);
  return (
    // biome-ignore lint/a11y/useSemanticElements: <search> is from 2023 and unknown to the tests' DOM; the role works everywhere.
    <form role="search" aria-label={label} onSubmit={submit} className="flex flex-col gap-3">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <Field id={qId} label={qLabel}>
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
            label={t('filters.status')}
            value={filters.status}
            onChange={(status) => update({ status })}
            options={statusOptions}
            anyLabel={t('filters.anyStatus')}
          />
          <FilterSelect
            label={t('filters.service')}
            value={filters.service}
            onChange={(service) => update({ service })}
            options={serviceOptions}
            anyLabel={t('filters.anyService')}
          />
          <FilterSelect
            label={t('filters.country')}
            value={filters.country}
            onChange={(country) => update({ country })}
            options={countryOptions()}
            anyLabel={t('filters.anyCountry')}
          />
          <Field id={providerId} label={t('filters.provider')}>
            <Input
              id={providerId}
              value={text.provider}
              onChange={(event) => setText({ ...text, provider: event.target.value })}
            />
          </Field>
          <Field
            id={userId}
            label={t('filters.userId')}
            below={!userIdValid && <p className="text-sm text-destructive">{t('filters.userIdInvalid')}</p>}
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
          {moreOpen
            ? t('filters.fewer')
            : moreSet
              ? t('filters.moreSet', { count: moreSet })
              : t('filters.more')}
        </Button>
        {names.includes('problem') && (
          <label htmlFor={problemId} className="flex cursor-pointer items-center gap-2 text-sm font-medium">
            <input
              id={problemId}
              type="checkbox"
              checked={filters.problem === 'true'}
              onChange={(event) => update({ problem: event.target.checked ? 'true' : undefined })}
              className="size-4 accent-primary"
            />
            {t('filters.problemsOnly')}
          </label>
        )}
        <span className="mr-auto" />
        {anySet && (
          <Button
            type="button"
            variant="ghost"
            onClick={() => update(Object.fromEntries(names.map((name) => [name, undefined])))}
          >
            <X aria-hidden="true" />
            {t('filters.clear')}
          </Button>
        )}
        <Button type="submit">
          <Search aria-hidden="true" />
          {t('search.button')}
        </Button>
      </div>
    </form>
  );
}
