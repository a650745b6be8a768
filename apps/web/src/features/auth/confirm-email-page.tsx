import {
  appRoutes,
  EMAIL_CHANGE_LIFETIME_HOURS,
  EMAIL_REVERT_LIFETIME_DAYS,
  tokenFromFragment,
} from '@simcode/contract';
import { Link2Off, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { clearToken, getToken, useSession } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { confirmEmail, revertEmail } from './api';
import { AuthCard } from './auth-form';
import { Outcome } from './outcome';

const linkClass = 'font-medium text-primary hover:underline';

/** The two e-mail links: the new address's confirmation, and the old address's way back. */
const LINKS = {
  confirmEmail: { send: confirmEmail, lifetime: EMAIL_CHANGE_LIFETIME_HOURS },
  revertEmail: { send: revertEmail, lifetime: EMAIL_REVERT_LIFETIME_DAYS },
} as const;

/**
 * `/confirm-email#token=…`: the link sent to a new e-mail address. The change waits for a press of the
 * button, so a mail scanner or a browser that opens links ahead of time cannot confirm it by itself.
 * Works signed in or not: the token says whose address it is.
 */
export function ConfirmEmailPage() {
  return <EmailLinkPage kind="confirmEmail" />;
}

/**
 * `/revert-email#token=…`: the link mailed to the old address after a change. Moving back signs out every
 * session and API key, so whoever changed the address is out; the page then leads to signing in.
 */
export function RevertEmailPage() {
  return <EmailLinkPage kind="revertEmail" />;
}

function EmailLinkPage({ kind }: { kind: keyof typeof LINKS }) {
  const { t } = useTranslation('auth');
  useDocumentTitle(t(`${kind}.title`));
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
      const answer = await LINKS[kind].send(token);
      // A revert ended every session on the server, this browser's too if it was signed in.
      if (kind === 'revertEmail' && getToken()) clearToken();
      setDone(answer.message);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  // After a revert every session ended, this browser's too.
  const next =
    isSignedIn && kind === 'confirmEmail' ? (
      <Link to={appRoutes.account} className={linkClass}>
        {t('confirmEmail.toAccount')}
      </Link>
    ) : (
      <Link to={publicPath(appRoutes.login)} className={linkClass}>
        {t(`${kind}.signIn`)}
      </Link>
    );

  return (
    <AuthCard title={t(`${kind}.title`)} subtitle={t(`${kind}.subtitle`, { count: LINKS[kind].lifetime })}>
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
          <p className="text-sm text-muted-foreground">{t(`${kind}.explain`)}</p>
          {error && <FormError id="confirm-error">{error}</FormError>}
          <Button size="lg" busy={busy} className="w-full" onClick={onConfirm}>
            {busy ? t(`${kind}.busy`) : t(`${kind}.submit`)}
          </Button>
          <p className="text-center text-sm">{next}</p>
        </div>
      )}
    </AuthCard>
  );
}
