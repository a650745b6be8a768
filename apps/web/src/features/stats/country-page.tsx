import { type StatsCountryAnswer, statsPaths } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { countryName } from '@/lib/names';
import { useOpenAnswer } from '@/lib/use-open-answer';
import { StatsDetailPage } from './detail-page';
import { windowOf } from './window-switch';

const COLUMNS = ['service', 'rate', 'median', 'p90', 'refunds', 'settled', 'trend'] as const;

/** `/stats/country/:country`: one country of the index, every service sold there, and its last 30 days. */
export function StatsCountryPage() {
  const { t } = useTranslation('stats');
  const { country = '' } = useParams();
  const [search] = useSearchParams();
  const window = windowOf(search);
  const { data, failed } = useOpenAnswer<StatsCountryAnswer>(
    `${statsPaths.country(country)}?window=${window}`,
  );
  const name = countryName(country.toUpperCase(), data?.country_name ?? country.toUpperCase());
  return (
    <StatsDetailPage
      title={t('country.title', { country: name })}
      window={window}
      data={data && { total: data.total, daily: data.daily, rows: data.services }}
      failed={failed}
      rowsTitle={t('country.services')}
      columns={COLUMNS}
    />
  );
}
