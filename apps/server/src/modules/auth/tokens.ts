import { TOKEN_LIFETIME_SECONDS, TWO_FACTOR_CHALLENGE_LIFETIME_MINUTES } from '@simcode/contract';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  role: number;
  tokenVersion: number;
  /** The `jti`: the token's row in the sessions table, so one token can be revoked alone. */
  sessionId: string;
}

export interface VerifiedToken extends TokenClaims {
  issuedAtMs: number;
  expiresAtMs: number;
}

/**
 * A password that was right, waiting for its second factor: no session, no access to anything else. The
 * challenge's row (two_factor_challenges) makes it single-use and counts its wrong codes.
 */
export interface TwoFactorChallenge {
  userId: number;
  challengeId: string;
}

/** The audience of a two-factor challenge: a session token has none, so neither passes for the other. */
const CHALLENGE_AUDIENCE = 'two-factor-sign-in';

/**
 * HS256 tokens carrying sub, role (for the client's display only), ver (revocation), jti (the session), iat
 * and exp.
 * The server trusts none of the claims beyond identifying the user: the role comes from the database.
 */
export function createTokenService(secret: string, lifetimeSeconds = TOKEN_LIFETIME_SECONDS) {
  const key = new TextEncoder().encode(secret);
  return {
    sign(claims: TokenClaims, now: Date = new Date()): Promise<string> {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({ role: claims.role, ver: claims.tokenVersion })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(claims.userId))
        .setJti(claims.sessionId)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(key);
    },

    /** Returns the claims of a valid token, or null for anything malformed, forged or expired. */
    async verify(token: string, now: Date = new Date()): Promise<VerifiedToken | null> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          currentDate: now,
          requiredClaims: ['sub', 'jti', 'iat', 'exp'],
        });
        if (payload.aud !== undefined) return null;
        const userId = Number(payload.sub);
        const role = Number(payload.role);
        const tokenVersion = Number(payload.ver);
        const sessionId = payload.jti;
        if (!Number.isSafeInteger(userId) || userId <= 0 || !Number.isInteger(tokenVersion)) return null;
        if (typeof sessionId !== 'string' || sessionId.length === 0) return null;
        return {
          userId,
          sessionId,
          role: Number.isInteger(role) ? role : 0,
          tokenVersion,
          issuedAtMs: Number(payload.iat) * 1000,
          expiresAtMs: Number(payload.exp) * 1000,
        };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },

    signChallenge(challenge: TwoFactorChallenge, now: Date = new Date()): Promise<string> {
      const issuedAt = Math.floor(now.getTime() / 1000);
      return new SignJWT({})
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(String(challenge.userId))
        .setJti(challenge.challengeId)
        .setAudience(CHALLENGE_AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + TWO_FACTOR_CHALLENGE_LIFETIME_MINUTES * 60)
        .sign(key);
    },

    /** The challenge's user when it is genuine and current, else null. */
    async verifyChallenge(challenge: string, now: Date = new Date()): Promise<TwoFactorChallenge | null> {
      try {
        const { payload } = await jwtVerify(challenge, key, {
          algorithms: ['HS256'],
          audience: CHALLENGE_AUDIENCE,
          currentDate: now,
          requiredClaims: ['sub', 'aud', 'exp', 'jti'],
        });
        const userId = Number(payload.sub);
        const challengeId = payload.jti;
        if (!Number.isSafeInteger(userId) || userId <= 0) return null;
        if (typeof challengeId !== 'string' || challengeId.length === 0) return null;
        return { userId, challengeId };
      } catch (error) {
        if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
