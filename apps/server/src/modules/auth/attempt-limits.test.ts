import { CAPTCHA_FIELD } from '@simcode/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { solveCaptcha } from '../../../test/support/captcha';
import { testDatabase } from '../../../test/support/database';
import { createUser } from '../../../test/support/users';

const LIMIT = 10;

// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
let t: TestApp | undefined;
afterEach(async () => {
  await t?.app.close();
  t = undefined;
});

async function signIn(
  app: TestApp,
  username: string,
  from: { remoteAddress?: string; forwardedFor?: string },
) {
  return app.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: from.remoteAddress,
    headers: from.forwardedFor ? { 'x-forwarded-for': from.forwardedFor } : {},
    payload: { username, password: 'wrong-password-1', [CAPTCHA_FIELD]: await solveCaptcha(app.app) },
  });
}

describe('sign-in attempt limits', () => {
  it('locks a username guessed from many addresses, whatever its spelling, and says how long', async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT) });
    const victim = await createUser(t, { username: 'bob' });
    // The same account under the spellings sign-in accepts: Unicode spaces, another case.
    const spellings = ['bob', '\u3000 bob\u2003', 'BOB', ' Bob '];
    const statuses: number[] = [];
    let lastAnswer: { error?: string; code?: string } = {};
    for (let attempt = 0; attempt < 14; attempt += 1) {
      const response = await signIn(t, spellings[attempt % spellings.length]!, {
        remoteAddress: `198.51.100.${attempt + 1}`,
      });
      statuses.push(response.statusCode);
      lastAnswer = response.json();
    }
    expect(statuses.slice(0, LIMIT)).toEqual(Array(LIMIT).fill(401));
    expect(statuses.slice(LIMIT)).toEqual([429, 429, 429, 429]);
    expect(lastAnswer).toMatchObject({ success: false, code: 'rate_limited' });
    expect(lastAnswer.error).toMatch(/^Too many attempts\. Please try again in \d+ seconds?\.$/);
    // Locked means locked: the right password from a fresh address waits too.
    const right = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: '203.0.113.9',
      payload: { username: 'bob', password: victim.password, [CAPTCHA_FIELD]: await solveCaptcha(t.app) },
    });
    expect(right.statusCode).toBe(429);
  });

  it('locks an address trying many usernames', async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT) });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LIMIT + 2; attempt += 1) {
      statuses.push((await signIn(t, `someone_${attempt}`, { remoteAddress: '198.51.100.7' })).statusCode);
    }
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  });

  it('behind one trusted proxy, a forged leftmost X-Forwarded-For does not make a new address', async () => {
    t = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: String(LIMIT), TRUST_PROXY: '1' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < LIMIT + 2; attempt += 1) {
      // The client writes the first entry; our proxy appends the address it saw.
      const response = await signIn(t, `someone_${attempt}`, {
        remoteAddress: '10.0.0.2',
        forwardedFor: `192.0.2.${attempt + 1}, 198.51.100.50`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(LIMIT)).toEqual([429, 429]);
  });
});
