import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { FastifyInstance } from 'fastify';

/** Fetches a challenge from the app and solves it as the browser widget would, returning the form payload. */
export async function solveCaptcha(app: FastifyInstance): Promise<string> {
  const response = await app.inject({ method: 'GET', url: '/api/captcha/challenge' });
  const challenge = response.json() as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the test captcha');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
