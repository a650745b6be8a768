import 'altcha/external';
import 'altcha/altcha.css';
import type {} from 'altcha/types/react';
import Pbkdf2Worker from 'altcha/workers/pbkdf2?worker';
import { useEffect, useRef } from 'react';

// The external build ships without workers, so the strict Content-Security-Policy holds: the worker is
// a file of this origin, not a blob.
globalThis.$altcha.algorithms.set('PBKDF2/SHA-256', () => new Pbkdf2Worker());

interface AltchaWidgetProps {
  /** Receives the payload once solved, and '' when it expires or fails. */
  onChange(payload: string): void;
  /** Changing it resets the widget (a payload is single-use; a failed submit needs a new one). */
  resetKey?: number;
}

/** The self-hosted ALTCHA proof-of-work checkbox. */
export default function AltchaWidget({ onChange, resetKey = 0 }: AltchaWidgetProps) {
  const widgetRef = useRef<HTMLElement & { reset?: () => void }>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

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
      challenge="/api/captcha/challenge"
      name="altcha"
      style={{ '--altcha-max-width': '100%' } as React.CSSProperties}
      configuration={JSON.stringify({ hideFooter: false, minDuration: 300 })}
    />
  );
}
