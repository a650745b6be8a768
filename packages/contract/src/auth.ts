import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  USERNAME_PATTERN,
} from './limits';
import { authMessages, generalMessages } from './messages';
import { plainText } from './wire';

/** The spec's field name for the captcha payload, whatever the captcha provider is. */
export const CAPTCHA_FIELD = 'g-recaptcha-response';

/**
 * Wire shapes. Strings are bounded far above the business limits so that oversized input is refused
 * cheaply by the schema, while the business rules below produce the spec's exact texts. A missing field
 * counts as empty, so it gets 'Please fill in all fields.' like an empty one; a wrong type is refused.
 */
const wireString = plainText(1000).optional().default('');
const captchaString = plainText(20_000);

export const loginRequestSchema = z.object({
  username: wireString,
  password: wireString,
  [CAPTCHA_FIELD]: captchaString.optional().default(''),
});
export type LoginRequest = z.input<typeof loginRequestSchema>;

export const registerRequestSchema = z.object({
  email: wireString,
  username: wireString,
  password: wireString,
  repeat_password: wireString,
  [CAPTCHA_FIELD]: captchaString.optional().default(''),
});
export type RegisterRequest = z.input<typeof registerRequestSchema>;

export const authResponseSchema = z.object({
  success: z.boolean(),
  token: z.string().optional(),
  error: z.string().optional(),
});
export type AuthResponse = z.infer<typeof authResponseSchema>;

/**
 * The one reading of a typed username: sign-in, sign-up and the per-username attempt limit all use it, so
 * `"\u3000 Bob\t"` is the same account and the same limit as `bob`. (`trim` removes Unicode spaces too;
 * usernames are compared without case.)
 */
export function normalizeUsername(value: string): string {
  return value.trim();
}

/** The key of a username's attempt limit: the normalised name without case. */
export function usernameLimitKey(value: string): string {
  return normalizeUsername(value).toLowerCase();
}

/** A pragmatic e-mail check: one @, no spaces, a dot in the domain. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether a typed value is an e-mail address (sign-in takes one in the username field). */
export function isEmailAddress(value: string): boolean {
  return EMAIL_PATTERN.test(value);
}

interface LoginFields {
  username: string;
  password: string;
  captcha: string;
}

/**
 * The login rules of spec section 5 (the username field also takes the account's e-mail address), in the spec's order: the first broken rule's text is the answer.
 * Returns null when every rule holds. The captcha is only checked for presence here; the server verifies it.
 */
export function validateLogin({ username, password, captcha }: LoginFields): string | null {
  if (!username || !password) return authMessages.fillAllFields;
  // An e-mail address signs in too: the username's length rules are not its rules.
  const byEmail = isEmailAddress(username);
  if (!byEmail && username.length < USERNAME_MIN_LENGTH) return authMessages.usernameTooShort;
  if (password.length < PASSWORD_MIN_LENGTH) return authMessages.passwordTooShort;
  if (!captcha) return authMessages.captchaRequired;
  if (byEmail && username.length > EMAIL_MAX_LENGTH) return authMessages.emailTooLong;
  if (!byEmail && username.length > USERNAME_MAX_LENGTH) return authMessages.usernameTooLong;
  if (password.length > PASSWORD_MAX_LENGTH) return authMessages.passwordTooLong;
  return null;
}

/** A new password's rules (a password change), in the spec's wording. */
export function validatePassword(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return authMessages.passwordTooShort;
  if (password.length > PASSWORD_MAX_LENGTH) return authMessages.passwordTooLong;
  return null;
}

interface RegisterFields extends LoginFields {
  email: string;
  repeatPassword: string;
}

/** The register rules of spec section 5 in the spec's order, plus a well-formed e-mail. */
export function validateRegister(fields: RegisterFields): string | null {
  const { email, username, password, repeatPassword, captcha } = fields;
  if (!email || !username || !password || !repeatPassword) return authMessages.fillAllFields;
  if (username.length < USERNAME_MIN_LENGTH) return authMessages.usernameTooShort;
  if (password.length < PASSWORD_MIN_LENGTH) return authMessages.passwordTooShort;
  if (!captcha) return authMessages.captchaRequired;
  if (username.length > USERNAME_MAX_LENGTH) return authMessages.usernameTooLong;
  if (password.length > PASSWORD_MAX_LENGTH) return authMessages.passwordTooLong;
  if (email.length > EMAIL_MAX_LENGTH) return authMessages.emailTooLong;
  if (!USERNAME_PATTERN.test(username)) return authMessages.usernameCharacters;
  if (password !== repeatPassword) return authMessages.passwordsDoNotMatch;
  if (!EMAIL_PATTERN.test(email)) return authMessages.invalidEmail;
  return null;
}

export type RegisterField = 'email' | 'username' | 'password' | 'repeatPassword';

/**
 * Every field's first broken rule, to show at the field itself; `validateRegister` stays the one answer in
 * the spec's order (the form's summary and the server's refusal).
 */
export function registerFieldErrors(
  fields: Omit<RegisterFields, 'captcha'>,
): Partial<Record<RegisterField, string>> {
  const { email, username, password, repeatPassword } = fields;
  const errors: Partial<Record<RegisterField, string>> = {};
  if (!email) errors.email = generalMessages.fieldRequired;
  else if (email.length > EMAIL_MAX_LENGTH) errors.email = authMessages.emailTooLong;
  else if (!EMAIL_PATTERN.test(email)) errors.email = authMessages.invalidEmail;
  if (!username) errors.username = generalMessages.fieldRequired;
  else if (username.length < USERNAME_MIN_LENGTH) errors.username = authMessages.usernameTooShort;
  else if (username.length > USERNAME_MAX_LENGTH) errors.username = authMessages.usernameTooLong;
  else if (!USERNAME_PATTERN.test(username)) errors.username = authMessages.usernameCharacters;
  const passwordRule = password ? validatePassword(password) : generalMessages.fieldRequired;
  if (passwordRule) errors.password = passwordRule;
  if (!repeatPassword) errors.repeatPassword = generalMessages.fieldRequired;
  else if (password && password !== repeatPassword) errors.repeatPassword = authMessages.passwordsDoNotMatch;
  return errors;
}

export const captchaConfigSchema = z.object({
  provider: z.enum(['altcha', 'recaptcha', 'hcaptcha', 'turnstile']),
  siteKey: z.string().optional(),
});
export type CaptchaConfig = z.infer<typeof captchaConfigSchema>;
