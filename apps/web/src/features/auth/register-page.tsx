import { authMessages, CAPTCHA_FIELD, validateRegister } from '@simcode/contract';
import { useState } from 'react';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { policies } from '@/features/legal/policies';
import { PolicyButton } from '@/features/legal/policy-button';
import { useDocumentTitle } from '@/lib/use-document-title';
import { register } from './api';
import { AuthForm } from './auth-form';
import { PasswordInput } from './password-input';
import { useAuthSubmit } from './use-auth-submit';

const policyLinkClass = 'font-medium text-primary underline-offset-2 hover:underline';

export function RegisterPage() {
  useDocumentTitle('Create account');
  const [fields, setFields] = useState({ email: '', username: '', password: '', repeatPassword: '' });
  const update = (name: keyof typeof fields) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));
  const email = fields.email.trim();
  const username = fields.username.trim();
  const submission = useAuthSubmit({
    validate: (captcha) => validateRegister({ ...fields, email, username, captcha }),
    send: (captcha) =>
      register(
        {
          email,
          username,
          password: fields.password,
          repeat_password: fields.repeatPassword,
          [CAPTCHA_FIELD]: captcha,
        },
        authMessages.registrationFailed,
      ),
    fallbackError: authMessages.registrationFailed,
  });

  return (
    <AuthForm
      name="register"
      title="Create your account"
      subtitle="One step: your contact details and a password."
      submission={submission}
      submitLabel="Create Account"
      busyLabel="Creating account…"
      notice={
        <p className="text-xs leading-relaxed text-muted-foreground">
          By creating an account you agree to our{' '}
          <PolicyButton policy={policies.terms} className={policyLinkClass} /> and{' '}
          <PolicyButton policy={policies.refund} className={policyLinkClass} />, and confirm that you will use
          numbers lawfully.
        </p>
      }
      switchPrompt="Already have an account?"
      switchTo="/login"
      switchLabel="Sign in"
    >
      <Field id="email" label="Email">
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          value={fields.email}
          onChange={update('email')}
          autoFocus
        />
      </Field>
      <Field
        id="username"
        label="Username"
        below={<p className="text-xs text-muted-foreground">3 to 19 letters, numbers or underscores.</p>}
      >
        <Input
          id="username"
          name="username"
          autoComplete="username"
          value={fields.username}
          onChange={update('username')}
        />
      </Field>
      <Field id="password" label="Password">
        <PasswordInput
          id="password"
          name="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={update('password')}
        />
      </Field>
      <Field id="repeat-password" label="Repeat password">
        <PasswordInput
          id="repeat-password"
          name="repeat_password"
          autoComplete="new-password"
          value={fields.repeatPassword}
          onChange={update('repeatPassword')}
        />
      </Field>
    </AuthForm>
  );
}
