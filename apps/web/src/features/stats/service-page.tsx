import { type StatsServiceAnswer, statsPaths } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useOpenAnswer } from '@/lib/use-open-answer';
import { StatsDetailPage } from './detail-page';
import { PriceList } from './price-list';
import { windowOf } from './window-switch';

const COLUMNS = ['country', 'rate', 'median', 'p90', 'refunds', 'settled', 'trend'] as const;

/** `/stats/:service`: one service of the index, every country that sold it, and its last 30 days. */
export function StatsServicePage() {
  const { t } = useTranslation('stats');
  const { service = '' } = useParams();
  const [search] = useSearchParams();
  const window = windowOf(search);
  const { data, failed } = useOpenAnswer<StatsServiceAnswer>(
    `${statsPaths.service(service)}?window=${window}`,
  );
  return (
    <StatsDetailPage
      title={t('service.title', { service: data?.service_name ?? service })}
      window={window}
      data={data && { total: data.total, daily: data.daily, rows: data.countries }}
      failed={failed}
      rowsTitle={t('service.countries')}
      columns={COLUMNS}
    >
      <PriceList service={service} />
    </StatsDetailPage>
  );
}
