import {
  LONG_TERM_DEFAULT_HOURS,
  LONG_TERM_EXAMPLES,
  LONG_TERM_MAX_HOURS,
  LONG_TERM_MIN_HOURS,
  periodText,
  rentMessages,
} from '@simcode/contract';
import { ListChecks } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { HoursField, wholeNumberWithin } from './hours-field';
import { displayPeriod } from './period-text';
import { RentBuilder } from './rent-builder';

const longTermHours = (input: string) => wholeNumberWithin(input, LONG_TERM_MIN_HOURS, LONG_TERM_MAX_HOURS);

function HoursInput({ value, onChange }: { value: string; onChange(value: string): void }) {
  const { t } = useTranslation('rentals');
  const hours = longTermHours(value);
  return (
    <div className="flex flex-col gap-3">
      <HoursField
        value={value}
        onChange={onChange}
        minHours={LONG_TERM_MIN_HOURS}
        maxHours={LONG_TERM_MAX_HOURS}
        rangeHint={t('longTerm.range', { min: LONG_TERM_MIN_HOURS, max: LONG_TERM_MAX_HOURS })}
      />
      <fieldset className="flex flex-wrap gap-2">
        <legend className="sr-only">{t('longTerm.examples')}</legend>
        {LONG_TERM_EXAMPLES.map((example) => {
          const active = hours === example.hours;
          return (
            <Button
              key={example.hours}
              type="button"
              size="sm"
              variant={active ? 'default' : 'outline'}
              aria-pressed={active}
              onClick={() => onChange(String(example.hours))}
              className="tabular-nums"
            >
              {t('longTerm.example', { hours: example.hours, period: displayPeriod(example.label) })}
            </Button>
          );
        })}
      </fieldset>
    </div>
  );
}

export function RentPage() {
  const [hoursText, setHoursText] = useState(String(LONG_TERM_DEFAULT_HOURS));
  const { t } = useTranslation('rentals');
  const hours = longTermHours(hoursText);
  return (
    <PageContainer>
      <PageHeader
        title={t('longTerm.title')}
        description={t('longTerm.description')}
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
        period={hours === null ? null : { text: periodText('hour', hours), hours }}
        periodTitle={t('choosePeriod')}
        periodControl={<HoursInput value={hoursText} onChange={setHoursText} />}
        successMessage={rentMessages.rented}
      />
    </PageContainer>
  );
}
