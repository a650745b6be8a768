import { type StatsAnswer, statsPaths } from '@simcode/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PublicPageHeader } from '@/components/public-page-header';
import { matchesSearch, SearchInput } from '@/components/search-input';
import { publicPageMeta } from '@/lib/page-meta';
import { useDocumentTitle } from '@/lib/use-document-title';
import { useOpenAnswer } from '@/lib/use-open-answer';
import { Definitions } from './definitions';
import { StatsTable } from './stats-table';
import { WindowSwitch, windowOf } from './window-switch';

const COLUMNS = ['service', 'country', 'rate', 'median', 'p90', 'refunds', 'settled', 'trend'] as const;

/** `/stats`: the public SMS Delivery Index, every service × country that sold in the window. */
export function StatsPage() {
  useDocumentTitle(publicPageMeta('/stats').title);
  const { t } = useTranslation('stats');
  const [search] = useSearchParams();
  const window = windowOf(search);
  const [query, setQuery] = useState('');
  const { data, failed } = useOpenAnswer<StatsAnswer>(`${statsPaths.index}?window=${window}`);
  const rows = (data?.rows ?? []).filter(
    (row) => matchesSearch(row.service_name, query) || matchesSearch(row.country_name, query),
  );

  return (
    <main className="flex-1">
      <PublicPageHeader title={t('title')} intro={t('intro')} width="5xl" />
      <div className="mx-auto flex max-w-5xl flex-col gap-6 px-4 pb-20 sm:px-6">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <WindowSwitch current={window} />
          <div className="sm:w-72">
            <SearchInput label={t('search')} value={query} onChange={setQuery} />
          </div>
        </div>
        <p aria-live="polite" className="min-h-5 text-sm text-slate-600">
          {failed ? t('failed') : data ? t('found', { count: rows.length }) : t('loading')}
        </p>
        {data && rows.length > 0 && <StatsTable rows={rows} columns={COLUMNS} caption={t('tableCaption')} />}
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
