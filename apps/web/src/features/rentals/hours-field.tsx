import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { cn } from '@/lib/utils';

/** The whole number typed in a box when it lies within the bounds, or null. */
export function wholeNumberWithin(input: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(input.trim())) return null;
  const value = Number(input);
  return value >= min && value <= max ? value : null;
}

/**
 * "Period in hours" for a long-term rent and for a renewal: the box, its bounds, and a line under it that
 * states the rule and turns red while the text breaks it.
 */
export function HoursField({
  value,
  onChange,
  minHours,
  maxHours,
  rangeHint,
  autoFocus,
}: {
  value: string;
  onChange(value: string): void;
  minHours: number;
  maxHours: number;
  /** The line shown while the value is valid. */
  rangeHint: string;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation('rentals');
  const id = useId();
  const valid = wholeNumberWithin(value, minHours, maxHours) !== null;
  return (
    <Field
      id={id}
      label={t('hours.label')}
      below={
        <p id={`${id}-hint`} className={cn('text-sm', valid ? 'text-muted-foreground' : 'text-destructive')}>
          {value === ''
            ? t('hours.empty')
            : valid
              ? rangeHint
              : t('hours.invalid', { min: minHours, max: maxHours })}
        </p>
      }
    >
      <div className="relative max-w-xs">
        <Input
          id={id}
          type="number"
          inputMode="numeric"
          min={minHours}
          max={maxHours}
          step={1}
          required
          autoFocus={autoFocus}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={!valid || undefined}
          aria-describedby={`${id}-hint`}
          className="pr-16 text-lg font-semibold tabular-nums"
        />
        <span className="pointer-events-none absolute top-1/2 right-3 -translate-y-1/2 text-sm text-muted-foreground">
          {t('hours.unit')}
        </span>
      </div>
    </Field>
  );
}
