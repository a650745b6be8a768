import { CAPTCHA_FIELD } from '@simcode/contract';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { balanceOf } from '../../src/modules/accounts/ledger';
import { closeTestApp, createTestApp, type TestApp } from '../support/app';
import { solveCaptcha } from '../support/captcha';
import { testDatabase } from '../support/database';
import { expectErrorShape } from '../support/openapi';
import { quietSimulator, rentedNumber } from '../support/rents';
import { createListeningTestApp } from '../support/upstream';
import { createUser, type TestUser } from '../support/users';

/** The attacker's findings on input, each as it was reported (issue 11, findings 4 to 7 and 11). */

let t: TestApp;
// Opening the worker's database is slow on a busy machine: a hook's time, not a test's.
beforeAll(async () => {
  await testDatabase();
});
afterEach(async () => {
  await closeTestApp(t);
});

const inject = (caller: TestUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: caller?.headers ?? {}, ...(payload ? { payload } : {}) });

async function expectRefused(response: Awaited<ReturnType<typeof inject>>, status = 400) {
  expect(response.statusCode, response.body).toBe(status);
  expectErrorShape(response.json(), response.body);
}

describe('strict input', () => {
  it('refuses a NUL character with 400 wherever it was a 500, burning no captcha', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    const admin = await createUser(t, { admin: true });
    const ticket = (
      await inject(user, 'POST', '/api/tickets', { title: 'Help', description: 'Please' })
    ).json().ticket;
    await expectRefused(await inject(user, 'POST', '/api/tickets', { title: 'a\u0000b', description: 'x' }));
    await expectRefused(
      await inject(user, 'POST', `/api/tickets/${ticket.id}/messages`, { content: 'a\u0000b' }),
    );
    await expectRefused(
      await inject(admin, 'POST', `/api/tickets/admin/tickets/${ticket.id}/messages`, {
        content: 'a\u0000b',
      }),
    );
    await expectRefused(
      await inject(admin, 'POST', `/api/admin/users/${user.id}/adjustments`, {
        amount: 1,
        reason: 'a\u0000b',
        idempotency_key: 'strict-input-1',
      }),
    );
    await expectRefused(await inject(user, 'GET', '/api/dashboard/number-status/%00'));
    await expectRefused(await inject(admin, 'GET', '/api/admin/users?q=%00'));
    const captcha = await solveCaptcha(t.app);
    for (const url of ['/api/auth/login', '/api/auth/register']) {
      const body = {
        username: 'bo\u0000b',
        email: 'a\u0000@b.c',
        password: 'password123',
        repeat_password: 'password123',
      };
      await expectRefused(await inject(null, 'POST', url, { ...body, [CAPTCHA_FIELD]: captcha }));
    }
    // The captcha was not spent on the refused requests: it still signs a real sign-in attempt.
    const signIn = await inject(null, 'POST', '/api/auth/login', {
      username: user.username,
      password: user.password,
      [CAPTCHA_FIELD]: captcha,
    });
    expect(signIn.statusCode).toBe(200);
  });

  it('bounds numbers in queries: an overflowing cursor is a 400, not a database error', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    for (const url of [
      '/api/dashboard/numbers?before=99999999999',
      '/api/dashboard/rents?before=99999999999',
      '/api/tickets?offset=99999999999',
      '/api/dashboard/numbers?limit=1e2',
    ]) {
      await expectRefused(await inject(user, 'GET', url));
    }
  });

  it('converts no types: a boolean or hex period renews nothing, hex and padded ids find nothing', async () => {
    t = await createListeningTestApp();
    await quietSimulator(t);
    const user = await createUser(t);
    const admin = await createUser(t, { admin: true });
    const rent = await rentedNumber(t, user);
    const balance = await balanceOf(t.ctx.database.db, user.id);
    for (const periodID of [true, '0x10', '24', [24]]) {
      await expectRefused(
        await inject(user, 'POST', `/api/dashboard/rents/${rent.order_id}/renew`, { periodID }),
      );
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(balance);
    const { ticket } = (
      await inject(user, 'POST', '/api/tickets', { title: 'Keep', description: 'x' })
    ).json();
    const id = Number(ticket.id);
    for (const spelling of [`0x${id.toString(16)}`, ` ${id}`, `${id}e0`, `+${id}`, `0${id}`]) {
      const encoded = encodeURIComponent(spelling);
      await expectRefused(await inject(admin, 'DELETE', `/api/tickets/admin/tickets/${encoded}`));
      await expectRefused(await inject(user, 'GET', `/api/tickets/${encoded}`));
    }
    expect((await inject(user, 'GET', `/api/tickets/${id}`)).statusCode).toBe(200);
  });

  it('tells a visitor 401 before judging the body or the query, on every prefix', async () => {
    t = await createTestApp();
    for (const [method, url, body] of [
      ['POST', '/api/dashboard/rents/x/renew', { periodID: 'nonsense' }],
      ['POST', '/api/dashboard/buy-number', { countryID: 42 }],
      ['GET', '/api/dashboard/numbers?limit=nonsense', undefined],
      ['POST', '/api/admin/users/abc/adjustments', { amount: 'x' }],
      ['GET', '/api/admin/users', undefined],
    ] as const) {
      const response = await inject(null, method, url, body);
      expect(response.statusCode, url).toBe(401);
      expect(response.json()).toEqual({ success: false, error: 'Unauthorized', code: 'unauthorized' });
    }
  });

  it('answers router errors in the one shape, echoing nothing', async () => {
    t = await createTestApp();
    const user = await createUser(t);
    const cases: [string, number][] = [
      ['/api/%zz-echo-marker', 400],
      [`/api/dashboard/number-status/${'echo-marker'.repeat(30)}`, 414],
      [`/api/${'x'.repeat(50)}-echo-marker`, 404],
    ];
    for (const [url, status] of cases) {
      const response = await inject(user, 'GET', url);
      await expectRefused(response, status);
      expect(response.body).not.toContain('echo-marker');
    }
    const validation = await inject(user, 'GET', '/api/dashboard/numbers?limit=abc');
    expect(validation.json()).toEqual({
      success: false,
      error: 'Invalid request: limit must be a whole number written in digits.',
      code: 'invalid_request',
    });
  });
});
