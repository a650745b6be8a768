import {
  accountApiPaths,
  accountMessages,
  authMessages,
  CAPTCHA_FIELD,
  RECOVERY_CODE_COUNT,
  tokenFromFragment,
} from '@simcode/contract';
import { desc, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { solveCaptcha } from '../../../test/support/captcha';
import { createUser, type TestUser } from '../../../test/support/users';
import { mailQueue } from '../../db/schema';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.app.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

function call(method: Method, url: string, payload?: Record<string, unknown>, token?: string) {
  return t.app.inject({
    method,
    url,
    ...(payload ? { payload } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

async function login(username: string, password: string) {
  return call('POST', '/api/auth/login', { username, password, [CAPTCHA_FIELD]: await solveCaptcha(t.app) });
}

/** The newest queued mail of a template, as the mail job would render it. */
async function lastMail(template: 'password_reset' | 'email_change' | 'topup_receipt' | 'code_received') {
  const [row] = await t.ctx.database.db
    .select()
    .from(mailQueue)
    .where(eq(mailQueue.template, template))
    .orderBy(desc(mailQueue.id))
    .limit(1);
  return row;
}

async function linkToken(template: 'password_reset' | 'email_change') {
  const row = await lastMail(template);
  const link = (row!.payload as { link: string }).link;
  return tokenFromFragment(new URL(link).hash);
}

function totpCode(secret: string, atMs: number) {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: atMs,
  });
}

async function enableTwoFactor(user: TestUser) {
  const setup = await call('POST', '/api/account/two-factor/setup', {}, user.token);
  expect(setup.statusCode).toBe(200);
  const { secret, qr_svg, otpauth_url } = setup.json();
  expect(qr_svg).toMatch(/^<svg/);
  expect(otpauth_url).toContain(`secret=${secret}`);
  const enabled = await call(
    'POST',
    '/api/account/two-factor/enable',
    { code: totpCode(secret, t.clock.now().getTime()) },
    user.token,
  );
  expect(enabled.statusCode).toBe(200);
  return { secret: secret as string, recoveryCodes: enabled.json().recovery_codes as string[] };
}

describe('password reset', () => {
  async function forgot(email: string) {
    const answer = await call('POST', '/api/auth/password/forgot', {
      email,
      [CAPTCHA_FIELD]: await solveCaptcha(t.app),
    });
    // The link is made after the answer left (the same time for every address): wait for it.
    await t.ctx.account.resetsSent();
    return answer;
  }

  it('answers the same for a known and an unknown address, and mails only the known one', async () => {
    const user = await createUser(t);
    const known = await forgot(user.email.toUpperCase());
    const unknown = await forgot('nobody@example.test');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.json()).toEqual(unknown.json());
    expect(known.json().message).toBe(accountMessages.resetRequested);
    const queued = await t.ctx.database.db.select().from(mailQueue);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ userId: user.id, template: 'password_reset', toAddress: null });
  });

  it('sets the new password once, ends every session, and the link cannot be used again', async () => {
    const user = await createUser(t);
    await forgot(user.email);
    const token = await linkToken('password_reset');
    const reset = await call('POST', '/api/auth/password/reset', {
      token,
      password: 'brand-new-password',
      repeat_password: 'brand-new-password',
    });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().message).toBe(accountMessages.passwordReset);
    expect((await call('GET', '/api/account', undefined, user.token)).statusCode).toBe(401);
    expect((await login(user.username, user.password)).statusCode).toBe(401);
    expect((await login(user.username, 'brand-new-password')).json().token).toEqual(expect.any(String));

    const replay = await call('POST', '/api/auth/password/reset', {
      token,
      password: 'another-password',
      repeat_password: 'another-password',
    });
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toEqual({
      success: false,
      error: accountMessages.resetLinkInvalid,
      code: 'link_invalid',
    });
    expect((await login(user.username, 'brand-new-password')).statusCode).toBe(200);
  });

  it('refuses a link after its hour, and an older link once a newer one was sent', async () => {
    const user = await createUser(t);
    await forgot(user.email);
    const first = await linkToken('password_reset');
    await forgot(user.email);
    const second = await linkToken('password_reset');
    const body = (token: string) => ({
      token,
      password: 'brand-new-password',
      repeat_password: 'brand-new-password',
    });
    expect((await call('POST', '/api/auth/password/reset', body(first))).statusCode).toBe(400);
    t.clock.advance(60 * 60_000 + 1);
    expect((await call('POST', '/api/auth/password/reset', body(second))).statusCode).toBe(400);
    expect((await login(user.username, user.password)).statusCode).toBe(200);
  });

  it('checks the new password before using the link', async () => {
    const user = await createUser(t);
    await forgot(user.email);
    const token = await linkToken('password_reset');
    const mismatch = await call('POST', '/api/auth/password/reset', {
      token,
      password: 'password-one',
      repeat_password: 'password-two',
    });
    expect(mismatch.json().error).toBe(authMessages.passwordsDoNotMatch);
    const short = await call('POST', '/api/auth/password/reset', {
      token,
      password: 'short',
      repeat_password: 'short',
    });
    expect(short.json().error).toBe(authMessages.passwordTooShort);
    const good = await call('POST', '/api/auth/password/reset', {
      token,
      password: 'password-one',
      repeat_password: 'password-one',
    });
    expect(good.statusCode).toBe(200);
  });

  it('limits the links sent to one address', async () => {
    const user = await createUser(t);
    const answers = [];
    for (let attempt = 0; attempt < 4; attempt += 1) answers.push((await forgot(user.email)).statusCode);
    expect(answers).toEqual([200, 200, 200, 429]);
    expect(await t.ctx.database.db.select().from(mailQueue)).toHaveLength(3);
  });

  it('needs the captcha', async () => {
    const response = await call('POST', '/api/auth/password/forgot', { email: 'a@example.test' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe(authMessages.captchaRequired);
  });
});

describe('changing the password', () => {
  it('asks for the current password, ends the other sessions and gives this device a new token', async () => {
    const user = await createUser(t);
    const other = (await login(user.username, user.password)).json().token as string;
    const wrong = await call(
      'POST',
      '/api/account/password',
      {
        current_password: 'not-my-password',
        password: 'brand-new-password',
        repeat_password: 'brand-new-password',
      },
      user.token,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toBe(accountMessages.currentPasswordWrong);
    expect((await call('GET', '/api/account', undefined, other)).statusCode).toBe(200);

    const changed = await call(
      'POST',
      '/api/account/password',
      {
        current_password: user.password,
        password: 'brand-new-password',
        repeat_password: 'brand-new-password',
      },
      user.token,
    );
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json().token as string;
    expect((await call('GET', '/api/account', undefined, other)).statusCode).toBe(401);
    expect((await call('GET', '/api/account', undefined, user.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/account', undefined, fresh)).statusCode).toBe(200);
    expect((await login(user.username, 'brand-new-password')).statusCode).toBe(200);
  });
});

describe('changing the e-mail address', () => {
  it('changes it only when the link sent to the new address is opened, once', async () => {
    const user = await createUser(t);
    const asked = await call(
      'POST',
      '/api/account/email',
      { email: 'new@example.test', current_password: user.password },
      user.token,
    );
    expect(asked.statusCode).toBe(200);
    expect(asked.json().message).toBe(accountMessages.emailChangeSent('new@example.test'));
    expect((await lastMail('email_change'))?.toAddress).toBe('new@example.test');
    expect((await call('GET', '/api/account', undefined, user.token)).json().account.email).toBe(user.email);

    const token = await linkToken('email_change');
    const confirmed = await call('POST', '/api/auth/email/confirm', { token });
    expect(confirmed.json()).toEqual({
      success: true,
      message: accountMessages.emailChanged('new@example.test'),
    });
    expect((await call('GET', '/api/account', undefined, user.token)).json().account.email).toBe(
      'new@example.test',
    );
    expect((await call('POST', '/api/auth/email/confirm', { token })).statusCode).toBe(400);
  });

  it('refuses a wrong password, the same address and one another account uses', async () => {
    const user = await createUser(t);
    const other = await createUser(t);
    const ask = (email: string, password = user.password) =>
      call('POST', '/api/account/email', { email, current_password: password }, user.token);
    expect((await ask('new@example.test', 'wrong-password')).json().error).toBe(
      accountMessages.currentPasswordWrong,
    );
    expect((await ask(user.email.toUpperCase())).json().error).toBe(accountMessages.emailUnchanged);
    expect((await ask(other.email)).statusCode).toBe(409);
    expect((await ask('not-an-address')).json().error).toBe(authMessages.invalidEmail);
    expect(await t.ctx.database.db.select().from(mailQueue)).toHaveLength(0);
  });
});

describe('two-factor sign-in', () => {
  it('asks for a code after the password and signs in with a current one', async () => {
    const user = await createUser(t);
    await enableTwoFactor(user);
    const first = await login(user.username, user.password);
    expect(first.json()).toEqual({ success: true, two_factor_required: true, challenge: expect.any(String) });
    // The challenge is no session token.
    expect((await call('GET', '/api/account', undefined, first.json().challenge)).statusCode).toBe(401);
    const account = (await call('GET', '/api/account', undefined, user.token)).json().account;
    expect(account).toMatchObject({ two_factor_enabled: true, recovery_codes_left: RECOVERY_CODE_COUNT });
  });

  it('refuses a wrong code and a replayed one', async () => {
    const user = await createUser(t);
    const { secret } = await enableTwoFactor(user);
    t.clock.advance(30_000);
    const challenge = (await login(user.username, user.password)).json().challenge;
    const code = totpCode(secret, t.clock.now().getTime());
    const wrongCode = code === '000000' ? '111111' : '000000';
    const wrong = await call('POST', '/api/auth/login/two-factor', { challenge, code: wrongCode });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error).toBe(accountMessages.twoFactorCodeInvalid);
    const good = await call('POST', '/api/auth/login/two-factor', { challenge, code });
    expect(good.statusCode).toBe(200);
    expect((await call('GET', '/api/account', undefined, good.json().token)).statusCode).toBe(200);
    const replayed = await call('POST', '/api/auth/login/two-factor', { challenge, code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().error).toBe(accountMessages.twoFactorCodeInvalid);
  });

  it('limits the wrong codes of a challenge, counting failures only', async () => {
    const user = await createUser(t);
    const { secret } = await enableTwoFactor(user);
    t.clock.advance(30_000);
    const challenge = (await login(user.username, user.password)).json().challenge;
    const statuses = [];
    for (let attempt = 0; attempt < 6; attempt += 1) {
      statuses.push(
        (await call('POST', '/api/auth/login/two-factor', { challenge, code: '999999' })).statusCode,
      );
    }
    // The enabling code did not count: five wrong codes, then the challenge is done with.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const late = await call('POST', '/api/auth/login/two-factor', {
      challenge,
      code: totpCode(secret, t.clock.now().getTime()),
    });
    expect(late.statusCode).toBe(429);
    // A new challenge (the password again) has its own count: the owner is never locked out by another's.
    const fresh = (await login(user.username, user.password)).json().challenge;
    const signedIn = await call('POST', '/api/auth/login/two-factor', {
      challenge: fresh,
      code: totpCode(secret, t.clock.now().getTime()),
    });
    expect(signedIn.statusCode).toBe(200);
  });

  it('signs in with the right code after a typo, and a challenge signs in once', async () => {
    const user = await createUser(t);
    const { secret } = await enableTwoFactor(user);
    t.clock.advance(30_000);
    const challenge = (await login(user.username, user.password)).json().challenge;
    const code = totpCode(secret, t.clock.now().getTime());
    const typo = code === '000000' ? '000001' : '000000';
    expect((await call('POST', '/api/auth/login/two-factor', { challenge, code: typo })).statusCode).toBe(
      401,
    );
    expect((await call('POST', '/api/auth/login/two-factor', { challenge, code })).statusCode).toBe(200);
    // The next step's code, on the same challenge: refused, the challenge was used.
    t.clock.advance(30_000);
    const again = await call('POST', '/api/auth/login/two-factor', {
      challenge,
      code: totpCode(secret, t.clock.now().getTime()),
    });
    expect(again.statusCode).toBe(401);
  });

  it('accepts each recovery code once, in any case and spacing', async () => {
    const user = await createUser(t);
    const { recoveryCodes } = await enableTwoFactor(user);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    const [code] = recoveryCodes as [string];
    const signIn = async (typed: string) => {
      const challenge = (await login(user.username, user.password)).json().challenge;
      return call('POST', '/api/auth/login/two-factor', { challenge, code: typed });
    };
    expect((await signIn(` ${code.toUpperCase()} `)).statusCode).toBe(200);
    expect((await signIn(code)).statusCode).toBe(401);
    const account = (await call('GET', '/api/account', undefined, user.token)).json().account;
    expect(account.recovery_codes_left).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('drops a challenge once the password is reset', async () => {
    const user = await createUser(t);
    const { secret } = await enableTwoFactor(user);
    const challenge = (await login(user.username, user.password)).json().challenge;
    await t.ctx.auth.changePassword(user.id, 'brand-new-password');
    t.clock.advance(30_000);
    const late = await call('POST', '/api/auth/login/two-factor', {
      challenge,
      code: totpCode(secret, t.clock.now().getTime()),
    });
    expect(late.statusCode).toBe(401);
    expect(late.json().error).toBe(accountMessages.twoFactorSignInExpired);
  });

  it('turns off with the password and a code, and then signs in without one', async () => {
    const user = await createUser(t);
    const { secret } = await enableTwoFactor(user);
    t.clock.advance(30_000);
    const code = totpCode(secret, t.clock.now().getTime());
    const wrongPassword = await call(
      'POST',
      '/api/account/two-factor/disable',
      { current_password: 'nope-nope-nope', code },
      user.token,
    );
    expect(wrongPassword.json().error).toBe(accountMessages.currentPasswordWrong);
    const off = await call(
      'POST',
      '/api/account/two-factor/disable',
      { current_password: user.password, code },
      user.token,
    );
    expect(off.statusCode).toBe(200);
    expect((await login(user.username, user.password)).json().token).toEqual(expect.any(String));
  });

  it('refuses to enable with a wrong code or without a setup', async () => {
    const user = await createUser(t);
    const noSetup = await call('POST', '/api/account/two-factor/enable', { code: '123456' }, user.token);
    expect(noSetup.json().error).toBe(accountMessages.twoFactorNoSetup);
    await call('POST', '/api/account/two-factor/setup', {}, user.token);
    const wrong = await call('POST', '/api/account/two-factor/enable', { code: 'abcdef' }, user.token);
    expect(wrong.json().error).toBe(accountMessages.twoFactorCodeInvalid);
    expect((await login(user.username, user.password)).json().token).toEqual(expect.any(String));
  });

  it('renews the recovery codes: the old ones stop working', async () => {
    const user = await createUser(t);
    const { secret, recoveryCodes } = await enableTwoFactor(user);
    t.clock.advance(30_000);
    const renewed = await call(
      'POST',
      '/api/account/two-factor/recovery-codes',
      { current_password: user.password, code: totpCode(secret, t.clock.now().getTime()) },
      user.token,
    );
    expect(renewed.statusCode).toBe(200);
    const challenge = (await login(user.username, user.password)).json().challenge;
    expect(
      (await call('POST', '/api/auth/login/two-factor', { challenge, code: recoveryCodes[0] })).statusCode,
    ).toBe(401);
    expect(
      (
        await call('POST', '/api/auth/login/two-factor', {
          challenge,
          code: renewed.json().recovery_codes[0],
        })
      ).statusCode,
    ).toBe(200);
  });
});

describe('sessions', () => {
  it("lists the user's sessions, signs one out, and another user's session is not found", async () => {
    const user = await createUser(t);
    const stranger = await createUser(t);
    const second = (await login(user.username, user.password)).json().token as string;
    const listed = (await call('GET', '/api/account/sessions', undefined, second)).json().sessions;
    expect(listed).toHaveLength(2);
    expect(listed.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    const other = listed.find((session: { current: boolean }) => !session.current);

    const strangers = (await call('GET', '/api/account/sessions', undefined, stranger.token)).json().sessions;
    expect(
      (await call('DELETE', `/api/account/sessions/${other.id}`, undefined, stranger.token)).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', `/api/account/sessions/${strangers[0].id}`, undefined, second)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', '/api/account/sessions/not-a-uuid', undefined, second)).statusCode).toBe(
      400,
    );

    expect((await call('DELETE', `/api/account/sessions/${other.id}`, undefined, second)).statusCode).toBe(
      200,
    );
    expect((await call('GET', '/api/account', undefined, user.token)).statusCode).toBe(401);
    expect((await call('GET', '/api/account', undefined, second)).statusCode).toBe(200);
  });

  it('answers 401 before reading a body', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/account/password',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('e-mail preferences', () => {
  it('keeps the opt-in, refusing anything but a boolean', async () => {
    const user = await createUser(t);
    expect(
      (await call('PUT', '/api/account/notifications', { code_emails: 'yes' }, user.token)).statusCode,
    ).toBe(400);
    expect(
      (await call('PUT', '/api/account/notifications', { code_emails: true }, user.token)).statusCode,
    ).toBe(200);
    expect((await call('GET', '/api/account', undefined, user.token)).json().account.code_emails).toBe(true);
  });
});

describe('buying preference', () => {
  it('is off until chosen, then kept for the account, refusing anything but a boolean and strangers', async () => {
    const user = await createUser(t);
    expect((await call('GET', '/api/account', undefined, user.token)).json().account.one_click_buying).toBe(
      false,
    );
    const refused = await call('PUT', '/api/account/buying', { one_click_buying: 'yes' }, user.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ success: false });
    expect((await call('PUT', '/api/account/buying', { one_click_buying: true }, undefined)).statusCode).toBe(
      401,
    );
    const saved = await call('PUT', '/api/account/buying', { one_click_buying: true }, user.token);
    expect(saved.json()).toMatchObject({ success: true, message: 'Your buying preference was saved.' });
    expect((await call('GET', '/api/account', undefined, user.token)).json().account.one_click_buying).toBe(
      true,
    );
  });
});

describe('language preference', () => {
  const { account: accountPath, language: languagePath } = accountApiPaths;

  it('is null until chosen, then saved and read back, the answer worded in the request language', async () => {
    const user = await createUser(t);
    expect((await call('GET', accountPath, undefined, user.token)).json().account.language).toBeNull();

    const saved = await t.app.inject({
      method: 'PUT',
      url: languagePath,
      payload: { language: 'zh' },
      headers: { ...user.headers, 'accept-language': 'zh-CN' },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({ success: true, message: '语言设置已保存。' });
    expect((await call('GET', accountPath, undefined, user.token)).json().account.language).toBe('zh');

    const english = await call('PUT', languagePath, { language: 'en' }, user.token);
    expect(english.json()).toEqual({ success: true, message: accountMessages.languageSaved });
    expect((await call('GET', accountPath, undefined, user.token)).json().account.language).toBe('en');
  });

  it.each([
    [{ language: 'de' }, 'Invalid request: language must be one of en, ru, zh.'],
    [{ language: 'RU' }, 'Invalid request: language must be one of en, ru, zh.'],
    [{ language: 'ru-RU' }, 'Invalid request: language must be one of en, ru, zh.'],
    [{ language: null }, 'Invalid request: language must be one of en, ru, zh.'],
    [{ language: 1 }, 'Invalid request: language must be one of en, ru, zh.'],
    [{}, 'Invalid request: language is required.'],
    [{ language: 'ru', theme: 'dark' }, 'Invalid request: the body has fields that are not allowed.'],
  ])('refuses %j and keeps the saved language', async (payload, error) => {
    const user = await createUser(t);
    await call('PUT', languagePath, { language: 'ru' }, user.token);
    const refused = await call('PUT', languagePath, payload, user.token);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ success: false, error, code: 'invalid_request' });
    expect((await call('GET', accountPath, undefined, user.token)).json().account.language).toBe('ru');
  });

  it('answers 401 to a visitor before reading the body', async () => {
    const visitor = await call('PUT', languagePath, { language: 'xx' });
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ success: false, error: 'Unauthorized', code: 'unauthorized' });
  });
});
