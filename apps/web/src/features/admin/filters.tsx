import { countries, services } from '@simcode/contract';
import { useId } from 'react';
import { useSearchParams } from 'react-router';
import { Field } from '@/components/ui/field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { locale } from '@/i18n';
import { countryName } from './parts';

/** A select option has to have a value: this one stands for "no filter". */
const ANY = 'any';

export interface Option {
  value: string;
  label: string;
}

const byLabel = (a: Option, b: Option) => a.label.localeCompare(b.label, locale());

export const serviceOptions: Option[] = services
  .map((service) => ({ value: service.code, label: service.name }))
  .sort(byLabel);

/** Countries by their names in the current language, so made when shown. */
export const countryOptions = (): Option[] =>
  countries.map((country) => ({ value: country.id, label: countryName(country.id) })).sort(byLabel);

/** A labelled choice among options, with an entry for "any" (no filter). */
export function FilterSelect({
  label,
  value,
  onChange,
  options,
  anyLabel,
}: {
  label: string;
  value: string | undefined;
  onChange(value: string | undefined): void;
  options: readonly Option[];
  anyLabel: string;
}) {
  const id = useId();
  return (
    <Field id={id} label={label}>
      <Select value={value ?? ANY} onValueChange={(next) => onChange(next === ANY ? undefined : next)}>
        <SelectTrigger id={id}>
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={ANY}>{anyLabel}</SelectItem>
          {options.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </Field>
  );
}

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
