import {
  ADMIN_ROLE,
  authMessages,
  normalizeUsername,
  sessionMessages,
  validateLogin,
  validateRegister,
} from '@simcode/contract';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, forbidden, isUniqueViolation, unauthorized } from '../../lib/errors';
import type { UserEventBus } from '../../lib/events';
import { UserCache } from '../../lib/user-cache';
import type { UsersRepository } from '../users/repository';
import type { CaptchaVerifier } from './captcha/types';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords';
import type { TokenService, VerifiedToken } from './tokens';

/** Who is calling, as the database says now: never as the token claims. */
export interface AuthUser {
  id: number;
  username: string;
  email: string;
  role: number;
  isAdmin: boolean;
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

interface AuthServiceDeps {
  users: UsersRepository;
  tokens: TokenService;
  captcha: CaptchaVerifier;
  clock: Clock;
  events: UserEventBus;
}

/** Verified tokens kept, so a polling client costs no signature check; bounded. */
const MAX_CACHED_TOKENS = 50_000;
/** Identities are dropped at once when the user row changes (a database trigger says so); this is the backstop. */
const IDENTITY_TTL_MS = 60_000;

interface Identity extends AuthUser {
  tokenVersion: number;
}

export function createAuthService({ users, tokens, captcha, clock, events }: AuthServiceDeps) {
  const verifiedTokens = new Map<string, VerifiedToken>();
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

  function loadIdentity(userId: number): Promise<Identity | null> {
    return identities.getOrLoad(userId, 'identity', async () => {
      const user = await users.findById(userId);
      return user
        ? {
            id: user.id,
            username: user.username,
            email: user.email,
            role: user.role,
            isAdmin: user.role === ADMIN_ROLE,
            tokenVersion: user.tokenVersion,
          }
        : null;
    });
  }

  async function requireCaptcha(payload: string, remoteIp: string) {
    if (!(await captcha.verify(payload, remoteIp))) throw badRequest(authMessages.captchaRequired, 'captcha');
  }

  function issueToken(user: { id: number; role: number; tokenVersion: number }) {
    return tokens.sign({ userId: user.id, role: user.role, tokenVersion: user.tokenVersion }, clock.now());
  }

  return {
    async register(input: RegisterInput, remoteIp: string): Promise<string> {
      const email = input.email.trim();
      const username = normalizeUsername(input.username);
      const rule = validateRegister({ ...input, email, username });
      if (rule) throw badRequest(rule, 'validation');
      await requireCaptcha(input.captcha, remoteIp);
      if (await users.findByUsername(username))
        throw new AppError(409, authMessages.usernameTaken, 'username_taken');
      if (await users.findByEmail(email)) throw new AppError(409, authMessages.emailTaken, 'email_taken');
      const passwordHash = await hashPassword(input.password);
      try {
        const user = await users.insert({ username, email, passwordHash });
        return await issueToken(user);
      } catch (error) {
        // Two registrations racing for the same name: the unique index decides, the loser gets the same text.
        if (isUniqueViolation(error, 'users_username_lower_key')) {
          throw new AppError(409, authMessages.usernameTaken, 'username_taken');
        }
        if (isUniqueViolation(error, 'users_email_lower_key')) {
          throw new AppError(409, authMessages.emailTaken, 'email_taken');
        }
        throw error;
      }
    },

    async login(input: LoginInput, remoteIp: string): Promise<string> {
      const username = normalizeUsername(input.username);
      const rule = validateLogin({ ...input, username });
      if (rule) throw badRequest(rule, 'validation');
      await requireCaptcha(input.captcha, remoteIp);
      const user = await users.findByUsername(username);
      const passwordMatches = await verifyPassword(
        user?.passwordHash ?? (await dummyPasswordHash()),
        input.password,
      );
      if (!user || !passwordMatches)
        throw new AppError(401, authMessages.invalidCredentials, 'invalid_credentials');
      return issueToken(user);
    },

    /**
     * Resolves the bearer token of a request to the current user. 'Unauthorized' when there is no token,
     * 'Invalid token' when it is malformed, forged, expired, revoked or its user is gone.
     */
    /**
     * The caller when their token and identity are both in memory (nearly every request of a polling page),
     * without a promise; undefined means "ask authenticate()", which also answers the refusals.
     */
    authenticateCached(authorization: string | undefined): AuthUser | undefined {
      const token = parseBearer(authorization);
      if (!token) return undefined;
      const claims = verifiedTokens.get(token);
      if (!claims || claims.expiresAtMs <= clock.now().getTime()) return undefined;
      const identity = identities.get(claims.userId, 'identity');
      if (!identity || identity.tokenVersion !== claims.tokenVersion) return undefined;
      const { tokenVersion: _tokenVersion, ...user } = identity;
      return user;
    },

    async authenticate(authorization: string | undefined): Promise<AuthUser> {
      const token = parseBearer(authorization);
      if (!token) throw unauthorized(sessionMessages.unauthorized);
      const claims = await verifyToken(token);
      if (!claims) throw unauthorized(sessionMessages.invalidToken);
      const identity = await loadIdentity(claims.userId);
      if (!identity || identity.tokenVersion !== claims.tokenVersion)
        throw unauthorized(sessionMessages.invalidToken);
      const { tokenVersion: _tokenVersion, ...user } = identity;
      return user;
    },

    async authenticateAdmin(authorization: string | undefined): Promise<AuthUser> {
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
