import type { StatusComponent } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { formatDate } from '@/lib/format';
import { cn } from '@/lib/utils';
import { percentText } from './labels';

function barClass(uptime: number | null): string {
  if (uptime === null) return 'bg-slate-200';
  if (uptime >= 0.999) return 'bg-emerald-500';
  if (uptime >= 0.95) return 'bg-amber-400';
  return 'bg-red-500';
}

/**
 * A component's days as bars, oldest first: green when every check passed (to 99.9 %), amber, red, and
 * grey for a day without checks. One image for screen readers, with the 90 days' figure as its name.
 */
export function UptimeBars({ component, name }: { component: StatusComponent; name: string }) {
  const { t } = useTranslation('status');
  const summary =
    component.uptime === null
      ? t('uptime.none', { name })
      : t('uptime.summary', { name, value: percentText(component.uptime), days: component.days.length });
  return (
    <div className="flex flex-col gap-1">
      <div role="img" aria-label={summary} className="flex h-8 w-full gap-px">
        {component.days.map((day) => (
          <span
            key={day.day}
            title={`${formatDate(day.day)}: ${day.uptime === null ? t('uptime.noData') : percentText(day.uptime)}`}
            className={cn('min-w-0 flex-1 rounded-[1px]', barClass(day.uptime))}
          />
        ))}
      </div>
      <div className="flex justify-between text-xs text-slate-600">
        <span>{t('uptime.daysAgo', { count: component.days.length })}</span>
        <span>{component.uptime === null ? t('uptime.noData') : percentText(component.uptime)}</span>
        <span>{t('uptime.today')}</span>
      </div>
    </div>
  );
}
