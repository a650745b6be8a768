import { ADJUSTMENT_MAX_DOLLARS } from '@simcode/contract';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { i18n } from '@/i18n';
import { formatNumber } from '@/lib/format';

/**
 * Dollars as typed ('5', '5.5', '5.50', '$1,000', and '5,50' as Russian writes it): a positive amount with
 * at most two decimals, or null. A comma before one or two final digits is a decimal comma; any other comma
 * groups thousands.
 */
export function parseDollars(text: string): number | null {
  const trimmed = text.trim().replace(/^\$/, '');
  const cleaned = /^\d+,\d{1,2}$/.test(trimmed) ? trimmed.replace(',', '.') : trimmed.replaceAll(',', '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return value > 0 && value <= ADJUSTMENT_MAX_DOLLARS ? value : null;
}

/** What is wrong with an amount parseDollars refuses, in the current language. */
export const amountProblem = () =>
  i18n.t('admin:amount.problem', { max: formatNumber(ADJUSTMENT_MAX_DOLLARS) });

export function AmountField({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange(value: string): void;
  label?: string;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  return (
    <Field id={id} label={label ?? t('amount.label')}>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        placeholder={t('amount.placeholder')}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
