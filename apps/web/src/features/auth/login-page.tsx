import {
  accountMessages,
  appRoutes,
  authMessages,
  CAPTCHA_FIELD,
  isSessionEndReason,
  sessionEndText,
  validateLogin,
} from '@simcode/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { FormError } from '@/components/form-error';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { publicPath } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { login, loginTwoFactor } from './api';
import { AuthCard, AuthForm } from './auth-form';
import { useAuthSubmit, useSignIn } from './use-auth-submit';

/** The second step of a sign-in with two-factor authentication: one code, sent with the challenge. */
function TwoFactorStep({ challenge, onRestart }: { challenge: string; onRestart(): void }) {
  const { t } = useTranslation('auth');
  const signIn = useSignIn();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const typed = code.trim();
    if (!typed) {
      setError(accountMessages.twoFactorPrompt);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const response = await loginTwoFactor({ challenge, code: typed }, authMessages.loginFailed);
      if (!response.token) throw new Error('no token in a successful answer');
      await signIn(response.token);
    } catch (failure) {
      setError(errorMessage(failure, authMessages.loginFailed));
      setBusy(false);
    }
  }

  return (
    <AuthCard title={t('twoFactor.title')} subtitle={t('twoFactor.subtitle')}>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-describedby={error ? 'two-factor-error' : undefined}
      >
        <Field
          id="two-factor-code"
          label={t('twoFactor.code')}
          below={
            <p id="two-factor-hint" className="text-sm text-muted-foreground">
              {accountMessages.twoFactorPrompt}
            </p>
          }
        >
          <Input
            id="two-factor-code"
            name="code"
            autoComplete="one-time-code"
            autoCapitalize="off"
            spellCheck={false}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            aria-describedby="two-factor-hint"
            aria-invalid={error ? true : undefined}
            className="font-mono tracking-wider"
            autoFocus
          />
        </Field>
        {error && <FormError id="two-factor-error">{error}</FormError>}
        <Button type="submit" size="lg" busy={busy} className="w-full">
          {busy ? t('twoFactor.busy') : t('twoFactor.submit')}
        </Button>
        <Button type="button" variant="link" onClick={onRestart} className="self-center">
          {t('twoFactor.startOver')}
        </Button>
      </form>
    </AuthCard>
  );
}

export function LoginPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('login.documentTitle'));
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
  // A session that ended on this device because of something done elsewhere says why.
  const ended = useSearchParams()[0].get('ended');
  const endedText = isSessionEndReason(ended) ? sessionEndText(ended) : null;
  const submission = useAuthSubmit({
    validate: (captcha) => validateLogin({ username: username.trim(), password, captcha }),
    send: (captcha) =>
      login({ username: username.trim(), password, [CAPTCHA_FIELD]: captcha }, authMessages.loginFailed),
    fallbackError: authMessages.loginFailed,
    onChallenge: (next) => {
      // The password has done its part; it is not kept while the code is asked for.
      setPassword('');
      setChallenge(next);
    },
  });

  if (challenge) return <TwoFactorStep challenge={challenge} onRestart={() => setChallenge(null)} />;

  return (
    <AuthForm
      name="login"
      title={t('login.title')}
      subtitle={t('login.subtitle')}
      submission={submission}
      submitLabel={t('login.submit')}
      busyLabel={t('login.busy')}
      notice={
        endedText && (
          <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {endedText}
          </p>
        )
      }
      switchPrompt={t('login.switchPrompt')}
      switchTo={publicPath('/register')}
      switchLabel={t('login.switchLabel')}
    >
      <Field id="username" label={t('fields.usernameOrEmail')}>
        <Input
          id="username"
          name="username"
          autoComplete="username"
          value={username}
          onChange={(e) => setUsername(e.target.value)}
          autoFocus
        />
      </Field>
      <Field
        id="password"
        label={t('fields.password')}
        below={
          <Link
            to={appRoutes.forgotPassword}
            className="self-end text-sm font-medium text-primary hover:underline"
          >
            {t('login.forgotPassword')}
          </Link>
        }
      >
        <PasswordInput
          id="password"
          name="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
      </Field>
    </AuthForm>
  );
}
