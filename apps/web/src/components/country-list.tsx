import type { DashboardCountry } from '@simcode/contract';
import { Globe2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { StepCard } from '@/components/ui/card';
import { locale } from '@/i18n/index';
import { formatDollars, formatNumber } from '@/lib/format';
import { countryName } from '@/lib/names';
import { useRememberedChoice } from '@/lib/use-remembered-choice';
import { CountryFlag } from './country-flag';
import { PickList } from './pick-list';
import { matchesSearch } from './search-input';
import { SegmentedRadios } from './segmented-radios';

type CountryOrder = 'popular' | 'name';

/** "Popular first" or "A–Z". */
function CountryOrderSwitch({
  order,
  onChange,
}: {
  order: CountryOrder;
  onChange(order: CountryOrder): void;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <SegmentedRadios
      name="country-order"
      legend={t('countries.order')}
      options={[
        { value: 'popular', label: t('countries.popularFirst') },
        { value: 'name', label: t('countries.byName') },
      ]}
      value={order}
      onChange={onChange}
    />
  );
}

/**
 * The searchable list of countries of the dashboard, the long-term and the renewable pages. Where the
 * countries come with their figures (the dashboard's), each shows its lowest price and stock, and the
 * buyer may put the popular ones (SimCode's orders of the week, then stock) first.
 */
function CountryList({
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
  // "Popular first" until this browser chose otherwise.
  const [order, setOrder] = useRememberedChoice<CountryOrder>(
    'country-order',
    ['popular', 'name'],
    'popular',
  );
  const withFigures = (countries ?? []).some((country) => country.stock !== undefined);
  // Each country named in the current language (a re-render follows a language change) and in its
  // alphabetical order; a search matches that name, the English one or the dialling code.
  const collator = new Intl.Collator(locale());
  const byId = new Map((countries ?? []).map((country) => [country.id, country]));
  const popularity = (country: DashboardCountry) => [country.orders ?? 0, country.stock ?? 0] as const;
  const items = (countries ?? [])
    .map((country) => ({
      id: country.id,
      name: countryName(country.id, country.name),
      leading: <CountryFlag country={country.id} />,
      trailing: <span className="text-xs text-muted-foreground tabular-nums">+{country.dialCode}</span>,
      detail: withFigures
        ? country.fromPrice != null
          ? `${t('countries.fromPrice', { price: formatDollars(country.fromPrice) })} · ${t('countries.inStock', { count: formatNumber(country.stock ?? 0) })}`
          : t('countries.outOfStock')
        : undefined,
    }))
    .sort((a, b) => {
      if (withFigures && order === 'popular') {
        const [ordersA, stockA] = popularity(byId.get(a.id)!);
        const [ordersB, stockB] = popularity(byId.get(b.id)!);
        if (ordersA !== ordersB) return ordersB - ordersA;
        if (stockA !== stockB) return stockB - stockA;
      }
      return collator.compare(a.name, b.name);
    });
  return (
    <div className="flex flex-col gap-3">
      {withFigures && <CountryOrderSwitch order={order} onChange={setOrder} />}
      <PickList
        name="country"
        legend={t('countries.legend')}
        searchLabel={t('countries.search')}
        items={items}
        loading={loading}
        selectedId={selectedId}
        matches={(item, query) => {
          const country = byId.get(item.id)!;
          return (
            matchesSearch(item.name, query) ||
            matchesSearch(country.name, query) ||
            country.dialCode.startsWith(query.replace(/^\+/, '').trim())
          );
        }}
        noMatch={(query) => t('countries.noMatch', { query })}
        onSelect={(id) => onSelect(byId.get(id)!)}
      />
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
