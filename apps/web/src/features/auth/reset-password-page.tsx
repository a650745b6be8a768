import {
  appRoutes,
  authMessages,
  PASSWORD_RESET_LIFETIME_MINUTES,
  tokenFromFragment,
  validatePassword,
} from '@simcode/contract';
import { KeyRound, Link2Off } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { CheckboxField } from '@/components/checkbox-field';
import { FormError } from '@/components/form-error';
import { PasswordInput } from '@/components/password-input';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { publicPath } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { clearToken, getToken } from '@/lib/session';
import { useDocumentTitle } from '@/lib/use-document-title';
import { resetPassword } from './api';
import { AuthCard } from './auth-form';
import { Outcome } from './outcome';

const linkClass = 'font-medium text-primary hover:underline';

/**
 * `/reset-password#token=…`: the link of a password reset e-mail. The token rides in the fragment, which
 * no server log or referrer sees; the page sends it with the new password.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('reset.title'));
  const { hash } = useLocation();
  const [token] = useState(() => tokenFromFragment(hash));
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [revokeKeys, setRevokeKeys] = useState(true);
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
      const answer = await resetPassword({
        token,
        password,
        repeat_password: repeat,
        revoke_api_keys: revokeKeys,
      });
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
      <AuthCard title={t('reset.title')} subtitle={t('reset.subtitleNoToken')}>
        <Outcome icon={Link2Off} tone="warning" takeFocus={false} message={t('incompleteLink')}>
          <Link to={appRoutes.forgotPassword} className={linkClass}>
            {t('reset.askNewLink')}
          </Link>
        </Outcome>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('reset.title')}
      subtitle={t('reset.subtitle', { count: PASSWORD_RESET_LIFETIME_MINUTES })}
    >
      {done ? (
        <Outcome icon={KeyRound} message={done}>
          <Link to={publicPath(appRoutes.login)} className={linkClass}>
            {t('reset.signIn')}
          </Link>
        </Outcome>
      ) : (
        <form
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-4"
          aria-describedby={error ? 'reset-error' : undefined}
        >
          <Field id="new-password" label={t('fields.newPassword')}>
            <PasswordInput
              id="new-password"
              name="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              autoFocus
            />
          </Field>
          <Field id="repeat-password" label={t('fields.repeatNewPassword')}>
            <PasswordInput
              id="repeat-password"
              name="repeat_password"
              autoComplete="new-password"
              value={repeat}
              onChange={(e) => setRepeat(e.target.value)}
            />
          </Field>
          <CheckboxField checked={revokeKeys} onChange={setRevokeKeys} label={t('reset.revokeKeys')} />
          {error && <FormError id="reset-error">{error}</FormError>}
          <Button type="submit" size="lg" busy={busy} className="w-full">
            {busy ? t('reset.busy') : t('reset.submit')}
          </Button>
          <p className="text-center text-sm text-muted-foreground">
            {t('reset.expired')}{' '}
            <Link to={appRoutes.forgotPassword} className={linkClass}>
              {t('reset.askNewOne')}
            </Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
