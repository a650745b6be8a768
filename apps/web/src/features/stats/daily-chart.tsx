import type { StatsDay } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';
import { percentText, secondsText } from './format';

const WIDTH = 600;
const HEIGHT = 160;
const PAD = 4;

/**
 * The daily delivery rate (bars, 0–100 %) and median time to code (line, scaled to the longest day) of a
 * service, drawn as SVG; a "new" day has no bar. The same figures follow as a table for screen readers.
 */
export function DailyChart({ days }: { days: readonly StatsDay[] }) {
  const { t } = useTranslation('stats');
  const slot = (WIDTH - PAD * 2) / Math.max(1, days.length);
  const longest = Math.max(1, ...days.map((day) => day.median_seconds ?? 0));
  const points = days.flatMap((day, index) =>
    day.median_seconds === null
      ? []
      : [
          `${PAD + slot * index + slot / 2},${HEIGHT - PAD - (day.median_seconds / longest) * (HEIGHT - PAD * 2)}`,
        ],
  );
  return (
    <figure className="flex flex-col gap-2">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        preserveAspectRatio="none"
        className="h-40 w-full"
        role="img"
        aria-labelledby="daily-chart-caption"
      >
        <title>{t('chart.title')}</title>
        <line
          x1={PAD}
          x2={WIDTH - PAD}
          y1={HEIGHT - PAD}
          y2={HEIGHT - PAD}
          vectorEffect="non-scaling-stroke"
          className="stroke-slate-300"
        />
        {days.map((day, index) =>
          day.delivery_rate === null ? null : (
            <rect
              key={day.day}
              x={PAD + slot * index + slot * 0.15}
              width={slot * 0.7}
              y={HEIGHT - PAD - day.delivery_rate * (HEIGHT - PAD * 2)}
              height={day.delivery_rate * (HEIGHT - PAD * 2)}
              className="fill-indigo-200"
            >
              <title>{`${formatDate(day.day)}: ${percentText(day.delivery_rate)}`}</title>
            </rect>
          ),
        )}
        {points.length > 1 && (
          <polyline
            points={points.join(' ')}
            fill="none"
            strokeWidth={2}
            vectorEffect="non-scaling-stroke"
            className="stroke-emerald-600"
          />
        )}
      </svg>
      <figcaption id="daily-chart-caption" className="text-sm text-slate-600">
        {t('chart.caption', { days: days.length })}
      </figcaption>
      <details className="text-sm">
        <summary className="cursor-pointer font-medium text-primary">{t('chart.asTable')}</summary>
        <table className="mt-2 w-full text-left tabular-nums">
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{t('columns.settled')}</th>
              <th scope="col">{t('columns.rate')}</th>
              <th scope="col">{t('columns.median')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.day}>
                <td>{formatDate(day.day)}</td>
                <td>{day.settled}</td>
                <td>{day.delivery_rate === null ? t('new') : percentText(day.delivery_rate)}</td>
                <td>{day.median_seconds === null ? '–' : secondsText(day.median_seconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
