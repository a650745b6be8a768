import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

export interface DateRange {
  /** `YYYY-MM-DD`, UTC days, both included. */
  from?: string;
  to?: string;
}

/** Whether the range ends before it starts (the server refuses it, so the pages do not ask). */
export function isBackwards(range: DateRange): boolean {
  return !!range.from && !!range.to && range.from > range.to;
}

/** From and To date inputs for a list's filters; the days are UTC days, as the API reads them. */
export function DateRangeFields({ value, onChange }: { value: DateRange; onChange(range: DateRange): void }) {
  const fromId = useId();
  const toId = useId();
  const { t } = useTranslation('common');
  return (
    <>
      <Field id={fromId} label={t('dateRange.from')}>
        <Input
          id={fromId}
          type="date"
          value={value.from ?? ''}
          onChange={(event) => onChange({ ...value, from: event.target.value || undefined })}
        />
      </Field>
      <Field id={toId} label={t('dateRange.to')}>
        <Input
          id={toId}
          type="date"
          value={value.to ?? ''}
          aria-invalid={isBackwards(value) || undefined}
          onChange={(event) => onChange({ ...value, to: event.target.value || undefined })}
        />
      </Field>
    </>
  );
}
