import { defineMessages } from './i18n/define-messages';
import { translate } from './i18n/instance';
import en from './i18n/locales/en.json';

/**
 * Every user-facing text the spec names (sections 5 and 8), plus the few this product adds.
 * The server answers with these and the web app shows them, so they must never drift apart. The texts
 * live in the shared catalogue (`i18n/locales/*.json`, one namespace per object) and are read in the
 * current language.
 */
export const authMessages = defineMessages('auth', en.auth, (t) => ({
  tooManyAttempts: (seconds: number) => t('tooManyAttempts', { count: seconds }),
}));

export const sessionMessages = defineMessages('session', en.session);

export const generalMessages = defineMessages('general', en.general, (t) => ({
  /** The rate limit's refusal; `after` is a duration of `durationText`. */
  tooManyRequestsIn: (after: string) => t('tooManyRequestsIn', { after }),
}));

const DURATION_UNITS = [
  ['days', 86_400_000],
  ['hours', 3_600_000],
  ['minutes', 60_000],
] as const;

/**
 * A wait in the current language, in the largest unit it reaches, rounded ('1 minute', '2 hours'): how
 * the rate limit words its retry time.
 */
export function durationText(milliseconds: number): string {
  for (const [unit, size] of DURATION_UNITS) {
    if (milliseconds >= size) return translate(`general.${unit}`, { count: Math.round(milliseconds / size) });
  }
  return translate('general.seconds', { count: Math.max(1, Math.round(milliseconds / 1000)) });
}

/**
 * The error code of the answers that end the session (spec section 8's 'Unauthorized' and 'Invalid
 * token'): no token, or one that is malformed, expired, revoked or whose user is gone. The code, not the
 * text, because the text follows the language.
 */
export const SESSION_ENDING_CODE = 'unauthorized';

/** Whether an error answer's body ends the session: the web app then clears it and goes to /login. */
export function isSessionEndingError(body: { code?: unknown } | null | undefined): boolean {
  return body?.code === SESSION_ENDING_CODE;
}
export const catalogMessages = defineMessages('catalog', en.catalog);
