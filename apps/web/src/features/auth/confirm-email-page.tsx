import { appRoutes, EMAIL_CHANGE_LIFETIME_HOURS, tokenFromFragment } from '@simcode/contract';
import { Link2Off, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { useSession } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { confirmEmail } from './api';
import { AuthCard } from './auth-form';
import { Outcome } from './outcome';

const linkClass = 'font-medium text-primary hover:underline';

/**
 * `/confirm-email#token=…`: the link sent to a new e-mail address. The change waits for a press of the
 * button, so a mail scanner or a browser that opens links ahead of time cannot confirm it by itself.
 * Works signed in or not: the token says whose address it is.
 */
export function ConfirmEmailPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('confirmEmail.title'));
  const { hash } = useLocation();
  const { isSignedIn } = useSession();
  const [token] = useState(() => tokenFromFragment(hash));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function onConfirm() {
    setBusy(true);
    setError(null);
    try {
      setDone((await confirmEmail(token)).message);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  const next = isSignedIn ? (
    <Link to={appRoutes.account} className={linkClass}>
      {t('confirmEmail.toAccount')}
    </Link>
  ) : (
    <Link to={publicPath(appRoutes.login)} className={linkClass}>
      {t('confirmEmail.signIn')}
    </Link>
  );

  return (
    <AuthCard
      title={t('confirmEmail.title')}
      subtitle={t('confirmEmail.subtitle', { count: EMAIL_CHANGE_LIFETIME_HOURS })}
    >
      {!token ? (
        <Outcome icon={Link2Off} tone="warning" takeFocus={false} message={t('incompleteLink')}>
          {next}
        </Outcome>
      ) : done ? (
        <Outcome icon={MailCheck} message={done}>
          {next}
        </Outcome>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">{t('confirmEmail.explain')}</p>
          {error && <FormError id="confirm-error">{error}</FormError>}
          <Button size="lg" busy={busy} className="w-full" onClick={onConfirm}>
            {busy ? t('confirmEmail.busy') : t('confirmEmail.submit')}
          </Button>
          <p className="text-center text-sm">{next}</p>
        </div>
      )}
    </AuthCard>
  );
}
