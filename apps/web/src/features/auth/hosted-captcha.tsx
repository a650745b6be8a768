import type { CaptchaConfig } from '@simcode/contract';
import { useEffect, useRef } from 'react';
import { locale } from '@/i18n';

interface HostedCaptchaApi {
  render(element: HTMLElement, options: Record<string, unknown>): string | number;
  reset(id?: string | number): void;
}

const SCRIPTS: Record<Exclude<CaptchaConfig['provider'], 'altcha'>, { src: string; global: string }> = {
  recaptcha: { src: 'https://www.google.com/recaptcha/api.js?render=explicit', global: 'grecaptcha' },
  hcaptcha: { src: 'https://js.hcaptcha.com/1/api.js?render=explicit', global: 'hcaptcha' },
  turnstile: {
    src: 'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit',
    global: 'turnstile',
  },
};

function loadApi(provider: keyof typeof SCRIPTS): Promise<HostedCaptchaApi> {
  const { src, global } = SCRIPTS[provider];
  const ready = () => (window as unknown as Record<string, HostedCaptchaApi | undefined>)[global];
  return new Promise((resolve, reject) => {
    const existing = ready();
    if (existing?.render) return resolve(existing);
    const script = document.createElement('script');
    // reCAPTCHA and hCaptcha take their language in the script's address, Turnstile when it renders.
    script.src = provider === 'turnstile' ? src : `${src}&hl=${locale()}`;
    script.async = true;
    script.onerror = () => reject(new Error(`could not load ${provider}`));
    script.onload = () => {
      // The APIs finish initialising shortly after their script runs.
      const poll = window.setInterval(() => {
        const api = ready();
        if (api?.render) {
          window.clearInterval(poll);
          resolve(api);
        }
      }, 50);
    };
    document.head.appendChild(script);
  });
}

/**
 * reCAPTCHA, hCaptcha or Turnstile, loaded from the provider only when an operator configured one
 * (the server then widens its Content-Security-Policy to that provider's hosts).
 */
export default function HostedCaptcha({
  provider,
  siteKey,
  onChange,
  resetKey = 0,
}: {
  provider: keyof typeof SCRIPTS;
  siteKey: string;
  onChange(payload: string): void;
  resetKey?: number;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const apiRef = useRef<{ api: HostedCaptchaApi; id: string | number } | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  useEffect(() => {
    let cancelled = false;
    loadApi(provider)
      .then((api) => {
        if (cancelled || !containerRef.current) return;
        const id = api.render(containerRef.current, {
          sitekey: siteKey,
          ...(provider === 'turnstile' && { language: locale() }),
          callback: (token: string) => onChangeRef.current(token),
          'expired-callback': () => onChangeRef.current(''),
          'error-callback': () => onChangeRef.current(''),
        });
        apiRef.current = { api, id };
      })
      .catch(() => onChangeRef.current(''));
    return () => {
      cancelled = true;
    };
  }, [provider, siteKey]);

  useEffect(() => {
    if (resetKey > 0 && apiRef.current) {
      apiRef.current.api.reset(apiRef.current.id);
      onChangeRef.current('');
    }
  }, [resetKey]);

  return <div ref={containerRef} className="min-h-[78px]" />;
}
