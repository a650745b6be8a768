import { STATS_LICENCE, STATS_MIN_SETTLED, type StatsWindow, statsPaths } from '@simcode/contract';
import { useTranslation } from 'react-i18next';

/** How every figure is counted and under which licence it may be reused: written on the page itself. */
export function Definitions({ window }: { window: StatsWindow }) {
  const { t } = useTranslation('stats');
  const terms = ['settled', 'rate', 'median', 'p90', 'refunds', 'new', 'trend', 'frozen'] as const;
  return (
    <section
      aria-labelledby="stats-definitions"
      className="flex flex-col gap-4 rounded-2xl border bg-white p-5 sm:p-6"
    >
      <h2 id="stats-definitions" className="text-xl font-bold tracking-tight text-slate-900">
        {t('definitions.title')}
      </h2>
      <dl className="grid gap-3 text-sm leading-relaxed text-slate-600 sm:grid-cols-2">
        {terms.map((term) => (
          <div key={term}>
            <dt className="font-semibold text-slate-900">{t(`definitions.${term}.term`)}</dt>
            <dd>{t(`definitions.${term}.text`, { count: STATS_MIN_SETTLED })}</dd>
          </div>
        ))}
      </dl>
      <h2 id="stats-licence" className="text-xl font-bold tracking-tight text-slate-900">
        {t('licence.title')}
      </h2>
      <p className="text-sm leading-relaxed text-slate-600">
        {t('licence.text', { licence: STATS_LICENCE.name })}{' '}
        <a
          href={STATS_LICENCE.url}
          className="font-medium text-primary underline underline-offset-2"
          rel="license"
        >
          {STATS_LICENCE.name}
        </a>
      </p>
      <p className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <a
          href={`${statsPaths.csv}?window=${window}`}
          className="font-medium text-primary underline underline-offset-2"
          download
        >
          {t('download.csv', { window: t(`windows.${window}`) })}
        </a>
        <a
          href={`${statsPaths.index}?window=${window}`}
          className="font-medium text-primary underline underline-offset-2"
        >
          {t('download.json')}
        </a>
      </p>
    </section>
  );
}
