import { authMessages, CAPTCHA_FIELD } from '@simcode/contract';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { solveCaptcha } from '../../../test/support/captcha';
import { createUser } from '../../../test/support/users';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.app.close();
});

async function register(body: Record<string, unknown>, withCaptcha = true) {
  const captcha = withCaptcha ? await solveCaptcha(t.app) : '';
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    payload: { [CAPTCHA_FIELD]: captcha, ...body },
  });
}

async function login(body: Record<string, unknown>, withCaptcha = true) {
  const captcha = withCaptcha ? await solveCaptcha(t.app) : '';
  return t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { [CAPTCHA_FIELD]: captcha, ...body },
  });
}

const valid = {
  email: 'alice@example.com',
  username: 'alice_1',
  password: 'password123',
  repeat_password: 'password123',
};

describe('POST /api/auth/register', () => {
  it('creates the account and answers a token that opens authenticated routes', async () => {
    const response = await register(valid);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    const user = await t.ctx.auth.authenticate(`Bearer ${body.token}`);
    expect(user).toMatchObject({ username: 'alice_1', email: 'alice@example.com', isAdmin: false });
  });

  it.each([
    [{ email: '', username: '', password: '', repeat_password: '' }, authMessages.fillAllFields],
    [{ ...valid, email: undefined }, authMessages.fillAllFields],
    [{ ...valid, username: 'ab' }, authMessages.usernameTooShort],
    [{ ...valid, password: 'short', repeat_password: 'short' }, authMessages.passwordTooShort],
    [{ ...valid, username: 'a'.repeat(20) }, authMessages.usernameTooLong],
    [{ ...valid, password: 'p'.repeat(80), repeat_password: 'p'.repeat(80) }, authMessages.passwordTooLong],
    [{ ...valid, email: `${'e'.repeat(70)}@example.com` }, authMessages.emailTooLong],
    [{ ...valid, username: 'bad name!' }, authMessages.usernameCharacters],
    [{ ...valid, username: "x' OR 1=1--" }, authMessages.usernameCharacters],
    [{ ...valid, username: 'Ünïcødé' }, authMessages.usernameCharacters],
    [{ ...valid, repeat_password: 'password124' }, authMessages.passwordsDoNotMatch],
    [{ ...valid, email: 'not-an-email' }, authMessages.invalidEmail],
  ])('refuses %j with its exact text', async (body, error) => {
    const response = await register(body as Record<string, unknown>);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, error });
  });

  it('asks for the captcha when it is missing, wrong or replayed', async () => {
    expect((await register(valid, false)).json().error).toBe(authMessages.captchaRequired);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...valid, [CAPTCHA_FIELD]: Buffer.from('{"challenge":{}}').toString('base64') },
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(authMessages.captchaRequired);

    const captcha = await solveCaptcha(t.app);
    const first = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...valid, [CAPTCHA_FIELD]: captcha },
    });
    expect(first.statusCode).toBe(200);
    const replay = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...valid, username: 'bob_2', email: 'bob@example.com', [CAPTCHA_FIELD]: captcha },
    });
    expect(replay.json()).toMatchObject({ success: false, error: authMessages.captchaRequired });
  });

  it('refuses an expired captcha', async () => {
    const captcha = await solveCaptcha(t.app);
    t.clock.advance(11 * 60 * 1000);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...valid, [CAPTCHA_FIELD]: captcha },
    });
    expect(response.json().error).toBe(authMessages.captchaRequired);
  });

  it('refuses duplicates whatever their case', async () => {
    expect((await register(valid)).statusCode).toBe(200);
    const sameName = await register({ ...valid, username: 'ALICE_1', email: 'other@example.com' });
    expect(sameName.statusCode).toBe(409);
    expect(sameName.json().error).toBe(authMessages.usernameTaken);
    const sameEmail = await register({ ...valid, username: 'alice_2', email: 'ALICE@example.com' });
    expect(sameEmail.json().error).toBe(authMessages.emailTaken);
  });

  it('gives one account when the same registration races', async () => {
    const captchas = await Promise.all([solveCaptcha(t.app), solveCaptcha(t.app), solveCaptcha(t.app)]);
    const responses = await Promise.all(
      captchas.map((captcha) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: { ...valid, [CAPTCHA_FIELD]: captcha },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  it.each([
    ['wrong types', { ...valid, username: 42, password: ['x'] }],
    ['an object for a string', { ...valid, email: { $ne: null } }],
    ['null', { ...valid, password: null }],
  ])('answers 400, never 500, for %s', async (_name, body) => {
    const response = await register(body);
    expect(response.statusCode).toBe(400);
    expect(response.json().success).toBe(false);
    expect(response.json().error).toMatch(/Invalid request/);
  });

  it('answers 400 to malformed JSON and 413 to a 1 MB body', async () => {
    const malformed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().success).toBe(false);
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ ...valid, email: 'x'.repeat(1_000_000) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ success: false, error: 'Request body is too large.' });
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password, in any username case', async () => {
    const user = await createUser(t, { username: 'carol_9', password: 'password123' });
    const response = await login({ username: 'CAROL_9', password: 'password123' });
    expect(response.statusCode).toBe(200);
    const me = await t.ctx.auth.authenticate(`Bearer ${response.json().token}`);
    expect(me.id).toBe(user.id);
  });

  it('signs in with the account e-mail address in the username field, in any case', async () => {
    const user = await createUser(t, { username: 'fern_3', password: 'password123' });
    const response = await login({ username: 'FERN_3@Example.test', password: 'password123' });
    expect(response.statusCode).toBe(200);
    expect((await t.ctx.auth.authenticate(`Bearer ${response.json().token}`)).id).toBe(user.id);
    const wrong = await login({ username: 'fern_3@example.test', password: 'password124' });
    expect(wrong.json()).toMatchObject({ success: false, error: authMessages.invalidCredentials });
  });

  it('says the same thing for a wrong password and an unknown user', async () => {
    await createUser(t, { username: 'dave_7', password: 'password123' });
    const wrongPassword = await login({ username: 'dave_7', password: 'password124' });
    const unknownUser = await login({ username: 'nobody_7', password: 'password123' });
    for (const response of [wrongPassword, unknownUser]) {
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ success: false, error: authMessages.invalidCredentials });
    }
  });

  it.each([
    [{ username: '', password: '' }, authMessages.fillAllFields],
    [{ username: 'ab', password: 'password123' }, authMessages.usernameTooShort],
    [{ username: 'abc', password: 'short' }, authMessages.passwordTooShort],
    [{ username: 'a'.repeat(20), password: 'password123' }, authMessages.usernameTooLong],
    [{ username: 'abcd', password: 'p'.repeat(80) }, authMessages.passwordTooLong],
  ])('refuses %j with its exact text', async (body, error) => {
    const response = await login(body);
    expect(response.json()).toMatchObject({ success: false, error });
  });

  it('checks the captcha before the password', async () => {
    await createUser(t, { username: 'erin_5', password: 'password123' });
    const response = await login({ username: 'erin_5', password: 'password123' }, false);
    expect(response.json().error).toBe(authMessages.captchaRequired);
  });

  it('limits attempts per address and per username with 429', async () => {
    const limited = await createTestApp({ RATE_LIMIT_AUTH_PER_MINUTE: '3' });
    try {
      const statuses: number[] = [];
      for (let attempt = 0; attempt < 4; attempt += 1) {
        const response = await limited.app.inject({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'target_1', password: 'password123' },
        });
        statuses.push(response.statusCode);
        if (response.statusCode === 429)
          expect(response.json().error).toMatch(/^Too many attempts. Please try again in \d+ seconds?\.$/);
      }
      expect(statuses).toEqual([400, 400, 400, 429]);
    } finally {
      await limited.app.close();
    }
  });
});
