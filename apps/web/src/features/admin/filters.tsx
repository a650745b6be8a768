import { countries, services } from '@simcode/contract';
import { useSearchParams } from 'react-router';
import type { Option } from '@/components/filter-select';
import { locale } from '@/i18n';
import { countryName } from './parts';

const byLabel = (a: Option, b: Option) => a.label.localeCompare(b.label, locale());

export const serviceOptions: Option[] = services
  .map((service) => ({ value: service.code, label: service.name }))
  .sort(byLabel);

/** Countries by their names in the current language, so made when shown. */
export const countryOptions = (): Option[] =>
  countries.map((country) => ({ value: country.id, label: countryName(country.id) })).sort(byLabel);

/**
 * A list's filters kept in the address, so a filtered list can be linked, reloaded and left with the back
 * button. Changing a filter replaces the entry instead of adding one per keystroke.
 */
export function useUrlFilters<Name extends string>(names: readonly Name[]) {
  const [searchParams, setSearchParams] = useSearchParams();
  const filters: Partial<Record<Name, string>> = {};
  for (const name of names) {
    const value = searchParams.get(name);
    if (value) filters[name] = value;
  }
  function update(changes: Partial<Record<Name, string | undefined>>) {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(changes) as [string, string | undefined][]) {
          if (value) next.set(name, value);
          else next.delete(name);
        }
        return next;
      },
      { replace: true },
    );
  }
  return [filters, update] as const;
}
