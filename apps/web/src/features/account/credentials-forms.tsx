import { authMessages, EMAIL_MAX_LENGTH, validatePassword } from '@simcode/contract';
import { KeyRound, Mail, MailCheck } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { FormError } from '@/components/form-error';
import { PasswordInput } from '@/components/password-input';
import { SectionCard } from '@/components/section-card';
import { Alert, AlertDescription } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { errorMessage } from '@/lib/api-client';
import { useChangeEmail, useChangePassword } from './api';

/** The rules' text, or the server's after a failed request; the form points to it. */
export function useFormError(mutation: { isError: boolean; error: unknown }) {
  const [rule, setRule] = useState<string | null>(null);
  const error = rule ?? (mutation.isError ? errorMessage(mutation.error) : null);
  return { error, setRule };
}

export function ChangePasswordForm() {
  const { t } = useTranslation('account');
  const id = useId();
  const change = useChangePassword();
  const [fields, setFields] = useState({ current: '', password: '', repeat: '' });
  const { error, setRule } = useFormError(change);
  const update = (name: keyof typeof fields) => (event: React.ChangeEvent<HTMLInputElement>) =>
    setFields((current) => ({ ...current, [name]: event.target.value }));

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const rule =
      !fields.current || !fields.password || !fields.repeat
        ? authMessages.fillAllFields
        : (validatePassword(fields.password) ??
          (fields.password !== fields.repeat ? authMessages.passwordsDoNotMatch : null));
    setRule(rule);
    if (rule) return;
    change.mutate(
      { current_password: fields.current, password: fields.password, repeat_password: fields.repeat },
      {
        onSuccess: (answer) => {
          setFields({ current: '', password: '', repeat: '' });
          toast.success(answer.message);
        },
      },
    );
  }

  return (
    <SectionCard
      id="password"
      icon={KeyRound}
      title={t('password.title')}
      description={t('password.description')}
    >
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-label={t('password.form')}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <Field id={`${id}-current`} label={t('password.current')}>
          <PasswordInput
            id={`${id}-current`}
            autoComplete="current-password"
            value={fields.current}
            onChange={update('current')}
          />
        </Field>
        <Field id={`${id}-new`} label={t('password.new')}>
          <PasswordInput
            id={`${id}-new`}
            autoComplete="new-password"
            value={fields.password}
            onChange={update('password')}
          />
        </Field>
        <Field id={`${id}-repeat`} label={t('password.repeat')}>
          <PasswordInput
            id={`${id}-repeat`}
            autoComplete="new-password"
            value={fields.repeat}
            onChange={update('repeat')}
          />
        </Field>
        {error && <FormError id={`${id}-error`}>{error}</FormError>}
        <Button type="submit" busy={change.isPending} className="self-start">
          {t('password.submit')}
        </Button>
      </form>
    </SectionCard>
  );
}

export function ChangeEmailForm({ currentEmail }: { currentEmail: string }) {
  const { t } = useTranslation('account');
  const id = useId();
  const change = useChangeEmail();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { error, setRule } = useFormError(change);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    const rule =
      !address || !password
        ? authMessages.fillAllFields
        : address.length > EMAIL_MAX_LENGTH
          ? authMessages.emailTooLong
          : null;
    setRule(rule);
    setSent(null);
    if (rule) return;
    change.mutate(
      { email: address, current_password: password },
      {
        onSuccess: (answer) => {
          setEmail('');
          setPassword('');
          setSent(answer.message);
        },
      },
    );
  }

  return (
    <SectionCard
      id="email"
      icon={Mail}
      title={t('email.title')}
      description={
        <Trans
          t={t}
          i18nKey="email.description"
          values={{ email: currentEmail }}
          components={{ value: <span className="font-medium break-all text-foreground" /> }}
        />
      }
    >
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-label={t('email.form')}
        aria-describedby={error ? `${id}-error` : undefined}
      >
        <Field id={`${id}-email`} label={t('email.new')}>
          <Input
            id={`${id}-email`}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </Field>
        <Field id={`${id}-password`} label={t('email.current')}>
          <PasswordInput
            id={`${id}-password`}
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        {error && <FormError id={`${id}-error`}>{error}</FormError>}
        {/* Always there, so the sentence is read out when it arrives; takes no room while empty. */}
        <div role="status" className="empty:-mb-4">
          {sent && (
            <Alert variant="success" role="none">
              <MailCheck aria-hidden="true" />
              <AlertDescription>{sent}</AlertDescription>
            </Alert>
          )}
        </div>
        <Button type="submit" busy={change.isPending} className="self-start">
          {t('email.submit')}
        </Button>
      </form>
    </SectionCard>
  );
}
