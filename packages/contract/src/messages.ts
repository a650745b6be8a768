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

/**
 * Why a session ended, as the device it ended on is told (the `reason` of its 401, then `/login?ended=`):
 * the server's revocation causes, grouped by what the person should do next.
 */
export const sessionEndReasons = [
  'password_changed',
  'signed_out_everywhere',
  'two_factor_changed',
  'blocked',
  'session_ended',
] as const;
export type SessionEndReason = (typeof sessionEndReasons)[number];

/** A stored revocation cause (`password_change`, `sign_out`, …) as the reason the device is told. */
export function sessionEndReasonOf(cause: string): SessionEndReason {
  switch (cause) {
    case 'password_change':
    case 'password_reset':
      return 'password_changed';
    case 'sign_out_everywhere':
    case 'admin_sign_out':
      return 'signed_out_everywhere';
    case 'two_factor_change':
      return 'two_factor_changed';
    case 'block':
      return 'blocked';
    default:
      return 'session_ended';
  }
}

export function isSessionEndReason(value: unknown): value is SessionEndReason {
  return typeof value === 'string' && (sessionEndReasons as readonly string[]).includes(value);
}

/** What the sign-in page says about a session that ended elsewhere, in the current language. */
export function sessionEndText(reason: SessionEndReason): string {
  switch (reason) {
    case 'password_changed':
      return sessionMessages.endedPasswordChanged;
    case 'signed_out_everywhere':
      return sessionMessages.endedEverywhere;
    case 'two_factor_changed':
      return sessionMessages.endedTwoFactor;
    case 'blocked':
      return sessionMessages.endedBlocked;
    case 'session_ended':
      return sessionMessages.endedSession;
  }
}

/** Whether an error answer's body ends the session: the web app then clears it and goes to /login. */
export function isSessionEndingError(body: { code?: unknown } | null | undefined): boolean {
  return body?.code === SESSION_ENDING_CODE;
}
export const catalogMessages = defineMessages('catalog', en.catalog);
