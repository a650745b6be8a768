import { authMessages, CAPTCHA_FIELD, validateRegister } from '@simcode/contract';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { policies } from '@/components/legal/policies';
import { PolicyButton } from '@/components/legal/policy-button';
import { PasswordInput } from '@/components/password-input';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { publicPath } from '@/i18n';
import { useDocumentTitle } from '@/lib/use-document-title';
import { register } from './api';
import { AuthForm } from './auth-form';
import { useAuthSubmit } from './use-auth-submit';

const policyLinkClass = 'font-medium text-primary underline-offset-2 hover:underline';

export function RegisterPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('register.documentTitle'));
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
      title={t('register.title')}
      subtitle={t('register.subtitle')}
      submission={submission}
      submitLabel={t('register.submit')}
      busyLabel={t('register.busy')}
      notice={
        <p className="text-xs leading-relaxed text-muted-foreground">
          <Trans
            t={t}
            i18nKey="register.terms"
            components={{
              terms: <PolicyButton policy={policies.terms} className={policyLinkClass} />,
              refund: <PolicyButton policy={policies.refund} className={policyLinkClass} />,
            }}
          />
        </p>
      }
      switchPrompt={t('register.switchPrompt')}
      switchTo={publicPath('/login')}
      switchLabel={t('register.switchLabel')}
    >
      <Field id="email" label={t('fields.email')}>
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
        label={t('fields.username')}
        below={<p className="text-xs text-muted-foreground">{t('register.usernameHint')}</p>}
      >
        <Input
          id="username"
          name="username"
          autoComplete="username"
          value={fields.username}
          onChange={update('username')}
        />
      </Field>
      <Field id="password" label={t('fields.password')}>
        <PasswordInput
          id="password"
          name="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={update('password')}
        />
      </Field>
      <Field id="repeat-password" label={t('register.repeatPassword')}>
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
