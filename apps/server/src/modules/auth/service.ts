import { randomUUID } from 'node:crypto';
import {
  ADMIN_ROLE,
  accountMessages,
  isEmailAddress,
  normalizeUsername,
  sessionEndReasonOf,
  sessionMessages,
  TOKEN_LIFETIME_SECONDS,
  TWO_FACTOR_CHALLENGE_LIFETIME_MINUTES,
  validateLogin,
  validatePassword,
  validateRegister,
} from '@simcode/contract';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../db/client';
import { twoFactorChallenges, users as usersTable } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { fail, forbidden, isUniqueViolation, tooManyRequests, unauthorized } from '../../lib/errors';
import { UserCache } from '../../lib/user-cache';
import { createUsersRepository, type UsersRepository } from '../users/repository';
import type { CaptchaVerifier } from './captcha/types';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import type { CredentialRevocation } from './revocation';
import type { SessionsRepository } from './sessions';
import type { TokenService, VerifiedToken } from './tokens';

/** Who is calling, as the database says now: never as the token claims. */
export interface AuthUser {
  id: number;
  username: string;
  email: string;
  role: number;
  isAdmin: boolean;
}

/** The caller of a request: the user, and the session (token) they came with. */
export interface AuthSession extends AuthUser {
  sessionId: string;
}

/** Where a sign-in came from, kept on its session for the account's sessions list. */
export interface ClientInfo {
  address?: string;
  userAgent?: string;
}

export interface RegisterInput {
  email: string;
  username: string;
  password: string;
  repeatPassword: string;
  captcha: string;
}

export interface LoginInput {
  username: string;
  password: string;
  captcha: string;
}

/**
 * Checks a second-factor code (TOTP or recovery code) of a user with two-factor on; each code works once.
 * `stored` is the secret as the database holds it (sealed). Only wrong codes count against a limit, kept
 * by what they were tried against (a sign-in challenge, or the signed-in account's own checks).
 */
export interface SecondFactorCheck {
  verify(user: { id: number; totpSecret: string }, code: string): Promise<boolean>;
  /** Refuses (429) when the scope's wrong codes reached the limit; else checks, counting a wrong code. */
  verifyWithin(scope: string, user: { id: number; totpSecret: string }, code: string): Promise<boolean>;
}

/** A sign-in's outcome: a session token, or (two-factor on) a challenge to complete with a code. */
export type LoginOutcome = { token: string } | { challenge: string };

interface AuthServiceDeps {
  database: DatabaseHandle;
  revocation: CredentialRevocation;
  secondFactor: SecondFactorCheck;
  users: UsersRepository;
  sessions: SessionsRepository;
  tokens: TokenService;
  captcha: CaptchaVerifier;
  clock: Clock;
  events: UserEventBus;
}

/** Verified tokens kept, so a polling client costs no signature check; bounded. */
const MAX_CACHED_TOKENS = 50_000;
/** Sessions remembered per cached identity (a user signed in on this many devices at once). */
const MAX_SESSIONS_PER_IDENTITY = 100;
/** Identities are dropped at once when the user row changes (a database trigger says so); this is the backstop. */
const IDENTITY_TTL_MS = 60_000;

/** A session's last-seen time is written at most this often: a polling page costs no write per request. */
const LAST_SEEN_WRITE_INTERVAL_MS = 5 * 60_000;

interface Identity extends AuthUser {
  tokenVersion: number;
  /** The user's live sessions: a token naming any other session is refused, however well it is signed. */
  liveSessionIds: ReadonlySet<string>;
  loadedAtMs: number;
}

/** Wrong codes one sign-in challenge may take; then the password is asked again. */
export const CHALLENGE_MAX_FAILURES = 5;

export function createAuthService({
  database,
  revocation,
  users,
  sessions,
  tokens,
  captcha,
  clock,
  events,
  secondFactor,
}: AuthServiceDeps) {
  const lastSeenWrittenMs = new Map<string, number>();
  const verifiedTokens = new Map<string, VerifiedToken>();
  // Keyed by the cached identity object: dropped with it when the identity cache lets it go.
  const sessionsOfIdentity = new WeakMap<Identity, Map<string, AuthSession>>();
  const identities = new UserCache<Identity | null>({
    clock,
    ttlMs: IDENTITY_TTL_MS,
    maxEntries: MAX_CACHED_TOKENS,
    events,
    invalidatedBy: (event) => event.type === 'account',
  });

  async function verifyToken(token: string): Promise<VerifiedToken | null> {
    const nowMs = clock.now().getTime();
    const cached = verifiedTokens.get(token);
    if (cached) return cached.expiresAtMs > nowMs ? cached : null;
    const verified = await tokens.verify(token, clock.now());
    if (verified) {
      if (verifiedTokens.size >= MAX_CACHED_TOKENS)
        verifiedTokens.delete(verifiedTokens.keys().next().value!);
      verifiedTokens.set(token, verified);
    }
    return verified;
  }

  async function readIdentity(userId: number): Promise<Identity | null> {
    const [user, live] = await Promise.all([users.findById(userId), sessions.liveIds(userId, clock.now())]);
    // A blocked user has no identity: every token of theirs is refused, wherever it was issued.
    return user && !user.blockedAt
      ? {
          id: user.id,
          username: user.username,
          email: user.email,
          role: user.role,
          isAdmin: user.role === ADMIN_ROLE,
          tokenVersion: user.tokenVersion,
          liveSessionIds: new Set(live),
          loadedAtMs: clock.now().getTime(),
        }
      : null;
  }

  function loadIdentity(userId: number): Promise<Identity | null> {
    return identities.getOrLoad(userId, 'identity', () => readIdentity(userId));
  }

  /** The caller when the token is still good for this identity, else null. */
  function sessionOf(identity: Identity | null | undefined, claims: VerifiedToken): AuthSession | null {
    if (!identity || identity.tokenVersion !== claims.tokenVersion) return null;
    if (!identity.liveSessionIds.has(claims.sessionId)) return null;
    noteSeen(claims.sessionId);
    // One session object per identity and session, made once: a polling page asks for it on every request,
    // and a new identity (any change of the user) starts a new map.
    let sessions = sessionsOfIdentity.get(identity);
    if (!sessions) {
      sessions = new Map();
      sessionsOfIdentity.set(identity, sessions);
    }
    let session = sessions.get(claims.sessionId);
    if (!session) {
      const {
        tokenVersion: _tokenVersion,
        liveSessionIds: _live,
        loadedAtMs: _loadedAtMs,
        ...user
      } = identity;
      session = Object.freeze({ ...user, sessionId: claims.sessionId });
      if (sessions.size >= MAX_SESSIONS_PER_IDENTITY) sessions.clear();
      sessions.set(claims.sessionId, session);
    }
    return session;
  }

  /** Records when a session was last used, in the background and at most every few minutes. */
  function noteSeen(sessionId: string) {
    const nowMs = clock.now().getTime();
    const last = lastSeenWrittenMs.get(sessionId);
    if (last !== undefined && nowMs - last < LAST_SEEN_WRITE_INTERVAL_MS) return;
    if (lastSeenWrittenMs.size >= MAX_CACHED_TOKENS) lastSeenWrittenMs.clear();
    lastSeenWrittenMs.set(sessionId, nowMs);
    sessions.touch(sessionId, clock.now()).catch(() => {
      // Only the sessions list's "last seen" is late: nothing to tell the caller.
    });
  }

  /** Forgets a user's cached identity here at once; the database trigger tells the other instances. */
  function forgetIdentity(userId: number) {
    events.publish({ userId, type: 'account' });
  }

  async function requireCaptcha(payload: string, remoteIp: string) {
    if (!(await captcha.verify(payload, remoteIp))) throw fail('captcha');
  }

  /** Opens a session (its row) and signs its token. */
  async function issueToken(
    user: { id: number; role: number; tokenVersion: number },
    client: ClientInfo = {},
  ) {
    const now = clock.now();
    const sessionId = randomUUID();
    await sessions.insert({
      id: sessionId,
      userId: user.id,
      now,
      expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_SECONDS * 1000),
      userAgent: client.userAgent,
      address: client.address,
    });
    // The cached identity knows the user's sessions: this one must be among them from its first request.
    identities.invalidateUser(user.id);
    return tokens.sign({ userId: user.id, role: user.role, tokenVersion: user.tokenVersion, sessionId }, now);
  }

  return {
    issueToken,

    /** Sign out: this token stops working on every instance. */
    async logout(caller: AuthSession): Promise<void> {
      await sessions.revoke(caller.id, caller.sessionId, clock.now());
      forgetIdentity(caller.id);
    },

    /** Sign out everywhere: every token of the user stops working, and (unless told not to) every API key. */
    async logoutEverywhere(userId: number, options: { revokeApiKeys: boolean }): Promise<void> {
      await revocation.revoke({ userId, cause: 'sign_out_everywhere', revokeApiKeys: options.revokeApiKeys });
    },

    /** Signs out one of the user's sessions; false when it is not theirs or already ended. */
    async endSession(userId: number, sessionId: string): Promise<boolean> {
      const ended = await sessions.revoke(userId, sessionId, clock.now());
      if (ended) forgetIdentity(userId);
      return ended;
    },

    /**
     * Sets a new password and ends every session, as a stolen password's sessions must end with it (the
     * account page gives the device that changed it a new token).
     */
    async changePassword(userId: number, newPassword: string): Promise<void> {
      const rule = validatePassword(newPassword);
      if (rule) throw fail('validation', rule);
      const passwordHash = await hashPassword(newPassword);
      await database.db.transaction(async (tx) => {
        await createUsersRepository(tx).setPasswordHash(userId, passwordHash);
        await revocation.revokeWithin(tx, { userId, cause: 'password_change' });
      });
      revocation.announce(userId);
    },

    /** Forgets the cached identity of a user whose e-mail or other shown details changed. */
    forgetIdentity,

    async register(input: RegisterInput, client: ClientInfo & { address: string }): Promise<string> {
      const email = input.email.trim();
      const username = normalizeUsername(input.username);
      const rule = validateRegister({ ...input, email, username });
      if (rule) throw fail('validation', rule);
      await requireCaptcha(input.captcha, client.address);
      if (await users.findByUsername(username)) throw fail('username_taken');
      if (await users.findByEmail(email)) throw fail('email_taken');
      const passwordHash = await hashPassword(input.password);
      try {
        const user = await users.insert({ username, email, passwordHash });
        return await issueToken(user, client);
      } catch (error) {
        // Two registrations racing for the same name: the unique index decides, the loser gets the same text.
        if (isUniqueViolation(error, 'users_username_lower_key')) {
          throw fail('username_taken');
        }
        if (isUniqueViolation(error, 'users_email_lower_key')) {
          throw fail('email_taken');
        }
        throw error;
      }
    },

    async login(input: LoginInput, client: ClientInfo & { address: string }): Promise<LoginOutcome> {
      const username = normalizeUsername(input.username);
      const rule = validateLogin({ ...input, username });
      if (rule) throw fail('validation', rule);
      await requireCaptcha(input.captcha, client.address);
      const user = isEmailAddress(username)
        ? await users.findByEmail(username)
        : await users.findByUsername(username);
      const passwordMatches = await verifyPassword(
        user?.passwordHash ?? (await dummyPasswordHash()),
        input.password,
      );
      if (!user || !passwordMatches) throw fail('invalid_credentials');
      // Said only after the right password, so the answer tells a stranger nothing about the account.
      if (user.blockedAt) throw fail('account_blocked');
      if (user.totpSecret) {
        const now = clock.now();
        const challengeId = randomUUID();
        await database.db.insert(twoFactorChallenges).values({
          id: challengeId,
          userId: user.id,
          credentialVersion: user.credentialVersion,
          createdAt: now,
          expiresAt: new Date(now.getTime() + TWO_FACTOR_CHALLENGE_LIFETIME_MINUTES * 60_000),
        });
        return { challenge: await tokens.signChallenge({ userId: user.id, challengeId }, now) };
      }
      return { token: await issueToken(user, client) };
    },

    /**
     * The second step of a sign-in with two-factor on. The challenge proves the password was right a few
     * minutes ago; it signs in once, dies with any revocation since (its credential stamp), and takes
     * CHALLENGE_MAX_FAILURES wrong codes. Only wrong codes count: a right code after a typo signs in.
     */
    async completeTwoFactorLogin(challenge: string, code: string, client: ClientInfo): Promise<string> {
      const claims = await tokens.verifyChallenge(challenge, clock.now());
      const expired = () =>
        // Not 'unauthorized': that code ends the session, and a sign-in in progress has none to end.
        fail('sign_in_expired');
      if (!claims) throw expired();
      const now = clock.now();
      // Taken for this attempt in one conditional update: two requests with one challenge never both pass.
      const [taken] = await database.db
        .update(twoFactorChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(twoFactorChallenges.id, claims.challengeId),
            eq(twoFactorChallenges.userId, claims.userId),
            gt(twoFactorChallenges.expiresAt, now),
            lt(twoFactorChallenges.failures, CHALLENGE_MAX_FAILURES),
            isNull(twoFactorChallenges.usedAt),
            sql`${twoFactorChallenges.credentialVersion} = (select ${usersTable.credentialVersion} from ${usersTable} where ${usersTable.id} = ${twoFactorChallenges.userId})`,
          ),
        )
        .returning();
      if (!taken) {
        const [row] = await database.db
          .select()
          .from(twoFactorChallenges)
          .where(eq(twoFactorChallenges.id, claims.challengeId));
        if (row?.usedAt) throw fail('sign_in_code_invalid');
        if (row && row.failures >= CHALLENGE_MAX_FAILURES)
          throw tooManyRequests(accountMessages.twoFactorTooManyCodes);
        throw expired();
      }
      const user = await users.findById(claims.userId);
      if (!user?.totpSecret || user.blockedAt) throw expired();
      if (!(await secondFactor.verify({ id: user.id, totpSecret: user.totpSecret }, code))) {
        // The attempt gives the challenge back, one failure heavier.
        await database.db
          .update(twoFactorChallenges)
          .set({ usedAt: null, failures: sql`${twoFactorChallenges.failures} + 1` })
          .where(eq(twoFactorChallenges.id, taken.id));
        throw fail('sign_in_code_invalid');
      }
      return issueToken(user, client);
    },

    /**
     * Resolves the bearer token of a request to the current user. 'Unauthorized' when there is no token,
     * 'Invalid token' when it is malformed, forged, expired, revoked or its user is gone.
     */
    /**
     * The caller when their token and identity are both in memory (nearly every request of a polling page),
     * without a promise; undefined means "ask authenticate()", which also answers the refusals.
     */
    authenticateCached(authorization: string | undefined): AuthSession | undefined {
      const token = parseBearer(authorization);
      if (!token) return undefined;
      const claims = verifiedTokens.get(token);
      if (!claims || claims.expiresAtMs <= clock.now().getTime()) return undefined;
      return sessionOf(identities.get(claims.userId, 'identity'), claims) ?? undefined;
    },

    async authenticate(authorization: string | undefined): Promise<AuthSession> {
      const token = parseBearer(authorization);
      if (!token) throw unauthorized(sessionMessages.unauthorized);
      const claims = await verifyToken(token);
      if (!claims) throw unauthorized(sessionMessages.invalidToken);
      let identity = await loadIdentity(claims.userId);
      // A token issued after the identity was read (on another instance, a moment ago) names a session the
      // cached identity cannot know yet: the database is asked once more. Older tokens are not worth it.
      if (
        identity &&
        !identity.liveSessionIds.has(claims.sessionId) &&
        claims.issuedAtMs >= identity.loadedAtMs - 1000
      ) {
        identity = await readIdentity(claims.userId);
        identities.set(claims.userId, 'identity', identity);
      }
      const session = sessionOf(identity, claims);
      if (!session) {
        // The device is told why its session ended (a password changed elsewhere, a sign-out everywhere),
        // never more: the cause is the token owner's own, and a forged token never gets this far.
        const cause = await sessions.endedCause(claims.userId, claims.sessionId);
        throw fail(
          'unauthorized',
          sessionMessages.invalidToken,
          cause ? { reason: sessionEndReasonOf(cause) } : undefined,
        );
      }
      return session;
    },

    async authenticateAdmin(authorization: string | undefined): Promise<AuthSession> {
      const user = await this.authenticate(authorization);
      if (!user.isAdmin) throw forbidden();
      return user;
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

function parseBearer(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}
