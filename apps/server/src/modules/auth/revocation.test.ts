import { CAPTCHA_FIELD, tokenFromFragment } from '@simcode/contract';
import { and, desc, eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { solveCaptcha } from '../../../test/support/captcha';
import { createApiKey } from '../../../test/support/reseller';
import { createUser, type TestUser } from '../../../test/support/users';
import { type MailTemplate, mailQueue } from '../../db/schema';

let t: TestApp;
let user: TestUser;
let admin: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  user = await createUser(t);
  admin = await createUser(t, { admin: true });
});
afterEach(async () => {
  await t.app.close();
});

function post(url: string, payload: Record<string, unknown> = {}, token?: string) {
  return t.app.inject({
    method: 'POST',
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

const accountOf = async (token: string) =>
  (await t.app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } })).json().account;

async function lastMail(template: MailTemplate, toAddress?: string) {
  const [row] = await t.ctx.database.db
    .select()
    .from(mailQueue)
    .where(and(eq(mailQueue.template, template), toAddress ? eq(mailQueue.toAddress, toAddress) : undefined))
    .orderBy(desc(mailQueue.id))
    .limit(1);
  return row;
}

function tokenOfLink(link: string): string {
  return tokenFromFragment(new URL(link).hash);
}

async function requestEmailChange(email: string) {
  const asked = await post('/api/account/email', { email, current_password: user.password }, user.token);
  expect(asked.statusCode).toBe(200);
  return tokenOfLink(((await lastMail('email_change', email))!.payload as { link: string }).link);
}

async function requestReset(email = user.email) {
  await post('/api/auth/password/forgot', { email, [CAPTCHA_FIELD]: await solveCaptcha(t.app) });
  await t.ctx.account.resetsSent();
  return tokenOfLink(((await lastMail('password_reset'))!.payload as { link: string }).link);
}

const totp = (secret: string) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 }).generate({
    timestamp: t.clock.now().getTime(),
  });

/** Whether the reseller API would take the key now. */
const keyWorks = async (secret: string) => (await t.ctx.apiKeys.authenticate(secret)) !== null;

/** The events that must kill every unused mailed link of the user. */
const revokingEvents: Array<[string, () => Promise<unknown>]> = [
  [
    'a password change',
    () =>
      post(
        '/api/account/password',
        {
          current_password: user.password,
          password: 'another-password-1',
          repeat_password: 'another-password-1',
        },
        user.token,
      ),
  ],
  ['a sign-out everywhere', () => post('/api/auth/logout-all', {}, user.token)],
  [
    'turning two-factor on',
    async () => {
      const { secret } = (await post('/api/account/two-factor/setup', {}, user.token)).json();
      return post('/api/account/two-factor/enable', { code: totp(secret) }, user.token);
    },
  ],
  ['a block', () => post(`/api/admin/users/${user.id}/block`, { reason: 'fraud check' }, admin.token)],
  [
    'an administrator’s sign-out',
    () => post(`/api/admin/users/${user.id}/sign-out`, { reason: 'asked' }, admin.token),
  ],
  [
    'a password reset',
    async () =>
      post('/api/auth/password/reset', {
        token: await requestReset(),
        password: 'another-password-1',
        repeat_password: 'another-password-1',
      }),
  ],
];

describe('every unused mailed link dies with a revocation', () => {
  it.each(revokingEvents)('%s kills a pending e-mail change and reset link', async (_event, revoke) => {
    const changeToken = await requestEmailChange('taker@example.test');
    const resetToken = await requestReset();
    const outcome = (await revoke()) as { statusCode: number };
    expect(outcome.statusCode).toBe(200);
    const confirm = await post('/api/auth/email/confirm', { token: changeToken });
    expect(confirm.json()).toMatchObject({ success: false, code: 'link_invalid' });
    const reset = await post('/api/auth/password/reset', {
      token: resetToken,
      password: 'takers-password-1',
      repeat_password: 'takers-password-1',
    });
    expect(reset.json()).toMatchObject({ success: false, code: 'link_invalid' });
  });

  it('a link made after the revocation works', async () => {
    await post('/api/auth/logout-all', {}, user.token);
    const fresh = await requestReset();
    const reset = await post('/api/auth/password/reset', {
      token: fresh,
      password: 'another-password-1',
      repeat_password: 'another-password-1',
    });
    expect(reset.statusCode).toBe(200);
  });
});

describe('an e-mail change tells the old address, which can take the account back', () => {
  it('mails the old address on the request and on the change; its link reverts and signs out everything', async () => {
    const key = await createApiKey(t, user);
    const changeToken = await requestEmailChange('taker@example.test');
    expect(await lastMail('email_change_requested')).toMatchObject({
      userId: user.id,
      toAddress: user.email,
      payload: { newEmail: 'taker@example.test' },
    });
    expect((await post('/api/auth/email/confirm', { token: changeToken })).statusCode).toBe(200);
    const changed = await lastMail('email_changed');
    expect(changed).toMatchObject({ toAddress: user.email, payload: { newEmail: 'taker@example.test' } });
    // The taker resets the password through the new address: that revocation leaves the revert link alive.
    const takersReset = await post('/api/auth/password/reset', {
      token: await requestReset('taker@example.test'),
      password: 'takers-password-1',
      repeat_password: 'takers-password-1',
      revoke_api_keys: false,
    });
    expect(takersReset.statusCode).toBe(200);
    const takersLogin = await post('/api/auth/login', {
      username: user.username,
      password: 'takers-password-1',
      [CAPTCHA_FIELD]: await solveCaptcha(t.app),
    });
    const takersToken = takersLogin.json().token as string;
    expect(await accountOf(takersToken)).toMatchObject({ email: 'taker@example.test' });

    const revertToken = tokenOfLink((changed!.payload as { revertLink: string }).revertLink);
    const reverted = await post('/api/auth/email/revert', { token: revertToken });
    expect(reverted.statusCode).toBe(200);
    // Back at the old address, the taker's session gone, and the key (made before) revoked too.
    expect(
      (await t.app.inject({ url: '/api/account', headers: { authorization: `Bearer ${takersToken}` } }))
        .statusCode,
    ).toBe(401);
    expect(await keyWorks(key.secret)).toBe(false);
    const back = await post('/api/auth/login', {
      username: user.username,
      password: 'takers-password-1',
      [CAPTCHA_FIELD]: await solveCaptcha(t.app),
    });
    expect(await accountOf(back.json().token)).toMatchObject({ email: user.email });
    // Once.
    expect((await post('/api/auth/email/revert', { token: revertToken })).json()).toMatchObject({
      code: 'link_invalid',
    });
  });

  it('keeps the revert link for 7 days only', async () => {
    expect(
      (await post('/api/auth/email/confirm', { token: await requestEmailChange('new@example.test') }))
        .statusCode,
    ).toBe(200);
    const revertLink = ((await lastMail('email_changed'))!.payload as { revertLink: string }).revertLink;
    t.clock.advance(7 * 86_400_000 + 1000);
    expect((await post('/api/auth/email/revert', { token: tokenOfLink(revertLink) })).json()).toMatchObject({
      code: 'link_invalid',
    });
  });
});

describe('API keys and revocations', () => {
  it('sign-out everywhere revokes the keys unless told to keep them', async () => {
    const kept = await createApiKey(t, user);
    expect((await post('/api/auth/logout-all', { revoke_api_keys: false }, user.token)).statusCode).toBe(200);
    expect(await keyWorks(kept.secret)).toBe(true);
    const second = await createUser(t);
    const revoked = await createApiKey(t, second);
    expect((await post('/api/auth/logout-all', {}, second.token)).statusCode).toBe(200);
    expect(await keyWorks(revoked.secret)).toBe(false);
  });

  it('a password reset revokes the keys by default', async () => {
    const key = await createApiKey(t, user);
    const reset = await post('/api/auth/password/reset', {
      token: await requestReset(),
      password: 'another-password-1',
      repeat_password: 'another-password-1',
    });
    expect(reset.statusCode).toBe(200);
    expect(await keyWorks(key.secret)).toBe(false);
  });

  it('creating a key asks for the password, and the code with two-factor on, and mails the owner', async () => {
    const create = (payload: Record<string, unknown>) =>
      post('/api/dashboard/api-keys', { name: 'bot', ...payload }, user.token);
    expect((await create({})).json()).toMatchObject({ success: false, code: 'validation' });
    expect((await create({ current_password: 'not-it' })).json()).toMatchObject({ code: 'wrong_password' });
    expect((await create({ current_password: user.password })).statusCode).toBe(200);
    expect(await lastMail('api_key_created')).toMatchObject({
      userId: user.id,
      toAddress: null,
      payload: { name: 'bot' },
    });

    const { secret } = (await post('/api/account/two-factor/setup', {}, user.token)).json();
    expect(
      (await post('/api/account/two-factor/enable', { code: totp(secret) }, user.token)).statusCode,
    ).toBe(200);
    t.clock.advance(30_000);
    expect((await create({ current_password: user.password })).json()).toMatchObject({
      code: 'code_required',
    });
    expect(
      (
        await create({
          current_password: user.password,
          code: '000000' === totp(secret) ? '111111' : '000000',
        })
      ).json(),
    ).toMatchObject({
      code: 'invalid_code',
    });
    expect((await create({ current_password: user.password, code: totp(secret) })).statusCode).toBe(200);
  });
});

describe('a device whose session ended', () => {
  const signInAgain = async () =>
    (
      await post('/api/auth/login', {
        username: user.username,
        password: user.password,
        [CAPTCHA_FIELD]: await solveCaptcha(t.app),
      })
    ).json().token as string;
  const refusal = async (token: string) =>
    (await t.app.inject({ url: '/api/account', headers: { authorization: `Bearer ${token}` } })).json();

  it('is told why: a password changed elsewhere, a sign-out everywhere, its own sign-out; a forged token is not', async () => {
    const phone = await signInAgain();
    const changed = await post(
      '/api/account/password',
      {
        current_password: user.password,
        password: 'another-password-1',
        repeat_password: 'another-password-1',
      },
      user.token,
    );
    expect(changed.statusCode).toBe(200);
    expect(await refusal(phone)).toMatchObject({
      success: false,
      code: 'unauthorized',
      reason: 'password_changed',
    });

    user.password = 'another-password-1';
    const [laptop, desktop] = [await signInAgain(), await signInAgain()];
    expect((await post('/api/auth/logout-all', {}, laptop)).statusCode).toBe(200);
    expect((await refusal(laptop)).reason).toBe('signed_out_everywhere');
    expect((await refusal(desktop)).reason).toBe('signed_out_everywhere');

    const tablet = await signInAgain();
    await post('/api/auth/logout', {}, tablet);
    expect((await refusal(tablet)).reason).toBe('session_ended');
    expect((await refusal('not.a.token')).reason).toBeUndefined();
  });
});
