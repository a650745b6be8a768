import { adminRoutes, type OverviewFigures, type OverviewResponse } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { ChartLine } from 'lucide-react';
import { lazy, Suspense, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { linkClass } from '@/components/link-class';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { Card } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton, SkeletonRows } from '@/components/ui/skeleton';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { i18n } from '@/i18n';
import { formatDollars, formatNumber } from '@/lib/format';
import { cn } from '@/lib/utils';
import { overviewQuery } from './api';
import { duration, LoadError, percent } from './parts';
import { periodLabel } from './period';

// uPlot is the console's alone, and only this page's: it loads with the first chart.
const OverviewChart = lazy(() => import('./overview-chart'));

type FigureKey = keyof OverviewFigures;
type Days = 1 | 7 | 30;

const count = (value: number) => formatNumber(Math.round(value));

/** A figure's name and what it means (the card's hint): `overview.figure_<key>` and `overview.hint_<key>`. */
interface Figure {
  key: FigureKey;
  format(value: number): string;
  /** Summed over the range in the chart's summary; rates and medians are not. */
  additive: boolean;
}

const FIGURES: Figure[] = [
  { key: 'revenue', format: formatDollars, additive: true },
  { key: 'cost', format: formatDollars, additive: true },
  { key: 'margin', format: formatDollars, additive: true },
  { key: 'topups', format: formatDollars, additive: true },
  { key: 'orders_with_code', format: count, additive: true },
  { key: 'orders_refunded', format: count, additive: true },
  { key: 'orders_canceled', format: count, additive: true },
  { key: 'delivery_rate', format: percent, additive: false },
  { key: 'median_time_to_code_ms', format: (value) => duration(value), additive: false },
  { key: 'active_users', format: count, additive: false },
];

const figureLabel = (figure: Figure) => i18n.t(`admin:overview.figure_${figure.key}`);

const RANGES: { days: Days; labelKey: string }[] = [
  { days: 1, labelKey: 'overview.today' },
  { days: 7, labelKey: 'overview.week' },
  { days: 30, labelKey: 'overview.month' },
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
  const label = figureLabel(figure);
  if (!first || !last || values.length === 0) return i18n.t('admin:overview.noData', { figure: label });
  const parts = [
    i18n.t(hourly ? 'admin:overview.perHour' : 'admin:overview.perDay', {
      figure: label,
      from: periodLabel(first.start, hourly),
      to: periodLabel(last.start, hourly),
    }),
    i18n.t('admin:overview.lowest', { value: figure.format(Math.min(...values)) }),
    i18n.t('admin:overview.highest', { value: figure.format(Math.max(...values)) }),
  ];
  const total = data.totals[figure.key];
  if (total !== null)
    parts.push(
      i18n.t(figure.additive ? 'admin:overview.total' : 'admin:overview.overRange', {
        value: figure.format(total),
      }),
    );
  return i18n.t('admin:overview.sentence', { parts: parts.join(i18n.t('admin:overview.separator')) });
}

function SeriesTable({ data }: { data: OverviewResponse }) {
  const { t } = useTranslation('admin');
  const hourly = data.days === 1;
  return (
    <details className="rounded-lg border">
      <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-medium focus-visible:outline-2 focus-visible:outline-ring">
        {t(hourly ? 'overview.tableSummaryHour' : 'overview.tableSummaryDay')}
      </summary>
      <div className="border-t">
        <Table
          aria-label={t(hourly ? 'overview.tableHour' : 'overview.tableDay')}
          region={t(hourly ? 'overview.tableRegionHour' : 'overview.tableRegionDay')}
        >
          <TableHeader>
            <TableRow>
              <TableHead scope="col">{t(hourly ? 'overview.hour' : 'overview.day')}</TableHead>
              {FIGURES.map((figure) => (
                <TableHead key={figure.key} scope="col" className="text-right">
                  {figureLabel(figure)}
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
  const { t } = useTranslation('admin');
  const selectId = useId();
  const captionId = useId();
  const [key, setKey] = useState<FigureKey>('revenue');
  const figure = FIGURES.find((each) => each.key === key)!;
  const points = useMemo(
    () => data.series.map((point) => ({ start: point.start, value: point[key] })),
    [data.series, key],
  );
  return (
    <SectionCard
      id="overview-chart"
      icon={ChartLine}
      title={t('overview.chartTitle')}
      actions={
        <div className="w-full sm:w-60">
          <Field id={selectId} label={t('overview.figure')}>
            <Select value={key} onValueChange={(value) => setKey(value as FigureKey)}>
              <SelectTrigger id={selectId}>
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                {FIGURES.map((each) => (
                  <SelectItem key={each.key} value={each.key}>
                    {figureLabel(each)}
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
            label={figureLabel(figure)}
            format={figure.format}
            hourly={data.days === 1}
          />
        </Suspense>
        <figcaption id={captionId} className="text-sm text-muted-foreground">
          {summary(figure, data)}
        </figcaption>
      </figure>
      <SeriesTable data={data} />
    </SectionCard>
  );
}

function RangeSwitch({ days, onChange }: { days: Days; onChange(days: Days): void }) {
  const { t } = useTranslation('admin');
  return (
    // biome-ignore lint/a11y/useSemanticElements: a set of toggle buttons, not a form's fieldset.
    <div
      role="group"
      aria-label={t('overview.range')}
      className="inline-flex flex-wrap rounded-lg border bg-white p-1 shadow-xs"
    >
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
          {t(range.labelKey)}
        </button>
      ))}
    </div>
  );
}

/** `/admin`: the business at a glance over today, a week or a month, with each figure over time. */
export function OverviewPage() {
  const { t } = useTranslation('admin');
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = Number(searchParams.get('days'));
  const days: Days = requested === 1 || requested === 30 ? requested : 7;
  const overview = useQuery(overviewQuery(days));
  const data = overview.data;
  const totals = data?.totals;

  return (
    <>
      <PageHeader
        title={t('overview.title')}
        description={t('overview.description')}
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
          <section
            aria-label={t('overview.figures')}
            className="grid grid-cols-2 gap-3 md:grid-cols-3 xl:grid-cols-4"
          >
            {FIGURES.map((figure) => {
              const value = totals[figure.key];
              return (
                <FigureCard
                  key={figure.key}
                  label={figureLabel(figure)}
                  value={value === null ? null : figure.format(value)}
                  hint={t(`overview.hint_${figure.key}`)}
                />
              );
            })}
            <FigureCard
              label={t('overview.openTickets')}
              value={count(data.open_tickets)}
              hint={t('overview.openTicketsHint')}
              to="/dashboard/tickets"
            />
            {data.providers.map((provider) => (
              <FigureCard
                key={provider.name}
                label={t('overview.providerBalance', { provider: provider.name })}
                value={provider.balance === null ? null : formatDollars(provider.balance)}
                hint={t(provider.balance === null ? 'overview.providerUnknown' : 'overview.providerHint')}
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
