import type { DashboardCountry } from '@simcode/contract';
import { Globe2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { StepCard } from '@/components/ui/card';
import { locale } from '@/i18n/index';
import { countryName } from '@/lib/names';
import { CountryFlag } from './country-flag';
import { PickList } from './pick-list';
import { matchesSearch } from './search-input';

/** The searchable list of countries of the dashboard, the long-term and the renewable pages. */
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
  // Each country named in the current language (a re-render follows a language change) and in its
  // alphabetical order; a search matches that name, the English one or the dialling code.
  const collator = new Intl.Collator(locale());
  const byId = new Map((countries ?? []).map((country) => [country.id, country]));
  const items = (countries ?? [])
    .map((country) => ({
      id: country.id,
      name: countryName(country.id, country.name),
      leading: <CountryFlag country={country.id} />,
      trailing: <span className="text-xs text-muted-foreground tabular-nums">+{country.dialCode}</span>,
    }))
    .sort((a, b) => collator.compare(a.name, b.name));
  return (
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
