import {
  appRoutes,
  authMessages,
  PASSWORD_RESET_LIFETIME_MINUTES,
  tokenFromFragment,
  validatePassword,
} from '@simcode/contract';
import { KeyRound, Link2Off } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { resetPassword } from './api';
import { AuthCard, FormError } from './auth-form';
import { Outcome } from './outcome';
import { PasswordInput } from './password-input';
import { clearToken, getToken } from './session';

const linkClass = 'font-medium text-primary hover:underline';

/**
 * `/reset-password#token=…`: the link of a password reset e-mail. The token rides in the fragment, which
 * no server log or referrer sees; the page sends it with the new password.
 */
export function ResetPasswordPage() {
  useDocumentTitle('Choose a new password');
  const { hash } = useLocation();
  const [token] = useState(() => tokenFromFragment(hash));
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const rule =
      !password || !repeat
        ? authMessages.fillAllFields
        : (validatePassword(password) ?? (password !== repeat ? authMessages.passwordsDoNotMatch : null));
    setError(rule);
    if (rule) return;
    setBusy(true);
    try {
      const answer = await resetPassword({ token, password, repeat_password: repeat });
      // Every session ended on the server, this browser's too if it was signed in.
      if (getToken()) clearToken();
      setDone(answer.message);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  }

  if (!token) {
    return (
      <AuthCard title="Choose a new password" subtitle="For the account the reset e-mail was sent to.">
        <Outcome
          icon={Link2Off}
          tone="warning"
          takeFocus={false}
          message="This link is incomplete: the part that identifies your request is missing. Open the link from the e-mail again, or copy the whole address into the browser."
        >
          <Link to={appRoutes.forgotPassword} className={linkClass}>
            Ask for a new link
          </Link>
        </Outcome>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle={`Reset links work for ${PASSWORD_RESET_LIFETIME_MINUTES} minutes, once. Signing in again will be needed everywhere.`}
    >
      {done ? (
        <Outcome icon={KeyRound} message={done}>
          <Link to={appRoutes.login} className={linkClass}>
            Sign in
          </Link>
        </Outcome>
      ) : (
        <form
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-4"
          aria-describedby={error ? 'reset-error' : undefined}
        >
          <Field id="new-password" label="New password">
            <PasswordInput
              id="new-password"
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoFocus
            />
          </Field>
          <Field id="repeat-password" label="Repeat new password">
            <PasswordInput
              id="repeat-password"
              name="repeat_password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </Field>
          {error && <FormError id="reset-error">{error}</FormError>}
          <Button type="submit" size="lg" busy={busy} className="w-full">
            {busy ? 'Saving…' : 'Set new password'}
          </Button>
          <p className="text-center text-sm text-muted-foreground">
            Link expired?{' '}
            <Link to={appRoutes.forgotPassword} className={linkClass}>
              Ask for a new one
            </Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
