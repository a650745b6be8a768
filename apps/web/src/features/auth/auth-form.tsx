import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FormError } from '@/components/form-error';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { CaptchaField } from './captcha-field';
import type { useAuthSubmit } from './use-auth-submit';

/**
 * The sign-in and sign-up pages: the card, the form's own fields, then what both share in the same
 * order (captcha, the server's or the rules' error, an optional notice, the submit button and the way
 * to the other form).
 */
export function AuthForm({
  name,
  title,
  subtitle,
  submission,
  submitLabel,
  busyLabel,
  notice,
  switchPrompt,
  switchTo,
  switchLabel,
  children,
}: {
  /** Prefixes the error's id, which the form points to for screen readers. */
  name: string;
  title: string;
  subtitle: string;
  submission: ReturnType<typeof useAuthSubmit>;
  submitLabel: string;
  busyLabel: string;
  notice?: ReactNode;
  switchPrompt: string;
  switchTo: string;
  switchLabel: string;
  children: ReactNode;
}) {
  const { onSubmit, error, busy, setCaptcha, captchaResetKey } = submission;
  const errorId = `${name}-error`;
  return (
    <AuthCard title={title} subtitle={subtitle}>
      <form
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-4"
        aria-describedby={error ? errorId : undefined}
      >
        {children}
        <CaptchaField onChange={setCaptcha} resetKey={captchaResetKey} />
        {error && <FormError id={errorId}>{error}</FormError>}
        {notice}
        <Button type="submit" size="lg" busy={busy} className="w-full">
          {busy ? busyLabel : submitLabel}
        </Button>
        <p className="text-center text-sm text-muted-foreground">
          {switchPrompt}{' '}
          <Link to={switchTo} className="font-medium text-primary hover:underline">
            {switchLabel}
          </Link>
        </p>
      </form>
    </AuthCard>
  );
}

/**
 * The card every page of the signed-out account flow sits in (sign-in, sign-up, the password reset and
 * the e-mail confirmation): the logo, the page's heading and a way back home.
 */
export function AuthCard({
  title,
  subtitle,
  children,
}: {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('auth');
  return (
    <main className="flex min-h-dvh items-start justify-center bg-gradient-to-b from-indigo-50/80 via-white to-white px-4 pt-28 pb-16 sm:items-center sm:pt-24">
      <div className="w-full max-w-md">
        <div className="rounded-2xl border bg-white p-6 shadow-lg shadow-indigo-100/60 sm:p-8">
          <div className="mb-6 flex flex-col items-center gap-3 text-center">
            <LogoMark className="size-11" />
            <div>
              <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
              <p className="mt-1 text-sm text-muted-foreground">{subtitle}</p>
            </div>
          </div>
          {children}
        </div>
        <div className="mt-6 text-center text-sm text-muted-foreground">
          <Link to={publicPath('/')} className="hover:text-foreground hover:underline">
            {t('card.backHome')}
          </Link>
        </div>
      </div>
    </main>
  );
}
