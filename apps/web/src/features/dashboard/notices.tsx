import { LOW_BALANCE_THRESHOLD_CENTS } from '@simcode/contract';
import { ArrowRight, CalendarClock, Info, TriangleAlert, X } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { browserStorage } from '@/lib/browser-storage';
import { publicConfig } from '@/lib/public-config';
import { cn } from '@/lib/utils';

type NoticeId = 'help' | 'low-balance' | 'long-term';
const STORAGE_KEY = 'dashboard-dismissed-notices';

function dismissedNotices(): NoticeId[] {
  try {
    const saved = JSON.parse(browserStorage()?.getItem(STORAGE_KEY) ?? '[]');
    return Array.isArray(saved) ? saved : [];
  } catch {
    return [];
  }
}

// Only the palette's mirrored colours (styles.css), so each pairing keeps its contrast in the dark theme.
const TONES = {
  info: 'border-sky-200 bg-info-soft text-sky-950',
  warning: 'border-yellow-300 bg-warning-soft text-yellow-950',
  promo: 'border-indigo-200 bg-indigo-50 text-indigo-900',
} as const;

/** One notice, one line: its icon, its sentence, its link and a close button. */
function NoticeLine({
  tone,
  icon,
  children,
  action,
  onDismiss,
}: {
  tone: keyof typeof TONES;
  icon: ReactNode;
  children: ReactNode;
  action?: ReactNode;
  onDismiss(): void;
}) {
  const { t } = useTranslation('dashboard');
  return (
    <li
      className={cn(
        'flex items-center gap-2 rounded-lg border py-1.5 pr-1 pl-3 text-sm [&>svg]:size-4 [&>svg]:shrink-0',
        TONES[tone],
      )}
    >
      {icon}
      <p className="min-w-0 flex-1">{children}</p>
      {action}
      <Button
        variant="ghost"
        size="icon"
        className="size-7 shrink-0 text-current hover:bg-black/5"
        onClick={onDismiss}
        aria-label={t('notices.dismiss')}
      >
        <X aria-hidden="true" />
      </Button>
    </li>
  );
}

const linkClass = 'font-medium underline underline-offset-2';

/**
 * The dashboard's notices (spec: support, low balance, long-term promo), each a line that can be closed so
 * the Buy panel stays near the top. A closed notice stays closed in this browser; the low-balance one comes
 * back on the next visit, since it is about money the buyer still lacks.
 */
export function Notices({ balance }: { balance: number | undefined }) {
  const { t } = useTranslation('dashboard');
  const [dismissed, setDismissed] = useState<NoticeId[]>(dismissedNotices);
  const [balanceDismissed, setBalanceDismissed] = useState(false);
  function dismiss(id: NoticeId) {
    const next = [...dismissed, id];
    browserStorage()?.setItem(STORAGE_KEY, JSON.stringify(next));
    setDismissed(next);
  }
  const lowBalance =
    balance !== undefined && Math.round(balance * 100) < LOW_BALANCE_THRESHOLD_CENTS && !balanceDismissed;
  const notices = [
    lowBalance && (
      <NoticeLine
        key="low-balance"
        tone="warning"
        icon={<TriangleAlert aria-hidden="true" />}
        onDismiss={() => setBalanceDismissed(true)}
        action={
          <Button asChild size="sm" className="h-7 shrink-0">
            <Link to="/dashboard/topup">{t('notices.topUp')}</Link>
          </Button>
        }
      >
        <strong className="font-semibold">{t('notices.lowBalanceTitle')}</strong>
        <span className="hidden sm:inline"> · {t('notices.lowBalance')}</span>
      </NoticeLine>
    ),
    !dismissed.includes('help') && (
      <NoticeLine key="help" tone="info" icon={<Info aria-hidden="true" />} onDismiss={() => dismiss('help')}>
        <Trans
          t={t}
          i18nKey="notices.helpLine"
          components={{
            faq: <Link to={publicPath('/faq')} className={linkClass} />,
            chat: (
              // biome-ignore lint/a11y/useAnchorContent: Trans puts the catalogue's link text inside.
              <a
                href={publicConfig().supportChatUrl}
                target="_blank"
                rel="noopener noreferrer"
                className={linkClass}
              />
            ),
          }}
        />
      </NoticeLine>
    ),
    !dismissed.includes('long-term') && (
      <NoticeLine
        key="long-term"
        tone="promo"
        icon={<CalendarClock aria-hidden="true" />}
        onDismiss={() => dismiss('long-term')}
      >
        <span className="hidden sm:inline">{t('notices.longTermTitle')} </span>
        <Link to="/dashboard/longterm" className={cn(linkClass, 'inline-flex items-center gap-1')}>
          {t('notices.longTermAction')}
          <ArrowRight className="size-3.5" aria-hidden="true" />
        </Link>
      </NoticeLine>
    ),
  ].filter(Boolean);
  if (notices.length === 0) return null;
  return (
    <ul aria-label={t('notices.title')} className="flex flex-col gap-2">
      {notices}
    </ul>
  );
}
