import {
  periodText,
  RENEWABLE_DEFAULT,
  RENEWABLE_UNITS,
  type RenewableUnit,
  renewablePeriodHours,
  renewableUnits,
  rentMessages,
} from '@simcode/contract';
import { ListChecks, Minus, Plus, RefreshCcw } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { cn } from '@/lib/utils';
import { AutoRenewSwitch } from './auto-renew-switch';
import { wholeNumberWithin } from './hours-field';
import { displayPeriod } from './period-text';
import { RentBuilder } from './rent-builder';

/** A count within the unit's bounds (1–7 weeks, 1–3 months), or null. */
function renewableCount(unit: RenewableUnit, input: string): number | null {
  const bounds = RENEWABLE_UNITS[unit];
  return wholeNumberWithin(input, bounds.min, bounds.max);
}

function PeriodControl({
  unit,
  countText,
  onUnit,
  onCount,
  autoRenew,
  onAutoRenew,
}: {
  unit: RenewableUnit;
  countText: string;
  onUnit(unit: RenewableUnit): void;
  onCount(count: string): void;
  autoRenew: boolean;
  onAutoRenew(on: boolean): void;
}) {
  const { t } = useTranslation('rentals');
  const id = useId();
  const bounds = RENEWABLE_UNITS[unit];
  const count = renewableCount(unit, countText);
  const step = (by: number) =>
    onCount(String(Math.min(bounds.max, Math.max(bounds.min, (count ?? bounds.min) + by))));
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium" id={`${id}-unit`}>
          {t('renewable.periodType')}
        </span>
        <div
          role="radiogroup"
          aria-labelledby={`${id}-unit`}
          className="inline-flex w-full max-w-xs rounded-lg border bg-muted p-1"
        >
          {renewableUnits.map((option) => (
            <label
              key={option}
              className={cn(
                'relative flex-1 cursor-pointer rounded-md px-3 py-1.5 text-center text-sm font-medium transition-colors has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring',
                unit === option
                  ? 'bg-white text-foreground shadow-sm'
                  : 'text-muted-foreground hover:text-foreground',
              )}
            >
              <input
                type="radio"
                name={`${id}-unit`}
                value={option}
                checked={unit === option}
                onChange={() => onUnit(option)}
                className="sr-only"
              />
              {t(`renewable.units.${option}`)}
            </label>
          ))}
        </div>
      </div>

      <div className="flex flex-col gap-2">
        <Label htmlFor={`${id}-count`}>{t(`renewable.count.${unit}`)}</Label>
        <div className="flex items-center gap-2">
          <Button
            type="button"
            variant="outline"
            size="icon"
            onClick={() => step(-1)}
            disabled={count !== null && count <= bounds.min}
            aria-label={t(`renewable.less.${unit}`)}
          >
            <Minus aria-hidden="true" />
          </Button>
          <Input
            id={`${id}-count`}
            type="number"
            inputMode="numeric"
            min={bounds.min}
            max={bounds.max}
            step={1}
            value={countText}
            onChange={(event) => onCount(event.target.value)}
            aria-invalid={count === null || undefined}
            aria-describedby={`${id}-hint`}
            className="w-20 text-center text-lg font-semibold tabular-nums"
          />
          <Button
            type="button"
            variant="outline"
            size="icon"
            onClick={() => step(1)}
            disabled={count !== null && count >= bounds.max}
            aria-label={t(`renewable.more.${unit}`)}
          >
            <Plus aria-hidden="true" />
          </Button>
        </div>
        <p
          id={`${id}-hint`}
          className={cn('text-sm', count === null ? 'text-destructive' : 'text-muted-foreground')}
        >
          {t(count === null ? `renewable.enterRange.${unit}` : `renewable.range.${unit}`, {
            min: bounds.min,
            max: bounds.max,
          })}
        </p>
      </div>

      <p
        className="rounded-lg bg-secondary px-3 py-2.5 text-sm text-secondary-foreground"
        aria-live="polite"
        data-testid="renewable-period"
      >
        {count === null ? (
          t('renewable.invalidPeriod')
        ) : (
          <>
            {t('renewable.period')} <strong>{displayPeriod(periodText(unit, count))}</strong> ={' '}
            <strong className="tabular-nums">
              {t('period.hour', { count: renewablePeriodHours(unit, count) })}
            </strong>
          </>
        )}
      </p>

      <div className="flex flex-col gap-1.5 rounded-lg border p-3">
        <AutoRenewSwitch
          id={`${id}-auto`}
          checked={autoRenew}
          onCheckedChange={onAutoRenew}
          label={t('renewable.autoRenew')}
        />
        <p className="flex gap-1.5 text-xs text-muted-foreground">
          <RefreshCcw className="mt-0.5 size-3 shrink-0" aria-hidden="true" />
          {t('renewable.autoRenewHint')}
        </p>
      </div>
    </div>
  );
}

export function RenewablePage() {
  const [unit, setUnit] = useState<RenewableUnit>(RENEWABLE_DEFAULT.unit);
  const [countText, setCountText] = useState(String(RENEWABLE_DEFAULT.count));
  // A choice, not a default: the confirmation then says it renews, with the price.
  const [autoRenew, setAutoRenew] = useState(false);
  const { t } = useTranslation('rentals');
  const count = renewableCount(unit, countText);

  function changeUnit(next: RenewableUnit) {
    setUnit(next);
    // Keep the count when the new unit allows it (2 weeks → 2 months), else its largest.
    if (renewableCount(next, countText) === null)
      setCountText(String(Math.min(RENEWABLE_UNITS[next].max, Math.max(1, Number(countText) || 1))));
  }

  return (
    <PageContainer>
      <PageHeader
        title={t('renewable.title')}
        description={t('renewable.description')}
        beta
        actions={
          <Button asChild variant="outline">
            <Link to="/dashboard/longterm/numbers">
              <ListChecks aria-hidden="true" />
              {t('myLongTerm')}
            </Link>
          </Button>
        }
      />
      <RentBuilder
        period={
          count === null ? null : { text: periodText(unit, count), hours: renewablePeriodHours(unit, count) }
        }
        periodTitle={t('choosePeriod')}
        periodControl={
          <PeriodControl
            unit={unit}
            countText={countText}
            onUnit={changeUnit}
            onCount={setCountText}
            autoRenew={autoRenew}
            onAutoRenew={setAutoRenew}
          />
        }
        successMessage={rentMessages.renewableRented}
        autoRenew={autoRenew}
      />
    </PageContainer>
  );
}
