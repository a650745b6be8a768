import { LOW_BALANCE_THRESHOLD_CENTS } from '@simcode/contract';
import { ArrowRight, CalendarClock, Info, TriangleAlert } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { publicConfig } from '@/lib/public-config';

export function SupportNotice() {
  const { t } = useTranslation('dashboard');
  return (
    <Alert variant="info">
      <Info aria-hidden="true" />
      <AlertTitle>{t('notices.helpTitle')}</AlertTitle>
      <AlertDescription>
        <p>
          <Trans
            t={t}
            i18nKey="notices.help"
            components={{
              faq: <Link to={publicPath('/faq')} className="font-medium underline underline-offset-2" />,
              chat: (
                // biome-ignore lint/a11y/useAnchorContent: Trans puts the catalogue's link text inside.
                <a
                  href={publicConfig().supportChatUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="font-medium underline underline-offset-2"
                />
              ),
            }}
          />
        </p>
      </AlertDescription>
    </Alert>
  );
}

/** Shown when the balance is below $1. */
export function LowBalanceBanner({ balance }: { balance: number }) {
  const { t } = useTranslation('dashboard');
  if (Math.round(balance * 100) >= LOW_BALANCE_THRESHOLD_CENTS) return null;
  return (
    <Alert variant="warning" className="items-center">
      <TriangleAlert aria-hidden="true" />
      <AlertTitle>{t('notices.lowBalanceTitle')}</AlertTitle>
      <AlertDescription className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <p>{t('notices.lowBalance')}</p>
        <Button asChild size="sm" variant="default">
          <Link to="/dashboard/topup">{t('notices.topUp')}</Link>
        </Button>
      </AlertDescription>
    </Alert>
  );
}

export function LongTermPromo() {
  const { t } = useTranslation('dashboard');
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-indigo-200 bg-gradient-to-r from-indigo-600 to-violet-600 p-4 text-white shadow-sm sm:flex-row sm:items-center sm:justify-between sm:p-5">
      <div className="flex items-start gap-3">
        <CalendarClock className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
        <div>
          <p className="font-semibold">{t('notices.longTermTitle')}</p>
          <p className="text-sm text-indigo-100">{t('notices.longTerm')}</p>
        </div>
      </div>
      <Button
        asChild
        variant="secondary"
        size="sm"
        className="shrink-0 bg-white text-indigo-700 hover:bg-indigo-50"
      >
        <Link to="/dashboard/longterm">
          {t('notices.longTermAction')}
          <ArrowRight aria-hidden="true" />
        </Link>
      </Button>
    </div>
  );
}
