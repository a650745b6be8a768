import type { StatsDay, StatsFigures, StatsRow, StatsWindow } from '@simcode/contract';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { publicPath } from '@/i18n';
import { formatNumber } from '@/lib/format';
import { useDocumentTitle } from '@/lib/use-document-title';
import { DailyChart } from './daily-chart';
import { Definitions } from './definitions';
import { percentText, rateText, secondsText } from './format';
import { StatsTable } from './stats-table';
import { WindowSwitch } from './window-switch';

type Column = Parameters<typeof StatsTable>[0]['columns'][number];

/**
 * One service's or one country's page of the index: its totals over the window, its last 30 days as a
 * chart, and its rows (a service's countries, or a country's services).
 */
export function StatsDetailPage({
  title,
  window,
  data,
  failed,
  rowsTitle,
  columns,
  children,
}: {
  title: string;
  window: StatsWindow;
  data: { total: StatsFigures; daily: StatsDay[]; rows: StatsRow[] } | null | undefined;
  failed: boolean;
  rowsTitle: string;
  columns: readonly Column[];
  /** What the page adds below its totals (a service's price list). */
  children?: ReactNode;
}) {
  const { t } = useTranslation('stats');
  useDocumentTitle(title);
  const total = data?.total;

  return (
    <main className="flex-1">
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 pt-28 pb-20 sm:px-6 sm:pt-36">
        <Link
          to={publicPath('/stats')}
          className="text-sm font-medium text-primary underline-offset-2 hover:underline"
        >
          {t('service.back')}
        </Link>
        <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 sm:text-4xl">{title}</h1>
        <WindowSwitch current={window} />
        <p aria-live="polite" className="min-h-5 text-sm text-slate-600">
          {failed ? t('failed') : data ? '' : t('loading')}
        </p>
        {total && (
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              { term: t('columns.rate'), value: rateText(total) },
              {
                term: t('columns.median'),
                value: total.median_seconds === null ? '–' : secondsText(total.median_seconds),
              },
              {
                term: t('columns.refunds'),
                value: total.refund_rate === null ? '–' : percentText(total.refund_rate),
              },
              { term: t('columns.settled'), value: formatNumber(total.settled) },
            ].map((figure) => (
              <div key={figure.term} className="rounded-2xl border bg-white p-4">
                <dt className="text-sm text-slate-600">{figure.term}</dt>
                <dd className="mt-1 text-2xl font-bold text-slate-900">{figure.value}</dd>
              </div>
            ))}
          </dl>
        )}
        {children}
        {data && data.daily.length > 0 && (
          <section aria-labelledby="stats-daily" className="rounded-2xl border bg-white p-5 sm:p-6">
            <h2 id="stats-daily" className="mb-3 text-xl font-bold text-slate-900">
              {t('chart.title')}
            </h2>
            <DailyChart days={data.daily} />
          </section>
        )}
        {data && data.rows.length > 0 && (
          <section aria-labelledby="stats-rows" className="flex flex-col gap-3">
            <h2 id="stats-rows" className="text-xl font-bold text-slate-900">
              {rowsTitle}
            </h2>
            <StatsTable rows={data.rows} columns={columns} caption={rowsTitle} />
          </section>
        )}
        {data && data.rows.length === 0 && (
          <p className="rounded-2xl border border-dashed bg-white p-8 text-center text-slate-600">
            {t('empty')}
          </p>
        )}
        <Definitions window={window} />
      </div>
    </main>
  );
}
