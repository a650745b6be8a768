import { adminRoutes, type OverviewFigures, type OverviewResponse } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { ChartLine } from 'lucide-react';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { formatDollars } from '@/lib/format';
import { cn } from '@/lib/utils';
import { overviewQuery } from './api';
import { ConsoleSection, duration, LoadError, linkClass, percent } from './parts';
import { periodLabel } from './period';

// uPlot is the console's alone, and only this page's: it loads with the first chart.
const OverviewChart = lazy(() => import('./overview-chart'));

type FigureKey = keyof OverviewFigures;
type Days = 1 | 7 | 30;

const count = (value: number) => Math.round(value).toLocaleString('en-US');

interface Figure {
  key: FigureKey;
  label: string;
  format(value: number): string;
  /** What the figure means, for the card's hint and the chart's summary. */
  hint: string;
  /** Summed over the range in the chart's summary; rates and medians are not. */
  additive: boolean;
}

const FIGURES: Figure[] = [
  { key: 'revenue', label: 'Revenue', format: formatDollars, hint: 'Sales minus refunds.', additive: true },
  { key: 'cost', label: 'Cost', format: formatDollars, hint: 'What the providers charged.', additive: true },
  { key: 'margin', label: 'Margin', format: formatDollars, hint: 'Revenue minus cost.', additive: true },
  { key: 'topups', label: 'Top-ups', format: formatDollars, hint: 'Money paid in.', additive: true },
  {
    key: 'orders_with_code',
    label: 'Orders with a code',
    format: count,
    hint: 'Numbers that received their code.',
    additive: true,
  },
  {
    key: 'orders_refunded',
    label: 'Refunded orders',
    format: count,
    hint: 'Money returned.',
    additive: true,
  },
  {
    key: 'orders_canceled',
    label: 'Canceled orders',
    format: count,
    hint: 'Ended before a code.',
    additive: true,
  },
  {
    key: 'delivery_rate',
    label: 'Delivery rate',
    format: percent,
    hint: 'Settled orders that got a code.',
    additive: false,
  },
  {
    key: 'median_time_to_code_ms',
    label: 'Median time to code',
    format: (value) => duration(value),
    hint: 'From purchase to the code.',
    additive: false,
  },
  {
    key: 'active_users',
    label: 'Active users',
    format: count,
    hint: 'Users who bought or paid.',
    additive: false,
  },
];

const RANGES: { days: Days; label: string }[] = [
  { days: 1, label: 'Today' },
  { days: 7, label: '7 days' },
  { days: 30, label: '30 days' },
];

function FigureCard({
  label,
  value,
  hint,
  to,
}: {
  label: string;
  value: string | null;
  hint: string;
  to?: string;
}) {
  return (
    <Card className="flex min-w-0 flex-col gap-1 p-4">
      <p className="text-sm font-medium text-muted-foreground">
        {to ? (
          <Link to={to} className={linkClass}>
            {label}
          </Link>
        ) : (
          label
        )}
      </p>
      <p className="text-xl font-bold tracking-tight break-words tabular-nums sm:text-2xl">
        {value ?? <span className="text-muted-foreground">—</span>}
      </p>
      <p className="text-xs text-muted-foreground">{hint}</p>
    </Card>
  );
}

/** The chart's text alternative: the range, the lowest and highest point and, where it adds up, the total. */
function summary(figure: Figure, data: OverviewResponse): string {
  const hourly = data.days === 1;
  const values = data.series
    .map((point) => point[figure.key])
    .filter((value): value is number => value !== null);
  const first = data.series[0];
  const last = data.series.at(-1);
  if (!first || !last || values.length === 0) return `${figure.label}: no data in this range.`;
  const parts = [
    `${figure.label} per ${hourly ? 'hour' : 'day'}, ${periodLabel(first.start, hourly)} to ${periodLabel(last.start, hourly)}`,
    `lowest ${figure.format(Math.min(...values))}`,
    `highest ${figure.format(Math.max(...values))}`,
  ];
  const total = data.totals[figure.key];
  if (total !== null) parts.push(`${figure.additive ? 'total' : 'over the range'} ${figure.format(total)}`);
  return `${parts.join(', ')}.`;
}

function SeriesTable({ data }: { data: OverviewResponse }) {
  const hourly = data.days === 1;
  return (
    <details className="rounded-lg border">
      <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring">
        Every figure per {hourly ? 'hour' : 'day'} as a table
      </summary>
      <div className="border-t">
        <Table
          aria-label={`Figures per ${hourly ? 'hour' : 'day'}`}
          region={`Figures per ${hourly ? 'hour' : 'day'}, scrollable`}
        >
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{hourly ? 'Hour' : 'Day'}</TableHead>
              {FIGURES.map((figure) => (
                <TableHead key={figure.key} scope="col" className="text-right">
                  {figure.label}
                </TableHead>
              ))}
            </TableRow>
          </TableHeader>
          <TableBody>
            {data.series.map((point) => (
              <TableRow key={point.start}>
                <TableHead scope="row" className="font-medium text-foreground normal-case">
                  {periodLabel(point.start, hourly)}
                </TableHead>
                {FIGURES.map((figure) => {
                  const value = point[figure.key];
                  return (
                    <TableCell key={figure.key} className="py-2 text-right tabular-nums">
                      {value === null ? '—' : figure.format(value)}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
    </details>
  );
}

function ChartSection({ data }: { data: OverviewResponse }) {
  const selectId = useId();
  const captionId = useId();
  const [key, setKey] = useState<FigureKey>('revenue');
  const figure = FIGURES.find((each) => each.key === key)!;
  const points = useMemo(
    () => data.series.map((point) => ({ start: point.start, value: point[key] })),
    [data.series, key],
  );
  return (
    <ConsoleSection
      id="overview-chart"
      icon={ChartLine}
      title="Over time"
      actions={
        <div className="w-full sm:w-60">
          <Field id={selectId} label="Figure">
            <Select value={key} onValueChange={(value) => setKey(value as FigureKey)}>
              <SelectTrigger id={selectId}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {FIGURES.map((each) => (
                  <SelectItem key={each.key} value={each.key}>
                    {each.label}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
          </Field>
        </div>
      }
    >
      <figure aria-labelledby={captionId} className="flex min-w-0 flex-col gap-2">
        <Suspense fallback={<Skeleton className="h-60 w-full" />}>
          <OverviewChart
            points={points}
            label={figure.label}
            format={figure.format}
            hourly={data.days === 1}
          />
        </Suspense>
        <figcaption id={captionId} className="text-sm text-muted-foreground">
          {summary(figure, data)}
        </figcaption>
      </figure>
      <SeriesTable data={data} />
    </ConsoleSection>
  );
}

function RangeSwitch({ days, onChange }: { days: Days; onChange(days: Days): void }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a set of toggle buttons, not a form's fieldset.
    <div role="group" aria-label="Range" className="inline-flex rounded-lg border bg-white p-1 shadow-xs">
      {RANGES.map((range) => (
        <button
          key={range.days}
          type="button"
          aria-pressed={days === range.days}
          onClick={() => onChange(range.days)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-ring',
            days === range.days ? 'bg-primary text-primary-foreground' : 'text-slate-700 hover:bg-accent',
          )}
        >
          {range.label}
        </button>
      ))}
    </div>
  );
}

/** `/admin`: the business at a glance over today, a week or a month, with each figure over time. */
export function OverviewPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = Number(searchParams.get('days'));
  const days: Days = requested === 1 || requested === 30 ? requested : 7;
  const overview = useQuery(overviewQuery(days));
  const data = overview.data;
  const totals = data?.totals;

  return (
    <>
      <PageHeader
        title="Overview"
        description="Money, orders and deliveries over the chosen range, in UTC days."
        actions={
          <RangeSwitch
            days={days}
            onChange={(next) => setSearchParams(next === 7 ? {} : { days: String(next) }, { replace: true })}
          />
        }
      />
      {overview.isError && !data && <LoadError error={overview.error} />}
      {overview.isPending && <SkeletonRows count={3} rowClassName="h-28 rounded-xl" />}
      {data && totals && (
        <div className="flex min-w-0 flex-col gap-4 lg:gap-6">
          <section aria-label="Figures" className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4">
            {FIGURES.map((figure) => {
              const value = totals[figure.key];
              return (
                <FigureCard
                  key={figure.key}
                  label={figure.label}
                  value={value === null ? null : figure.format(value)}
                  hint={figure.hint}
                />
              );
            })}
            <FigureCard
              label="Open tickets"
              value={count(data.open_tickets)}
              hint="Waiting for support."
              to="/dashboard/tickets"
            />
            {data.providers.map((provider) => (
              <FigureCard
                key={provider.name}
                label={`${provider.name} balance`}
                value={provider.balance === null ? null : formatDollars(provider.balance)}
                hint={provider.balance === null ? 'The provider could not be asked.' : 'At the provider.'}
                to={adminRoutes.providers}
              />
            ))}
          </section>
          <ChartSection data={data} />
        </div>
      )}
    </>
  );
}
