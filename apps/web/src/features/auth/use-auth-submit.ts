import { currentLanguage, type LoginResponse } from '@simcode/contract';
import { type FormEvent, useState } from 'react';
import { useNavigate } from 'react-router';
import { rememberLanguage } from '@/i18n/preference';
import { errorMessage } from '@/lib/api-client';
import { saveAccountLanguage, setToken } from '@/lib/session';
import { savedLanguage } from './api';

/**
 * The behaviour both account forms share: check the rules before sending, keep the button busy while the
 * server answers, show its text or the form's fallback, and on success keep the token and open the
 * dashboard. A captcha payload is single-use, so a failed attempt resets the widget. A sign-in to an
 * account with two-factor authentication answers a challenge instead of a token: `onChallenge` gets it.
 */
export function useAuthSubmit({
  validate,
  send,
  fallbackError,
  onChallenge,
}: {
  /** The first broken rule's text, or null. Receives the current captcha payload. */
  validate(captcha: string): string | null;
  send(captcha: string): Promise<LoginResponse>;
  fallbackError: string;
  onChallenge?(challenge: string): void;
}) {
  const signIn = useSignIn();
  const [captcha, setCaptcha] = useState('');
  const [captchaResetKey, setCaptchaResetKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    const rule = validate(captcha);
    setError(rule);
    if (rule) return;
    setBusy(true);
    try {
      const response = await send(captcha);
      if (response.two_factor_required && response.challenge && onChallenge) {
        // The captcha was spent on this attempt: a new one is needed if the user comes back to the form.
        setCaptchaResetKey((key) => key + 1);
        setBusy(false);
        onChallenge(response.challenge);
        return;
      }
      if (!response.token) throw new Error('no token in a successful answer');
      await signIn(response.token);
    } catch (failure) {
      setError(errorMessage(failure, fallbackError));
      setCaptchaResetKey((key) => key + 1);
      setBusy(false);
    }
  }

  return { onSubmit, error, busy, setCaptcha, captchaResetKey };
}

/**
 * Keeps a sign-in's token and opens the dashboard: the end of every way to sign in. The account's saved
 * language wins from here on: when it differs from the one being read, the dashboard loads in it; an
 * account without one keeps the language it signed in with.
 */
export function useSignIn() {
  const navigate = useNavigate();
  return async (token: string) => {
    setToken(token);
    const target = afterSignInPath(window.location.search);
    const saved = await savedLanguage();
    if (saved === null) saveAccountLanguage(currentLanguage());
    if (saved && saved !== currentLanguage()) {
      rememberLanguage(saved);
      window.location.assign(target);
      return;
    }
    navigate(target, { replace: true });
  };
}

/**
 * Where a sign-in or sign-up goes: the dashboard, or the dashboard page the visitor came from (`?next=`, a
 * public price list's Buy). Only a path of this site's dashboard is followed, never another address.
 */
export function afterSignInPath(search: string): string {
  const next = new URLSearchParams(search).get('next');
  return next && /^\/dashboard(?:[/?]|$)/.test(next) && !next.includes('//') ? next : '/dashboard';
}
