import { appRoutes, EMAIL_CHANGE_LIFETIME_HOURS, tokenFromFragment } from '@simcode/contract';
import { Link2Off, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { confirmEmail } from './api';
import { AuthCard, FormError } from './auth-form';
import { Outcome } from './outcome';
import { useSession } from './session';

const linkClass = 'font-medium text-primary hover:underline';

/**
 * `/confirm-email#token=…`: the link sent to a new e-mail address. The change waits for a press of the
 * button, so a mail scanner or a browser that opens links ahead of time cannot confirm it by itself.
 * Works signed in or not: the token says whose address it is.
 */
export function ConfirmEmailPage() {
  useDocumentTitle('Confirm your e-mail address');
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
      Go to your account
    </Link>
  ) : (
    <Link to={appRoutes.login} className={linkClass}>
      Sign in
    </Link>
  );

  return (
    <AuthCard
      title="Confirm your e-mail address"
      subtitle={`Confirmation links work for ${EMAIL_CHANGE_LIFETIME_HOURS} hours, once.`}
    >
      {!token ? (
        <Outcome
          icon={Link2Off}
          tone="warning"
          takeFocus={false}
          message="This link is incomplete: the part that identifies your request is missing. Open the link from the e-mail again, or copy the whole address into the browser."
        >
          {next}
        </Outcome>
      ) : done ? (
        <Outcome icon={MailCheck} message={done}>
          {next}
        </Outcome>
      ) : (
        <div className="flex flex-col gap-4">
          <p className="text-sm text-muted-foreground">
            Press the button to make this the e-mail address of your account. Password reset links and
            notifications will go to it from now on.
          </p>
          {error && <FormError id="confirm-error">{error}</FormError>}
          <Button size="lg" busy={busy} className="w-full" onClick={onConfirm}>
            {busy ? 'Confirming…' : 'Confirm my new address'}
          </Button>
          <p className="text-center text-sm">{next}</p>
        </div>
      )}
    </AuthCard>
  );
}
