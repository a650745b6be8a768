import { checkTopupAmount, formatCents, MIN_TOPUP_CENTS, QUICK_TOPUP_AMOUNTS_CENTS } from '@simcode/contract';
import { ShieldCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { locale } from '@/i18n';
import { cn } from '@/lib/utils';

interface AmountFormProps {
  /** The largest amount the server accepts, in cents; unknown until the list has loaded. */
  maxCents: number | undefined;
  busy: boolean;
  /** A payment is being followed: a new one waits until it is done or dismissed. */
  disabled: boolean;
  /** The server's refusal of the last attempt, shown under the field. */
  serverError: string | null;
  /** The brand of the provider the payment goes to ('Cryptomus'), named under the button. */
  providerBrand: string;
  onDeposit(amountCents: number): void;
}

/** Until the server has said its maximum, only the minimum and the decimals are judged here. */
const UNKNOWN_MAX_CENTS = Number.MAX_SAFE_INTEGER;

/** A quick amount in whole dollars, as the language writes it: '$25', '25 $'. */
function wholeDollars(cents: number): string {
  return new Intl.NumberFormat(locale(), {
    style: 'currency',
    currency: 'USD',
    maximumFractionDigits: 0,
  }).format(cents / 100);
}

/** The field's example amount as the language writes a number: '25.00', '25,00'. */
function exampleAmount(): string {
  return new Intl.NumberFormat(locale(), { minimumFractionDigits: 2, useGrouping: false }).format(25);
}

/** The amount field with quick amounts, the spec's validation text, and the Deposit button. */
export function AmountForm({
  maxCents,
  busy,
  disabled,
  serverError,
  providerBrand,
  onDeposit,
}: AmountFormProps) {
  const { t } = useTranslation('topup');
  const [text, setText] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const inputId = useId();
  const hintId = useId();
  const errorId = useId();
  const check = checkTopupAmount(text, maxCents ?? UNKNOWN_MAX_CENTS);
  // Judged once the user tried to deposit, then live as they correct it.
  const error = submitted ? (check.error ?? serverError) : serverError;

  function submit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (check.amountCents !== undefined) onDeposit(check.amountCents);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-5" aria-label={t('form.label')}>
      <div className="flex flex-col gap-2">
        <Label htmlFor={inputId}>{t('form.amount')}</Label>
        <div className="relative">
          <span
            className="pointer-events-none absolute inset-y-0 left-3 flex items-center text-lg font-semibold text-muted-foreground"
            aria-hidden="true"
          >
            $
          </span>
          <Input
            id={inputId}
            type="number"
            inputMode="decimal"
            step="0.01"
            min={MIN_TOPUP_CENTS / 100}
            max={maxCents === undefined ? undefined : maxCents / 100}
            placeholder={exampleAmount()}
            autoComplete="off"
            value={text}
            onChange={(event) => setText(event.target.value)}
            disabled={disabled}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${errorId} ${hintId}` : hintId}
            className="h-14 [appearance:textfield] pl-8 text-2xl font-semibold tabular-nums placeholder:text-slate-300 md:text-2xl [&::-webkit-inner-spin-button]:appearance-none [&::-webkit-outer-spin-button]:appearance-none"
          />
        </div>
        {error && (
          <p id={errorId} role="alert" className="text-sm font-medium text-destructive">
            {error}
          </p>
        )}
        <p id={hintId} className="text-xs text-muted-foreground">
          {maxCents === undefined
            ? t('form.limits', { min: formatCents(MIN_TOPUP_CENTS) })
            : t('form.limitsWithMax', { min: formatCents(MIN_TOPUP_CENTS), max: formatCents(maxCents) })}
        </p>
      </div>

      <fieldset className="flex flex-col gap-2" disabled={disabled}>
        <legend className="mb-2 text-sm font-medium">{t('form.quickAmounts')}</legend>
        <div className="grid grid-cols-5 gap-2">
          {QUICK_TOPUP_AMOUNTS_CENTS.map((cents) => {
            const selected = check.amountCents === cents;
            return (
              <button
                key={cents}
                type="button"
                aria-pressed={selected}
                onClick={() => setText((cents / 100).toFixed(2))}
                className={cn(
                  'h-11 cursor-pointer rounded-lg border text-sm font-semibold tabular-nums transition-colors hover:border-primary hover:bg-secondary disabled:cursor-not-allowed disabled:opacity-55',
                  selected ? 'border-primary bg-secondary text-primary ring-1 ring-primary' : 'bg-background',
                )}
              >
                {wholeDollars(cents)}
              </button>
            );
          })}
        </div>
      </fieldset>

      <Button type="submit" size="lg" busy={busy} disabled={disabled} className="h-12 w-full text-base">
        {busy
          ? t('form.creating')
          : check.amountCents !== undefined
            ? t('form.depositAmount', { amount: formatCents(check.amountCents) })
            : t('form.deposit')}
      </Button>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <ShieldCheck className="mt-px size-4 shrink-0 text-success" aria-hidden="true" />
        {t('form.secure', { provider: providerBrand })}
      </p>
    </form>
  );
}
