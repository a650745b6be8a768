import { STATS_WINDOWS, type StatsWindow } from '@simcode/contract';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { cn } from '@/lib/utils';

/** The windows as links (`?window=30d`): each view has its own address, shareable, and works without script. */
export function WindowSwitch({ current }: { current: StatsWindow }) {
  const { t } = useTranslation('stats');
  return (
    <nav aria-label={t('windows.label')} className="flex flex-wrap gap-2">
      {STATS_WINDOWS.map((window) => (
        <Link
          key={window}
          to={`?window=${window}`}
          replace
          preventScrollReset
          aria-current={window === current ? 'page' : undefined}
          className={cn(
            'rounded-full border px-3 py-1.5 text-sm font-medium transition-colors',
            window === current
              ? 'border-primary bg-primary text-primary-foreground'
              : 'bg-white text-slate-700 hover:border-indigo-300 hover:text-primary',
          )}
        >
          {t(`windows.${window}`)}
        </Link>
      ))}
    </nav>
  );
}

/** The window a page's address asks for, or the default. */
export function windowOf(search: URLSearchParams): StatsWindow {
  const asked = search.get('window');
  return (STATS_WINDOWS as readonly string[]).includes(asked ?? '') ? (asked as StatsWindow) : '7d';
}
