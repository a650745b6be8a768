import { authMessages, CAPTCHA_FIELD, validateLogin } from '@simcode/contract';
import { useState } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { useDocumentTitle } from '@/lib/use-document-title';
import { login } from './api';
import { AuthForm } from './auth-form';
import { PasswordInput } from './password-input';
import { useAuthSubmit } from './use-auth-submit';

export function LoginPage() {
  useDocumentTitle('Sign in');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const submission = useAuthSubmit({
    validate: (captcha) => validateLogin({ username: username.trim(), password, captcha }),
    send: (captcha) =>
      login({ username: username.trim(), password, [CAPTCHA_FIELD]: captcha }, authMessages.loginFailed),
    fallbackError: authMessages.loginFailed,
  });

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
      <Field id="password" label="Password">
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
