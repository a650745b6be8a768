import {
  authMessages,
  CAPTCHA_FIELD,
  type RegisterField,
  registerFieldErrors,
  validateRegister,
} from '@simcode/contract';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { policies } from '@/components/legal/policies';
import { PolicyButton } from '@/components/legal/policy-button';
import { PasswordInput } from '@/components/password-input';
import { Field, fieldErrorId } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { publicPath } from '@/i18n';
import { useDocumentTitle } from '@/lib/use-document-title';
import { register } from './api';
import { AuthForm } from './auth-form';
import { useAuthSubmit } from './use-auth-submit';

const policyLinkClass = 'font-medium text-primary underline-offset-2 hover:underline';

const fieldIds: Record<RegisterField, string> = {
  email: 'email',
  username: 'username',
  password: 'password',
  repeatPassword: 'repeat-password',
};

export function RegisterPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('register.documentTitle'));
  const [fields, setFields] = useState({ email: '', username: '', password: '', repeatPassword: '' });
  const update = (name: keyof typeof fields) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));
  const email = fields.email.trim();
  const username = fields.username.trim();
  // Each field says what is wrong with it once a submit has been tried, and stops as soon as it is fixed.
  const [tried, setTried] = useState(false);
  const fieldErrors = tried ? registerFieldErrors({ ...fields, email, username }) : {};
  const errorProps = (field: RegisterField) =>
    fieldErrors[field]
      ? { 'aria-invalid': true as const, 'aria-describedby': fieldErrorId(fieldIds[field]) }
      : {};
  const submission = useAuthSubmit({
    validate: (captcha) => {
      setTried(true);
      return validateRegister({ ...fields, email, username, captcha });
    },
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
      <Field id="email" label={t('fields.email')} error={fieldErrors.email}>
        <Input
          id="email"
          name="email"
          type="email"
          autoComplete="email"
          value={fields.email}
          onChange={update('email')}
          autoFocus
          {...errorProps('email')}
        />
      </Field>
      <Field
        id="username"
        label={t('fields.username')}
        error={fieldErrors.username}
        below={<p className="text-xs text-muted-foreground">{t('register.usernameHint')}</p>}
      >
        <Input
          id="username"
          name="username"
          autoComplete="username"
          value={fields.username}
          onChange={update('username')}
          {...errorProps('username')}
        />
      </Field>
      <Field id="password" label={t('fields.password')} error={fieldErrors.password}>
        <PasswordInput
          id="password"
          name="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={update('password')}
          {...errorProps('password')}
        />
      </Field>
      <Field id="repeat-password" label={t('register.repeatPassword')} error={fieldErrors.repeatPassword}>
        <PasswordInput
          id="repeat-password"
          name="repeat_password"
          autoComplete="new-password"
          value={fields.repeatPassword}
          onChange={update('repeatPassword')}
          {...errorProps('repeatPassword')}
        />
      </Field>
    </AuthForm>
  );
}
