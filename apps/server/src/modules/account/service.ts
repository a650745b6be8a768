import { randomBytes } from 'node:crypto';
import {
  type Account,
  type AccountSession,
  accountMessages,
  authMessages,
  EMAIL_CHANGE_LIFETIME_HOURS,
  EMAIL_MAX_LENGTH,
  emailConfirmLink,
  type Language,
  PASSWORD_RESET_LIFETIME_MINUTES,
  passwordResetLink,
  validatePassword,
} from '@simcode/contract';
import type { DatabaseHandle } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, isUniqueViolation, notFound } from '../../lib/errors';
import type { CaptchaVerifier } from '../auth/captcha/types';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { AuthService, AuthSession, ClientInfo, SecondFactorCheck } from '../auth/service';
import type { SessionsRepository } from '../auth/sessions';
import { createMailQueue } from '../mail/queue';
import type { UsersRepository } from '../users/repository';
import { createAccountRepository } from './repository';
import {
  looksLikeTotp,
  newRecoveryCodes,
  newTotpSecret,
  recoveryCodeHash,
  totpEnrolment,
  totpStepOf,
} from './two-factor';

/** The same pragmatic check as sign-up's. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const LINK_TOKEN_BYTES = 32;

interface AccountServiceDeps {
  database: DatabaseHandle;
  users: UsersRepository;
  sessions: SessionsRepository;
  auth: AuthService;
  secondFactor: SecondFactorCheck;
  captcha: CaptchaVerifier;
  clock: Clock;
  appName: string;
  publicUrl: string;
}

/** Checks second-factor codes: a TOTP code once per time step, a recovery code once ever. */
export function createSecondFactorCheck(database: DatabaseHandle, clock: Clock): SecondFactorCheck {
  const repository = createAccountRepository(database.db);
  return {
    async verify(user, code) {
      if (looksLikeTotp(code)) {
        const step = totpStepOf(user.totpSecret, code, clock.now());
        return step !== null && (await repository.acceptTotpStep(user.id, step));
      }
      if (code.trim().length === 0) return false;
      return repository.useRecoveryCode(user.id, recoveryCodeHash(code), clock.now());
    },
  };
}

function newLinkToken(): string {
  return randomBytes(LINK_TOKEN_BYTES).toString('base64url');
}

function minutesFrom(now: Date, minutes: number): Date {
  return new Date(now.getTime() + minutes * 60_000);
}

export function createAccountService({
  database,
  users,
  sessions,
  auth,
  secondFactor,
  captcha,
  clock,
  appName,
  publicUrl,
}: AccountServiceDeps) {
  const { db } = database;
  const repository = createAccountRepository(db);
  const mail = createMailQueue(db);

  async function userOf(userId: number) {
    const user = await users.findById(userId);
    if (!user) throw notFound();
    return user;
  }

  async function requireCurrentPassword(passwordHash: string, password: string) {
    if (!password) throw badRequest(authMessages.fillAllFields, 'validation');
    if (!(await verifyPassword(passwordHash, password))) {
      throw badRequest(accountMessages.currentPasswordWrong, 'wrong_password');
    }
  }

  function newPasswordRule(password: string, repeatPassword: string): string | null {
    if (!password || !repeatPassword) return authMessages.fillAllFields;
    return (
      validatePassword(password) ?? (password === repeatPassword ? null : authMessages.passwordsDoNotMatch)
    );
  }

  /** The password and a current second-factor code, for turning two-factor off or renewing codes. */
  async function requirePasswordAndCode(userId: number, password: string, code: string) {
    const user = await userOf(userId);
    if (!user.totpSecret) throw badRequest(accountMessages.twoFactorNotOn, 'two_factor_off');
    await requireCurrentPassword(user.passwordHash, password);
    if (!(await secondFactor.verify({ id: user.id, totpSecret: user.totpSecret }, code))) {
      throw badRequest(accountMessages.twoFactorCodeInvalid, 'invalid_code');
    }
    return user;
  }

  return {
    async get(userId: number): Promise<Account> {
      const user = await userOf(userId);
      return {
        username: user.username,
        email: user.email,
        two_factor_enabled: user.totpSecret !== null,
        recovery_codes_left: user.totpSecret ? await repository.recoveryCodesLeft(userId) : 0,
        code_emails: user.codeEmails,
        created_at: user.createdAt.toISOString(),
        language: user.language,
      };
    },

    /** Changes the password and ends every other session; this device gets a fresh token. */
    async changePassword(
      caller: AuthSession,
      input: { currentPassword: string; password: string; repeatPassword: string },
      client: ClientInfo,
    ): Promise<string> {
      const user = await userOf(caller.id);
      await requireCurrentPassword(user.passwordHash, input.currentPassword);
      const rule = newPasswordRule(input.password, input.repeatPassword);
      if (rule) throw badRequest(rule, 'validation');
      await auth.changePassword(user.id, input.password);
      return auth.issueToken(await userOf(user.id), client);
    },

    /** Sends a link to the new address; the address changes only when the link is opened. */
    async requestEmailChange(userId: number, input: { email: string; currentPassword: string }) {
      const user = await userOf(userId);
      const email = input.email.trim();
      if (!email) throw badRequest(authMessages.fillAllFields, 'validation');
      if (email.length > EMAIL_MAX_LENGTH) throw badRequest(authMessages.emailTooLong, 'validation');
      if (!EMAIL_PATTERN.test(email)) throw badRequest(authMessages.invalidEmail, 'validation');
      await requireCurrentPassword(user.passwordHash, input.currentPassword);
      if (email.toLowerCase() === user.email.toLowerCase()) {
        throw badRequest(accountMessages.emailUnchanged, 'email_unchanged');
      }
      if (await repository.emailTakenByOther(userId, email))
        throw conflict(authMessages.emailTaken, 'email_taken');
      const token = newLinkToken();
      const now = clock.now();
      await repository.replaceLink({
        token,
        userId,
        purpose: 'email_change',
        newEmail: email,
        now,
        expiresAt: minutesFrom(now, EMAIL_CHANGE_LIFETIME_HOURS * 60),
      });
      await mail.enqueue({
        userId,
        template: 'email_change',
        toAddress: email,
        payload: { link: emailConfirmLink(publicUrl, token), newEmail: email },
        now,
      });
      return accountMessages.emailChangeSent(email);
    },

    async confirmEmailChange(token: string): Promise<string> {
      try {
        const changed = await db.transaction(async (tx) => {
          const link = await repository.consumeLink(token, 'email_change', clock.now(), tx);
          if (!link?.newEmail) return null;
          await repository.setEmail(link.userId, link.newEmail, tx);
          return { userId: link.userId, email: link.newEmail };
        });
        if (!changed) throw badRequest(accountMessages.emailLinkInvalid, 'link_invalid');
        // After the commit, so no instance reloads the old address in between.
        auth.forgetIdentity(changed.userId);
        return accountMessages.emailChanged(changed.email);
      } catch (error) {
        // Someone registered the address after the link was sent.
        if (isUniqueViolation(error, 'users_email_lower_key'))
          throw conflict(authMessages.emailTaken, 'email_taken');
        throw error;
      }
    },

    /**
     * Sends a reset link when the address has an account, and answers the same either way: the answer
     * never tells whether an address is registered.
     */
    async requestPasswordReset(input: { email: string; captcha: string }, address: string): Promise<string> {
      const email = input.email.trim();
      if (!email) throw badRequest(authMessages.fillAllFields, 'validation');
      if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
        throw badRequest(authMessages.invalidEmail, 'validation');
      }
      if (!(await captcha.verify(input.captcha, address))) {
        throw badRequest(authMessages.captchaRequired, 'captcha');
      }
      const user = await users.findByEmail(email);
      if (user) {
        const token = newLinkToken();
        const now = clock.now();
        await repository.replaceLink({
          token,
          userId: user.id,
          purpose: 'password_reset',
          now,
          expiresAt: minutesFrom(now, PASSWORD_RESET_LIFETIME_MINUTES),
        });
        await mail.enqueue({
          userId: user.id,
          template: 'password_reset',
          payload: { link: passwordResetLink(publicUrl, token) },
          now,
        });
      }
      return accountMessages.resetRequested;
    },

    /** Sets the new password from a reset link (once, within the hour) and ends every session. */
    async resetPassword(input: { token: string; password: string; repeatPassword: string }): Promise<string> {
      const rule = newPasswordRule(input.password, input.repeatPassword);
      if (rule) throw badRequest(rule, 'validation');
      const passwordHash = await hashPassword(input.password);
      const userId = await db.transaction(async (tx) => {
        const link = await repository.consumeLink(input.token, 'password_reset', clock.now(), tx);
        if (!link) return null;
        await repository.setPasswordHash(link.userId, passwordHash, tx);
        return link.userId;
      });
      if (userId === null) throw badRequest(accountMessages.resetLinkInvalid, 'link_invalid');
      await auth.logoutEverywhere(userId);
      return accountMessages.passwordReset;
    },

    /** A new secret to scan; two-factor turns on only when a code from it is confirmed. */
    async startTwoFactorSetup(userId: number) {
      const user = await userOf(userId);
      if (user.totpSecret) throw conflict(accountMessages.twoFactorAlreadyOn, 'two_factor_on');
      const secret = newTotpSecret();
      await repository.setPendingTotpSecret(userId, secret);
      const { otpauthUrl, qrSvg } = await totpEnrolment(secret, user.username, appName);
      return { secret, otpauthUrl, qrSvg };
    },

    async enableTwoFactor(userId: number, code: string): Promise<string[]> {
      const user = await userOf(userId);
      if (user.totpSecret) throw conflict(accountMessages.twoFactorAlreadyOn, 'two_factor_on');
      if (!user.totpPendingSecret) throw badRequest(accountMessages.twoFactorNoSetup, 'two_factor_no_setup');
      const step = totpStepOf(user.totpPendingSecret, code, clock.now());
      if (step === null) throw badRequest(accountMessages.twoFactorCodeInvalid, 'invalid_code');
      const secret = user.totpPendingSecret;
      const codes = newRecoveryCodes();
      if (!(await repository.enableTotp(userId, secret, step, codes.map(recoveryCodeHash))))
        throw conflict(accountMessages.twoFactorAlreadyOn, 'two_factor_on');
      return codes;
    },

    async disableTwoFactor(userId: number, input: { currentPassword: string; code: string }): Promise<void> {
      await requirePasswordAndCode(userId, input.currentPassword, input.code);
      await repository.disableTotp(userId);
    },

    async renewRecoveryCodes(
      userId: number,
      input: { currentPassword: string; code: string },
    ): Promise<string[]> {
      await requirePasswordAndCode(userId, input.currentPassword, input.code);
      const codes = newRecoveryCodes();
      await repository.replaceRecoveryCodes(userId, codes.map(recoveryCodeHash));
      return codes;
    },

    async setCodeEmails(userId: number, enabled: boolean): Promise<void> {
      await repository.setCodeEmails(userId, enabled);
    },

    async setLanguage(userId: number, language: Language): Promise<void> {
      await repository.setLanguage(userId, language);
    },

    async listSessions(caller: AuthSession): Promise<AccountSession[]> {
      const rows = await sessions.activeFor(caller.id, clock.now());
      return rows.map((row) => ({
        id: row.id,
        created_at: row.createdAt.toISOString(),
        last_seen_at: row.lastSeenAt.toISOString(),
        user_agent: row.userAgent,
        address: row.address,
        current: row.id === caller.sessionId,
      }));
    },

    async endSession(caller: AuthSession, sessionId: string): Promise<void> {
      if (!(await auth.endSession(caller.id, sessionId))) throw notFound();
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
