import { z } from 'zod';
import { apiPaths } from './api-paths';
import { CAPTCHA_FIELD } from './auth';
import { defineMessages } from './i18n/define-messages';
import { LANGUAGES } from './i18n/languages';
import en from './i18n/locales/en.json';
import { EMAIL_MAX_LENGTH } from './limits';
import { plainText, validationMessages as say } from './wire';

/**
 * The account page (`/dashboard/account`), password reset, e-mail change and two-factor sign-in. Field
 * names are snake_case like the rest of the API; a wrong type is refused, a missing text counts as empty.
 */

/** A password reset link works this long, and once. */
export const PASSWORD_RESET_LIFETIME_MINUTES = 60;
/** An e-mail change link works this long, and once. */
export const EMAIL_CHANGE_LIFETIME_HOURS = 24;
/** The old address's link that moves a changed e-mail address back works this long, and once. */
export const EMAIL_REVERT_LIFETIME_DAYS = 7;
/** Between the password and the second factor, a sign-in waits this long for the code. */
export const TWO_FACTOR_CHALLENGE_LIFETIME_MINUTES = 5;
export const RECOVERY_CODE_COUNT = 10;
/** Digits of a TOTP code (RFC 6238 with SHA-1 and 30-second steps, what every authenticator app reads). */
export const TOTP_DIGITS = 6;

export const accountMessages = defineMessages('account', en.account, (t) => ({
  emailChangeSent: (email: string) => t('emailChangeSent', { email }),
  emailChanged: (email: string) => t('emailChanged', { email }),
  emailReverted: (email: string) => t('emailReverted', { email }),
}));

const text = (maxLength: number) => plainText(maxLength).optional().default('');
const password = text(1000);
const code = text(40);

export const twoFactorLoginRequestSchema = z.object({
  challenge: plainText(2000),
  code,
});

export const forgotPasswordRequestSchema = z.object({
  email: text(1000),
  [CAPTCHA_FIELD]: plainText(20_000).optional().default(''),
});
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;

/** Whether a revocation the owner starts (a reset, a sign-out everywhere) takes the API keys too. */
const revokeApiKeys = z
  .boolean({ error: () => say.mustBeBoolean })
  .optional()
  .default(true);

export const resetPasswordRequestSchema = z.object({
  token: plainText(200),
  password,
  repeat_password: password,
  revoke_api_keys: revokeApiKeys,
});
export type ResetPasswordRequest = z.input<typeof resetPasswordRequestSchema>;

/** The token of a mailed e-mail link: the new address's confirmation, or the old address's revert. */
export const confirmEmailRequestSchema = z.object({ token: plainText(200) });

/** Sign out everywhere; with no body the API keys are revoked too. */
export const logoutEverywhereRequestSchema = z.preprocess(
  (body) => body ?? {},
  z.object({ revoke_api_keys: revokeApiKeys }),
);
/** The body's type (the schema's input type is `unknown`, since it also takes no body at all). */
export interface LogoutEverywhereRequest {
  revoke_api_keys?: boolean;
}

export const changePasswordRequestSchema = z.object({
  current_password: password,
  password,
  repeat_password: password,
});
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;

export const changeEmailRequestSchema = z.object({
  email: text(EMAIL_MAX_LENGTH * 4),
  current_password: password,
});
export type ChangeEmailRequest = z.input<typeof changeEmailRequestSchema>;

export const enableTwoFactorRequestSchema = z.object({ code });

/** Turning 2FA off or renewing recovery codes asks for the password and a current code. */
export const confirmTwoFactorRequestSchema = z.object({ current_password: password, code });
export type ConfirmTwoFactorRequest = z.input<typeof confirmTwoFactorRequestSchema>;

export const notificationsRequestSchema = z.object({
  code_emails: z.boolean({ error: () => say.mustBeTrueOrFalse }),
});

export const buyingPreferencesRequestSchema = z.object({
  one_click_buying: z.boolean({ error: () => say.mustBeTrueOrFalse }),
});

export const accountSchema = z.object({
  username: z.string(),
  email: z.string(),
  two_factor_enabled: z.boolean(),
  recovery_codes_left: z.number().int(),
  code_emails: z.boolean(),
  /** The dashboard buys without asking first (the price guard still asks when a price went up). */
  one_click_buying: z.boolean(),
  created_at: z.string(),
  /** The language the user chose for the site and e-mails; null until they choose one. */
  language: z.enum(LANGUAGES).nullable(),
});
export type Account = z.infer<typeof accountSchema>;

/** The account API's paths, under the name the server's tests use (`apiPaths` is the one table). */
export const accountApiPaths = apiPaths.account;

/** Saves the language preference (`PUT apiPaths.account.language`); answered with a message. */
export const languageRequestSchema = z.strictObject({
  language: z.enum(LANGUAGES, {
    error: (issue) => (issue.input === undefined ? say.isRequired : say.language),
  }),
});
export type LanguageRequest = z.input<typeof languageRequestSchema>;

export const accountResponseSchema = z.object({ success: z.literal(true), account: accountSchema });

/** A sign-in's answer: a token, or (two-factor on) a challenge to send back with the code. */
export const loginResponseSchema = z.object({
  success: z.boolean(),
  token: z.string().optional(),
  two_factor_required: z.boolean().optional(),
  challenge: z.string().optional(),
  error: z.string().optional(),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const messageResponseSchema = z.object({ success: z.literal(true), message: z.string() });

/** A password change keeps this device signed in with a fresh token; every other session ends. */
export const passwordChangedResponseSchema = messageResponseSchema.extend({ token: z.string() });

export const twoFactorSetupResponseSchema = z.object({
  success: z.literal(true),
  /** Base32, for typing into an app by hand. */
  secret: z.string(),
  otpauth_url: z.string(),
  /** The otpauth URL as a QR code, an SVG drawn on the server: no image service sees the secret. */
  qr_svg: z.string(),
});
export type TwoFactorSetup = z.infer<typeof twoFactorSetupResponseSchema>;

export const recoveryCodesResponseSchema = messageResponseSchema.extend({
  recovery_codes: z.array(z.string()),
});

export const sessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  user_agent: z.string().nullable(),
  address: z.string().nullable(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof sessionSchema>;

export const sessionsResponseSchema = z.object({
  success: z.literal(true),
  sessions: z.array(sessionSchema),
});

export const sessionIdParams = z.object({
  id: z.uuid({ error: () => say.sessionId }),
});

/** Where the links in e-mails lead; the token rides in the fragment, so no server log or referrer sees it. */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/reset-password#token=${token}`;
}

export function emailConfirmLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/confirm-email#token=${token}`;
}

export function emailRevertLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/revert-email#token=${token}`;
}

/** Reads the token a link carried in its fragment (`#token=…`); empty when there is none. */
export function tokenFromFragment(hash: string): string {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token') ?? '';
}
