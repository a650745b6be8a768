import { randomBytes } from 'node:crypto';
import {
  type Account,
  type AccountSession,
  accountMessages,
  authMessages,
  EMAIL_CHANGE_LIFETIME_HOURS,
  EMAIL_MAX_LENGTH,
  EMAIL_REVERT_LIFETIME_DAYS,
  emailConfirmLink,
  emailRevertLink,
  type Language,
  PASSWORD_RESET_LIFETIME_MINUTES,
  passwordResetLink,
  validatePassword,
} from '@simcode/contract';
import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import { secondFactorFailures, users as usersTable } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { fail, isUniqueViolation, notFound, tooManyRequests } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { CaptchaVerifier } from '../auth/captcha/types';
import { hashPassword, verifyPassword } from '../auth/passwords';
import type { CredentialRevocation } from '../auth/revocation';
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
  revocation: CredentialRevocation;
  secretBox: SecretBox;
  log: FastifyBaseLogger;
  users: UsersRepository;
  sessions: SessionsRepository;
  auth: AuthService;
  secondFactor: SecondFactorCheck;
  captcha: CaptchaVerifier;
  clock: Clock;
  /** Tells the user's other devices that a setting changed (`settings`). */
  events: UserEventBus;
  appName: string;
  publicUrl: string;
}

/** Wrong second-factor codes one scope (a challenge, an account) may try in the window. */
export const SECOND_FACTOR_FAILURES_ALLOWED = 5;
const SECOND_FACTOR_WINDOW_MS = 5 * 60_000;

/**
 * Checks second-factor codes: a TOTP code once per time step, a recovery code once ever. The stored secret
 * is sealed; the check opens it. Only wrong codes count against a scope's limit.
 */
export function createSecondFactorCheck(
  database: DatabaseHandle,
  clock: Clock,
  secretBox: SecretBox,
): SecondFactorCheck {
  const { db } = database;
  const repository = createAccountRepository(db);
  async function verify(user: { id: number; totpSecret: string }, code: string) {
    if (looksLikeTotp(code)) {
      const step = totpStepOf(secretBox.open(user.totpSecret), code, clock.now());
      return step !== null && (await repository.acceptTotpStep(user.id, step));
    }
    if (code.trim().length === 0) return false;
    return repository.useRecoveryCode(user.id, recoveryCodeHash(code), clock.now());
  }
  return {
    verify,
    async verifyWithin(scope, user, code) {
      const now = clock.now();
      const windowStart = new Date(now.getTime() - SECOND_FACTOR_WINDOW_MS);
      const [row] = await db
        .select({ failures: count() })
        .from(secondFactorFailures)
        .where(and(eq(secondFactorFailures.scope, scope), gt(secondFactorFailures.at, windowStart)));
      if (Number(row?.failures ?? 0) >= SECOND_FACTOR_FAILURES_ALLOWED)
        throw tooManyRequests(accountMessages.twoFactorTooManyCodes);
      if (await verify(user, code)) return true;
      await db
        .delete(secondFactorFailures)
        .where(and(eq(secondFactorFailures.scope, scope), lt(secondFactorFailures.at, windowStart)));
      await db.insert(secondFactorFailures).values({ scope, at: now });
      return false;
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
  revocation,
  secretBox,
  log,
  users,
  sessions,
  auth,
  secondFactor,
  captcha,
  clock,
  events,
  appName,
  publicUrl,
}: AccountServiceDeps) {
  const { db } = database;
  const repository = createAccountRepository(db);
  const mail = createMailQueue(db);
  /** Reset links being made after their answer left (requestPasswordReset). */
  const resetsInFlight = new Set<Promise<void>>();

  async function userOf(userId: number) {
    const user = await users.findById(userId);
    if (!user) throw notFound();
    return user;
  }

  async function requireCurrentPassword(passwordHash: string, password: string) {
    if (!password) throw fail('validation');
    if (!(await verifyPassword(passwordHash, password))) {
      throw fail('wrong_password');
    }
  }

  function newPasswordRule(password: string, repeatPassword: string): string | null {
    if (!password || !repeatPassword) return authMessages.fillAllFields;
    return (
      validatePassword(password) ?? (password === repeatPassword ? null : authMessages.passwordsDoNotMatch)
    );
  }

  /** A current second-factor code of a user with two-factor on, counted against the account's own limit. */
  async function requireCode(user: { id: number; totpSecret: string }, code: string) {
    if (!(await secondFactor.verifyWithin(`account:${user.id}`, user, code))) {
      throw fail('invalid_code');
    }
  }

  /** The password and a current second-factor code, for turning two-factor off or renewing codes. */
  async function requirePasswordAndCode(userId: number, password: string, code: string) {
    const user = await userOf(userId);
    if (!user.totpSecret) throw fail('two_factor_off');
    await requireCurrentPassword(user.passwordHash, password);
    await requireCode({ id: user.id, totpSecret: user.totpSecret }, code);
    return user;
  }

  /** A two-factor change: mailed links and pending sign-ins die, and every other session ends. */
  function twoFactorChanged(caller: AuthSession) {
    return revocation.revoke({
      userId: caller.id,
      cause: 'two_factor_change',
      keepSessionId: caller.sessionId,
    });
  }

  /** Proof that the caller is the owner, for what outlives a session (an API key): password, and code if on. */
  async function requireOwnerProof(userId: number, input: { currentPassword: string; code: string }) {
    const user = await userOf(userId);
    await requireCurrentPassword(user.passwordHash, input.currentPassword);
    if (user.totpSecret) {
      if (!input.code.trim()) throw fail('code_required');
      await requireCode({ id: user.id, totpSecret: user.totpSecret }, input.code);
    }
  }

  /** Link, mail and answer of a password reset, for an address that has an account. */
  async function sendResetLink(userId: number) {
    const token = newLinkToken();
    const now = clock.now();
    await repository.replaceLink({
      token,
      userId,
      purpose: 'password_reset',
      now,
      expiresAt: minutesFrom(now, PASSWORD_RESET_LIFETIME_MINUTES),
    });
    await mail.enqueue({
      userId,
      template: 'password_reset',
      payload: { link: passwordResetLink(publicUrl, token) },
      now,
    });
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
        one_click_buying: user.oneClickBuying,
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
      if (rule) throw fail('validation', rule);
      // Every session ends, this one too: this device gets a fresh token below.
      await auth.changePassword(user.id, input.password);
      return auth.issueToken(await userOf(user.id), client);
    },

    /** Sends a link to the new address; the address changes only when the link is opened. */
    async requestEmailChange(userId: number, input: { email: string; currentPassword: string }) {
      const user = await userOf(userId);
      const email = input.email.trim();
      if (!email) throw fail('validation');
      if (email.length > EMAIL_MAX_LENGTH) throw fail('validation', authMessages.emailTooLong);
      if (!EMAIL_PATTERN.test(email)) throw fail('validation', authMessages.invalidEmail);
      await requireCurrentPassword(user.passwordHash, input.currentPassword);
      if (email.toLowerCase() === user.email.toLowerCase()) {
        throw fail('email_unchanged');
      }
      if (await repository.emailTakenByOther(userId, email)) throw fail('email_taken');
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
      // The address that would lose the account hears of it now, while it can still act.
      await mail.enqueue({
        userId,
        template: 'email_change_requested',
        toAddress: user.email,
        payload: { newEmail: email },
        now,
      });
      return accountMessages.emailChangeSent(email);
    },

    /**
     * Moves the account to the new address, and mails the old one a link that moves it back for
     * EMAIL_REVERT_LIFETIME_DAYS (revert below).
     */
    async confirmEmailChange(token: string): Promise<string> {
      const revertToken = newLinkToken();
      const now = clock.now();
      try {
        const changed = await db.transaction(async (tx) => {
          const link = await repository.consumeLink(token, 'email_change', now, tx);
          if (!link?.newEmail) return null;
          const [before] = await tx
            .select({ email: usersTable.email })
            .from(usersTable)
            .where(eq(usersTable.id, link.userId))
            .for('update');
          if (!before) return null;
          await repository.setEmail(link.userId, link.newEmail, tx);
          await repository.insertLink(
            {
              token: revertToken,
              userId: link.userId,
              purpose: 'email_revert',
              newEmail: before.email,
              now,
              expiresAt: minutesFrom(now, EMAIL_REVERT_LIFETIME_DAYS * 24 * 60),
            },
            tx,
          );
          await createMailQueue(tx).enqueue({
            userId: link.userId,
            template: 'email_changed',
            toAddress: before.email,
            payload: { newEmail: link.newEmail, revertLink: emailRevertLink(publicUrl, revertToken) },
            now,
          });
          return { userId: link.userId, email: link.newEmail };
        });
        if (!changed) throw fail('link_invalid');
        // After the commit, so no instance reloads the old address in between.
        auth.forgetIdentity(changed.userId);
        return accountMessages.emailChanged(changed.email);
      } catch (error) {
        // Someone registered the address after the link was sent.
        if (isUniqueViolation(error, 'users_email_lower_key')) throw fail('email_taken');
        throw error;
      }
    },

    /**
     * The old address takes the account back: the address returns, and every credential made since dies
     * (sessions, mailed links, API keys), so whoever changed it is out.
     */
    async revertEmailChange(token: string): Promise<string> {
      try {
        const reverted = await db.transaction(async (tx) => {
          const link = await repository.consumeLink(token, 'email_revert', clock.now(), tx);
          if (!link?.newEmail) return null;
          await repository.setEmail(link.userId, link.newEmail, tx);
          await revocation.revokeWithin(tx, {
            userId: link.userId,
            cause: 'email_revert',
            revokeApiKeys: true,
          });
          return { userId: link.userId, email: link.newEmail };
        });
        if (!reverted) throw fail('link_invalid');
        revocation.announce(reverted.userId);
        return accountMessages.emailReverted(reverted.email);
      } catch (error) {
        // Another account took the old address meanwhile: support has to sort it out.
        if (isUniqueViolation(error, 'users_email_lower_key')) throw fail('email_taken');
        throw error;
      }
    },

    /**
     * Sends a reset link when the address has an account, and answers the same either way: the answer
     * never tells whether an address is registered.
     */
    async requestPasswordReset(input: { email: string; captcha: string }, address: string): Promise<string> {
      const email = input.email.trim();
      if (!email) throw fail('validation');
      if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email)) {
        throw fail('validation', authMessages.invalidEmail);
      }
      if (!(await captcha.verify(input.captcha, address))) {
        throw fail('captcha');
      }
      // The answer leaves before the account is even looked up: a real address costs the caller no more
      // time than an unknown one (the link and its mail are made after).
      const sending = users
        .findByEmail(email)
        .then((user) => (user ? sendResetLink(user.id) : undefined))
        .catch((error: unknown) => log.error({ err: error }, 'could not send a password reset link'))
        .finally(() => resetsInFlight.delete(sending));
      resetsInFlight.add(sending);
      return accountMessages.resetRequested;
    },

    /**
     * Sets the new password from a reset link (once, within the hour) and ends every session; the API keys
     * too unless the owner keeps them.
     */
    async resetPassword(input: {
      token: string;
      password: string;
      repeatPassword: string;
      revokeApiKeys: boolean;
    }): Promise<string> {
      const rule = newPasswordRule(input.password, input.repeatPassword);
      if (rule) throw fail('validation', rule);
      const passwordHash = await hashPassword(input.password);
      const userId = await db.transaction(async (tx) => {
        const link = await repository.consumeLink(input.token, 'password_reset', clock.now(), tx);
        if (!link) return null;
        await repository.setPasswordHash(link.userId, passwordHash, tx);
        await revocation.revokeWithin(tx, {
          userId: link.userId,
          cause: 'password_reset',
          revokeApiKeys: input.revokeApiKeys,
        });
        return link.userId;
      });
      if (userId === null) throw fail('link_invalid', accountMessages.resetLinkInvalid);
      revocation.announce(userId);
      return accountMessages.passwordReset;
    },

    /** A new secret to scan; two-factor turns on only when a code from it is confirmed. */
    async startTwoFactorSetup(userId: number) {
      const user = await userOf(userId);
      if (user.totpSecret) throw fail('two_factor_on');
      const secret = newTotpSecret();
      await repository.setPendingTotpSecret(userId, secretBox.seal(secret));
      const { otpauthUrl, qrSvg } = await totpEnrolment(secret, user.username, appName);
      return { secret, otpauthUrl, qrSvg };
    },

    async enableTwoFactor(caller: AuthSession, code: string): Promise<string[]> {
      const user = await userOf(caller.id);
      if (user.totpSecret) throw fail('two_factor_on');
      if (!user.totpPendingSecret) throw fail('two_factor_no_setup');
      const step = totpStepOf(secretBox.open(user.totpPendingSecret), code, clock.now());
      if (step === null) throw fail('invalid_code');
      const codes = newRecoveryCodes();
      if (
        !(await repository.enableTotp(caller.id, user.totpPendingSecret, step, codes.map(recoveryCodeHash)))
      )
        throw fail('two_factor_on');
      await twoFactorChanged(caller);
      return codes;
    },

    async disableTwoFactor(
      caller: AuthSession,
      input: { currentPassword: string; code: string },
    ): Promise<void> {
      await requirePasswordAndCode(caller.id, input.currentPassword, input.code);
      await repository.disableTotp(caller.id);
      await twoFactorChanged(caller);
    },

    async renewRecoveryCodes(
      caller: AuthSession,
      input: { currentPassword: string; code: string },
    ): Promise<string[]> {
      await requirePasswordAndCode(caller.id, input.currentPassword, input.code);
      const codes = newRecoveryCodes();
      await repository.replaceRecoveryCodes(caller.id, codes.map(recoveryCodeHash));
      await twoFactorChanged(caller);
      return codes;
    },

    requireOwnerProof,

    /** Resolves once the reset links asked for so far are made and queued (tests, shutdown). */
    async resetsSent(): Promise<void> {
      await Promise.all(resetsInFlight);
    },

    async setCodeEmails(userId: number, enabled: boolean): Promise<void> {
      await repository.setCodeEmails(userId, enabled);
    },

    async setOneClickBuying(userId: number, enabled: boolean): Promise<void> {
      await repository.setOneClickBuying(userId, enabled);
      events.publish({ userId, type: 'settings' });
    },

    async setLanguage(userId: number, language: Language): Promise<void> {
      await repository.setLanguage(userId, language);
      events.publish({ userId, type: 'settings' });
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
