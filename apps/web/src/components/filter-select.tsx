import { useId } from 'react';
import { Field } from '@/components/ui/field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

/** A select option has to have a value: this one stands for "no filter". */
const ANY = 'any';

export interface Option {
  value: string;
  label: string;
}

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
