import { createHash, randomInt } from 'node:crypto';
import { RECOVERY_CODE_COUNT, TOTP_DIGITS } from '@simcode/contract';
import * as OTPAuth from 'otpauth';
import QRCode from 'qrcode';

const PERIOD_SECONDS = 30;
/** One step either side: a phone whose clock is up to 30 seconds off still signs in. */
const WINDOW_STEPS = 1;
/** 160 bits, the size RFC 4226 recommends for SHA-1. */
const SECRET_BYTES = 20;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const RECOVERY_GROUP_LENGTH = 5;

function totpFor(secret: string, label = '', issuer = '') {
  return new OTPAuth.TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: PERIOD_SECONDS,
    secret: OTPAuth.Secret.fromBase32(secret),
  });
}

export function newTotpSecret(): string {
  return new OTPAuth.Secret({ size: SECRET_BYTES }).base32;
}

/** The otpauth:// URL an authenticator app reads, and the same as a QR code drawn here (an SVG). */
export async function totpEnrolment(secret: string, account: string, issuer: string) {
  const otpauthUrl = totpFor(secret, account, issuer).toString();
  const qrSvg = await QRCode.toString(otpauthUrl, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { otpauthUrl, qrSvg };
}

/**
 * The time step a code belongs to when it is valid now (within one step), else null. The caller stores the
 * step and refuses any code of that step or an earlier one: a code works once.
 */
export function totpStepOf(secret: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, '');
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return null;
  const totp = totpFor(secret);
  const delta = totp.validate({ token, timestamp: now.getTime(), window: WINDOW_STEPS });
  return delta === null ? null : totp.counter({ timestamp: now.getTime() }) + delta;
}

/** Whether the text looks like a TOTP code rather than a recovery code. */
export function looksLikeTotp(code: string): boolean {
  return /^\d[\d\s]*$/.test(code.trim());
}

/** Ten codes like `k7mwq-3hx9p`: 50 bits each, no look-alike characters. */
export function newRecoveryCodes(): string[] {
  const group = () =>
    Array.from(
      { length: RECOVERY_GROUP_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join('');
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => `${group()}-${group()}`);
}

/** The stored form of a recovery code: typed case, spaces and the dash do not matter. */
export function recoveryCodeHash(code: string): string {
  const normalized = code.toLowerCase().replace(/[\s-]/g, '');
  return createHash('sha256').update(normalized).digest('hex');
}
