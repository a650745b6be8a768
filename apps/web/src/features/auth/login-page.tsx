import { accountMessages, appRoutes, authMessages, CAPTCHA_FIELD, validateLogin } from '@simcode/contract';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { login, loginTwoFactor } from './api';
import { AuthCard, AuthForm, FormError } from './auth-form';
import { PasswordInput } from './password-input';
import { useAuthSubmit, useSignIn } from './use-auth-submit';

/** The second step of a sign-in with two-factor authentication: one code, sent with the challenge. */
function TwoFactorStep({ challenge, onRestart }: { challenge: string; onRestart(): void }) {
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
      signIn(response.token);
    } catch (failure) {
      setError(errorMessage(failure, authMessages.loginFailed));
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Two-factor authentication" subtitle="One more step to sign in.">
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-describedby={error ? 'two-factor-error' : undefined}
      >
        <Field
          id="two-factor-code"
          label="Authentication code"
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
          {busy ? 'Checking…' : 'Verify and sign in'}
        </Button>
        <Button type="button" variant="link" onClick={onRestart} className="self-center">
          Start over
        </Button>
      </form>
    </AuthCard>
  );
}

export function LoginPage() {
  useDocumentTitle('Sign in');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<string | null>(null);
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
      title="Welcome back"
      subtitle="Sign in to buy numbers and read your codes."
      submission={submission}
      submitLabel="Sign In"
      busyLabel="Signing in…"
      switchPrompt="Don't have an account?"
      switchTo="/register"
      switchLabel="Create one"
    >
      <Field id="username" label="Username">
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
        label="Password"
        below={
          <Link
            to={appRoutes.forgotPassword}
            className="self-end text-sm font-medium text-primary hover:underline"
          >
            Forgot password?
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
