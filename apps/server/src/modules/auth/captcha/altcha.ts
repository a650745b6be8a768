import { createHash } from 'node:crypto';
import { type Challenge, createChallenge, randomInt, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { lt } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { captchaUses } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { CaptchaVerifier } from './types';

export const ALTCHA_ALGORITHM = 'PBKDF2/SHA-256';
const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

export interface AltchaOptions {
  hmacKey: string;
  /** PBKDF2 iterations per attempt. */
  cost: number;
  /** The secret counter is drawn from [maxCounter / 2, maxCounter]: the expected work of one solve. */
  maxCounter: number;
  db: Database;
  clock: Clock;
}

/**
 * Self-hosted proof-of-work captcha. Challenges are signed, so the server keeps no state until a
 * solution arrives; solved challenges are recorded in the database so each is accepted once.
 */
export function createAltchaCaptcha(options: AltchaOptions) {
  const { hmacKey, cost, maxCounter, db, clock } = options;
  // Two different secrets from one configured key: one signs challenges, one signs derived keys.
  const signatureSecret = createHash('sha256').update(`challenge:${hmacKey}`).digest('hex');
  const keySignatureSecret = createHash('sha256').update(`key:${hmacKey}`).digest('hex');

  const verifier: CaptchaVerifier = {
    async verify(payload) {
      const decoded = decodePayload(payload);
      if (!decoded) return false;
      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: decoded.challenge,
          solution: decoded.solution,
          deriveKey,
          hmacSignatureSecret: signatureSecret,
          hmacKeySignatureSecret: keySignatureSecret,
        });
      } catch {
        return false;
      }
      if (!result.verified || result.expired) return false;
      const expiresAtSeconds = decoded.challenge.parameters.expiresAt;
      if (!expiresAtSeconds || expiresAtSeconds * 1000 < clock.now().getTime()) return false;
      const inserted = await db
        .insert(captchaUses)
        .values({ challengeId: decoded.challenge.signature!, expiresAt: new Date(expiresAtSeconds * 1000) })
        .onConflictDoNothing()
        .returning({ challengeId: captchaUses.challengeId });
      return inserted.length === 1;
    },
  };

  return {
    verifier,
    createChallenge(): Promise<Challenge> {
      return createChallenge({
        algorithm: ALTCHA_ALGORITHM,
        cost,
        counter: randomInt(Math.floor(maxCounter / 2), maxCounter),
        deriveKey,
        expiresAt: new Date(clock.now().getTime() + CHALLENGE_LIFETIME_MS),
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },
    /** Forgets solved challenges that have expired anyway; run now and then. */
    async pruneUsed(): Promise<void> {
      await db.delete(captchaUses).where(lt(captchaUses.expiresAt, clock.now()));
    },
  };
}

export type AltchaCaptcha = ReturnType<typeof createAltchaCaptcha>;

interface DecodedPayload {
  challenge: Challenge & { signature: string };
  solution: Solution;
}

/** The widget sends base64(JSON({challenge, solution})). Anything else is refused, never thrown. */
function decodePayload(payload: string): DecodedPayload | null {
  try {
    const parsed = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
    const challenge = parsed?.challenge;
    const solution = parsed?.solution;
    if (
      typeof challenge?.signature !== 'string' ||
      typeof challenge?.parameters !== 'object' ||
      typeof solution?.counter !== 'number' ||
      typeof solution?.derivedKey !== 'string'
    ) {
      return null;
    }
    return { challenge, solution };
  } catch {
    return null;
  }
}
