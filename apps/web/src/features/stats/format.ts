import type { StatsFigures } from '@simcode/contract';
import { i18n } from '@/i18n';
import { formatNumber } from '@/lib/format';

/** '94%' of a share 0–1. */
export function percentText(share: number): string {
  return i18n.t('stats:percent', { value: formatNumber(Math.round(share * 1000) / 10) });
}

/** '45 s', '3 min 20 s'. */
export function secondsText(seconds: number): string {
  if (seconds < 60) return i18n.t('stats:seconds', { value: formatNumber(seconds) });
  return i18n.t('stats:minutesSeconds', {
    minutes: formatNumber(Math.floor(seconds / 60)),
    seconds: formatNumber(seconds % 60),
  });
}

/** '+3.1 pts', '−2 pts', or '' when unknown. */
export function trendText(trend: number | null): string {
  if (trend === null) return '';
  const points = Math.round(trend * 1000) / 10;
  if (points === 0) return i18n.t('stats:trendFlat');
  return i18n.t(points > 0 ? 'stats:trendUp' : 'stats:trendDown', { value: formatNumber(Math.abs(points)) });
}

/** The delivery rate as a reader sees it: a percentage, or "new" under the minimum. */
export function rateText(figures: Pick<StatsFigures, 'delivery_rate'>): string {
  return figures.delivery_rate === null ? i18n.t('stats:new') : percentText(figures.delivery_rate);
}
