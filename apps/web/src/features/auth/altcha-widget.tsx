import 'altcha/external';
import 'altcha/altcha.css';
import { apiPaths } from '@simcode/contract';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

// The external build ships without workers, so the strict Content-Security-Policy holds: the worker is
// a file of this origin, not a blob.
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

interface AltchaWidgetProps {
  /** Receives the payload once solved, and '' when it expires or fails. */
  onChange(payload: string): void;
  /** Changing it resets the widget (a payload is single-use; a failed submit needs a new one). */
  resetKey?: number;
}

/** The widget's texts, by the names ALTCHA reads them under. */
const ALTCHA_TEXTS = [
  'label',
  'verifying',
  'verified',
  'waitAlert',
  'verificationRequired',
  'error',
  'expired',
  'loading',
  'reload',
  'verify',
  'cancel',
  'enterCode',
  'enterCodeAria',
  'enterCodeFromImage',
  'getAudioChallenge',
  'ariaLinkLabel',
] as const;

/** The self-hosted ALTCHA proof-of-work checkbox. */
export default function AltchaWidget({ onChange, resetKey = 0 }: AltchaWidgetProps) {
  const { t, i18n } = useTranslation('auth');
  const language = i18n.language;
  const widgetRef = useRef<HTMLElement & { reset?: () => void }>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  // ALTCHA's own translations are loose; the widget reads ours, registered under the app's language
  // before the first paint.
  useLayoutEffect(() => {
    const texts: Record<string, string> = {};
    for (const name of ALTCHA_TEXTS) texts[name] = t(`captcha.${name}`);
    const link = `<a href="https://altcha.org/" tabindex="-1" target="_blank" aria-label="${texts.ariaLinkLabel}">ALTCHA</a>`;
    texts.footer = t('captcha.footer', { link });
    globalThis.$altcha.i18n.set(language, texts);
  }, [language, t]);

  useEffect(() => {
    const widget = widgetRef.current;
    if (!widget) return;
    const onStateChange = (event: Event) => {
      const { state, payload } = (event as CustomEvent<{ state: string; payload?: string }>).detail;
      onChangeRef.current(state === 'verified' && payload ? payload : '');
    };
    widget.addEventListener('statechange', onStateChange);
    return () => widget.removeEventListener('statechange', onStateChange);
  }, []);

  useEffect(() => {
    if (resetKey > 0) {
      widgetRef.current?.reset?.();
      onChangeRef.current('');
    }
  }, [resetKey]);

  return (
    <altcha-widget
      ref={widgetRef}
      challenge={apiPaths.captchaChallenge}
      name="altcha"
      language={language}
      style={{ '--altcha-max-width': '100%' } as React.CSSProperties}
      configuration={JSON.stringify({ hideFooter: false, minDuration: 300 })}
    />
  );
}
