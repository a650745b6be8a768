import { appRoutes, authMessages, CAPTCHA_FIELD, EMAIL_MAX_LENGTH } from '@simcode/contract';
import { MailCheck } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { publicPath } from '@/i18n';
import { errorMessage } from '@/lib/api-client';
import { useDocumentTitle } from '@/lib/use-document-title';
import { requestPasswordReset } from './api';
import { AuthCard } from './auth-form';
import { CaptchaField } from './captcha-field';
import { Outcome } from './outcome';

/**
 * `/forgot-password`: asks for a reset link by e-mail. The answer is the same whether or not the address
 * has an account, so the page only ever shows the server's sentence.
 */
export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  useDocumentTitle(t('forgot.documentTitle'));
  const [email, setEmail] = useState('');
  const [captcha, setCaptcha] = useState('');
  const [captchaResetKey, setCaptchaResetKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const address = email.trim();
    const rule = !address
      ? authMessages.fillAllFields
      : address.length > EMAIL_MAX_LENGTH
        ? authMessages.emailTooLong
        : !captcha
          ? authMessages.captchaRequired
          : null;
    setError(rule);
    if (rule) return;
    setBusy(true);
    try {
      const answer = await requestPasswordReset({ email: address, [CAPTCHA_FIELD]: captcha });
      setSent(answer.message);
    } catch (failure) {
      setError(errorMessage(failure));
      setCaptchaResetKey((key) => key + 1);
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title={t('forgot.title')} subtitle={t('forgot.subtitle')}>
      {sent ? (
        <Outcome icon={MailCheck} message={sent}>
          <Link to={publicPath(appRoutes.login)} className="font-medium text-primary hover:underline">
            {t('forgot.backToSignIn')}
          </Link>
        </Outcome>
      ) : (
        <form
          noValidate
          onSubmit={onSubmit}
          className="flex flex-col gap-4"
          aria-describedby={error ? 'forgot-error' : undefined}
        >
          <Field id="email" label={t('fields.email')}>
            <Input
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              autoFocus
            />
          </Field>
          <CaptchaField onChange={setCaptcha} resetKey={captchaResetKey} />
          {error && <FormError id="forgot-error">{error}</FormError>}
          <Button type="submit" size="lg" busy={busy} className="w-full">
            {busy ? t('forgot.busy') : t('forgot.submit')}
          </Button>
          <p className="text-center text-sm text-muted-foreground">
            {t('forgot.remembered')}{' '}
            <Link to={publicPath(appRoutes.login)} className="font-medium text-primary hover:underline">
              {t('forgot.signIn')}
            </Link>
          </p>
        </form>
      )}
    </AuthCard>
  );
}
