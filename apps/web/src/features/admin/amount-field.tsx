import { ADJUSTMENT_MAX_DOLLARS } from '@simcode/contract';
import { useId } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';

/** Dollars as typed ('5', '5.5', '5.50', '$1,000'): a positive amount with at most two decimals, or null. */
export function parseDollars(text: string): number | null {
  const cleaned = text.trim().replace(/^\$/, '').replaceAll(',', '');
  if (!/^\d+(\.\d{1,2})?$/.test(cleaned)) return null;
  const value = Number(cleaned);
  return value > 0 && value <= ADJUSTMENT_MAX_DOLLARS ? value : null;
}

export const amountProblem = `Enter an amount in dollars above $0.00 and at most $${ADJUSTMENT_MAX_DOLLARS.toLocaleString('en-US')}, with at most two decimals.`;

export function AmountField({
  value,
  onChange,
  label = 'Amount (USD)',
}: {
  value: string;
  onChange(value: string): void;
  label?: string;
}) {
  const id = useId();
  return (
    <Field id={id} label={label}>
      <Input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        placeholder="5.00"
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
