import { DASHBOARD_LIST_PANE_PX, type DashboardCountry } from '@simcode/contract';
import { Check, Globe2 } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CountryFlag } from '@/components/country-flag';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { StepCard } from '@/components/ui/card';
import { SkeletonRows } from '@/components/ui/skeleton';
import { locale } from '@/i18n';
import { countryName } from '@/lib/names';
import { cn } from '@/lib/utils';
import { matchesSearch, SearchInput } from './search-input';

/**
 * The searchable list of countries of the dashboard, the long-term and the renewable pages: a pane that
 * grows with its rows up to 500 px. A native radio group: one Tab stop, arrow keys move, the choice is
 * announced.
 */
export function CountryList({
  countries,
  loading,
  selectedId,
  onSelect,
}: {
  countries: DashboardCountry[] | undefined;
  loading: boolean;
  selectedId: string | null;
  onSelect(country: DashboardCountry): void;
}) {
  const { t } = useTranslation('dashboard');
  const [query, setQuery] = useState('');
  // Each country named in the current language (a re-render follows a language change) and in its
  // alphabetical order; a search matches that name, the English one or the dialling code.
  const dialQuery = query.replace(/^\+/, '').trim();
  const collator = new Intl.Collator(locale());
  const visible = (countries ?? [])
    .map((country) => ({ country, name: countryName(country.id, country.name) }))
    .sort((a, b) => collator.compare(a.name, b.name))
    .filter(
      ({ country, name }) =>
        matchesSearch(name, query) ||
        matchesSearch(country.name, query) ||
        country.dialCode.startsWith(dialQuery),
    );
  return (
    <div className="flex flex-col gap-3">
      <SearchInput label={t('countries.search')} value={query} onChange={setQuery} />
      {/* Relative: the visually hidden radios are placed inside the pane, so focusing or checking one low
          in the list scrolls the pane, never the page (they are absolutely positioned by sr-only). */}
      <fieldset
        className="relative min-w-0 overflow-y-auto rounded-lg border bg-white"
        style={{ maxHeight: DASHBOARD_LIST_PANE_PX }}
      >
        <legend className="sr-only">{t('countries.legend')}</legend>
        {loading && <SkeletonRows count={9} className="p-3" rowClassName="h-10" />}
        {!loading && visible.length === 0 && (
          <p className="p-6 text-center text-sm text-muted-foreground">{t('countries.noMatch', { query })}</p>
        )}
        <ul className="divide-y">
          {visible.map(({ country, name }) => {
            const selected = country.id === selectedId;
            return (
              <li key={country.id}>
                {/* A native radio group: arrow keys move the choice and assistive technology announces it. */}
                <label
                  className={cn(
                    'relative flex w-full cursor-pointer items-center gap-3 px-3 py-2.5 text-left text-sm transition-colors hover:bg-accent has-[:focus-visible]:bg-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring has-[:focus-visible]:ring-inset',
                    selected && 'bg-secondary font-medium text-secondary-foreground hover:bg-secondary',
                  )}
                >
                  <input
                    type="radio"
                    name="country"
                    value={country.id}
                    checked={selected}
                    onChange={() => onSelect(country)}
                    className="sr-only"
                  />
                  <CountryFlag country={country.id} />
                  <span className="min-w-0 flex-1 truncate">{name}</span>
                  <span className="text-xs text-muted-foreground tabular-nums">+{country.dialCode}</span>
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

/** Step 1 of buying or renting: the country list, or why it could not be loaded. */
export function CountryStep({
  failure,
  ...list
}: React.ComponentProps<typeof CountryList> & {
  /** The text to show instead of the list when the countries could not be loaded. */
  failure: string | null;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <StepCard icon={Globe2} title={t('countries.step')}>
      {failure ? (
        <Alert variant="destructive">
          <AlertDescription>{failure}</AlertDescription>
        </Alert>
      ) : (
        <CountryList {...list} />
      )}
    </StepCard>
  );
}
