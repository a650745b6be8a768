import { apiKeyMessages, CAPTCHA_FIELD } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/support/app';
import { solveCaptcha } from '../../../../test/support/captcha';
import { assertLedgerInvariant } from '../../../../test/support/money';
import { createUser, type TestUser } from '../../../../test/support/users';
import { auditLog, ledgerEntries, users } from '../../../db/schema';
import { balanceOf } from '../../accounts/ledger';

let t: TestApp;
let admin: TestUser;
let user: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t, { admin: true });
  user = await createUser(t);
});
afterEach(async () => {
  await assertLedgerInvariant(t.ctx.database);
  await t.app.close();
});

function post(caller: TestUser | null, url: string, body: unknown) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin${url}`,
    headers: caller?.headers ?? {},
    payload: body as Record<string, unknown>,
  });
}

function get(caller: TestUser | null, url: string) {
  return t.app.inject({ url: `/api/admin${url}`, headers: caller?.headers ?? {} });
}

const auditEntries = () => t.ctx.database.db.select().from(auditLog);

describe('adjustments', () => {
  const first = { amount: 5, reason: 'compensation for ticket 42', idempotency_key: 'ticket-42-comp' };

  it('credits through the ledger with an audit entry, applies a retry once and refuses the key reused for another request', async () => {
    const credited = await post(admin, `/users/${user.id}/adjustments`, first);
    expect(credited.statusCode, credited.body).toBe(200);
    expect(credited.json()).toMatchObject({
      applied: true,
      message: `$5.00 was credited to ${user.username}.`,
      user: { id: user.id, balance: 5 },
    });
    expect((await post(admin, `/users/${user.id}/adjustments`, first)).json()).toMatchObject({
      applied: false,
      user: { balance: 5 },
    });
    const other = await createUser(t);
    for (const [target, body] of [
      [user.id, { ...first, amount: 50 }],
      [user.id, { ...first, reason: 'another reason' }],
      [other.id, first],
    ] as const) {
      const response = await post(admin, `/users/${target}/adjustments`, body);
      expect(response.statusCode).toBe(422);
      expect(response.json()).toEqual({
        success: false,
        error: apiKeyMessages.idempotencyKeyReused,
        code: 'idempotency_key_reused',
      });
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500);
    expect(await balanceOf(t.ctx.database.db, other.id)).toBe(0);
    const [entry] = await t.ctx.database.db.select().from(ledgerEntries);
    expect(entry).toMatchObject({
      kind: 'adjustment',
      amountCents: 500,
      note: first.reason,
      referenceId: admin.username,
    });
    const audit = await auditEntries();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      adminId: admin.id,
      action: 'user.credit',
      objectType: 'user',
      objectId: String(user.id),
      before: { balance: 0 },
      after: { balance: 5, amount: 5 },
      reason: first.reason,
    });

    // The user's page shows the entry; the ledger lists it with its reference.
    const detail = (await get(admin, `/users/${user.id}`)).json();
    expect(detail.audit).toEqual([expect.objectContaining({ action: 'user.credit', admin: admin.username })]);
    const ledger = (await get(admin, `/users/${user.id}/ledger`)).json();
    expect(ledger.entries).toEqual([
      expect.objectContaining({ kind: 'adjustment', amount: 5, balance_after: 5, reference_type: 'admin' }),
    ]);
  });

  it('refuses a debit below zero, overflowing amounts, a missing reason and strings for numbers, changing nothing', async () => {
    for (const body of [
      { ...first, amount: -1 },
      { ...first, amount: 1e300 },
      { ...first, amount: '5' },
      { ...first, amount: 0 },
      { ...first, reason: '' },
      { ...first, reason: 'a\u0000b' },
      { amount: 5, reason: 'no key' },
    ]) {
      const response = await post(admin, `/users/${user.id}/adjustments`, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json()).toMatchObject({ success: false });
    }
    expect(await t.ctx.database.db.select().from(ledgerEntries)).toHaveLength(0);
    expect(await auditEntries()).toHaveLength(0);
  });

  it('answers 404 for an unknown user', async () => {
    expect((await post(admin, '/users/99999/adjustments', first)).statusCode).toBe(404);
    expect((await get(admin, '/users/99999')).statusCode).toBe(404);
  });
});

describe('searching users', () => {
  it('finds by part of the username or e-mail, or by id, newest first, a page at a time', async () => {
    const found = (await get(admin, `/users?q=${encodeURIComponent(user.username.slice(0, 8))}`)).json();
    expect(found.users.map((row: { id: number }) => row.id)).toContain(user.id);
    expect((await get(admin, `/users?q=${user.id}`)).json().users[0]).toMatchObject({
      id: user.id,
      role: 'user',
    });
    expect((await get(admin, '/users?q=%25')).json().users).toEqual([]);

    const firstPage = (await get(admin, '/users?limit=1')).json();
    expect(firstPage.users).toHaveLength(1);
    expect(firstPage.users[0].id).toBe(user.id);
    const secondPage = (await get(admin, `/users?limit=1&before=${firstPage.next_before}`)).json();
    expect(secondPage.users[0].id).toBe(admin.id);
  });
});

describe('blocking', () => {
  it('ends the open session at once, refuses sign-in, and lets the user in again once unblocked', async () => {
    expect((await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).statusCode).toBe(
      200,
    );
    const blocked = await post(admin, `/users/${user.id}/block`, { reason: 'chargeback fraud' });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toMatchObject({ user: { blocked: true } });
    expect((await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).statusCode).toBe(
      401,
    );

    const login = async () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: {
          username: user.username,
          password: user.password,
          [CAPTCHA_FIELD]: await solveCaptcha(t.app),
        },
      });
    const refused = await login();
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'This account is blocked. Please contact support.' });
    expect((await post(admin, `/users/${user.id}/block`, { reason: 'again' })).statusCode).toBe(409);

    expect((await post(admin, `/users/${user.id}/unblock`, { reason: 'appeal accepted' })).statusCode).toBe(
      200,
    );
    expect((await login()).statusCode).toBe(200);
    expect((await auditEntries()).map((entry) => entry.action)).toEqual(['user.block', 'user.unblock']);
  });

  it('does not let an administrator block or demote themselves', async () => {
    expect((await post(admin, `/users/${admin.id}/block`, { reason: 'oops' })).statusCode).toBe(409);
    expect((await post(admin, `/users/${admin.id}/role`, { role: 'user', reason: 'oops' })).statusCode).toBe(
      409,
    );
    expect(await auditEntries()).toHaveLength(0);
  });
});

describe('roles, two-factor and sessions', () => {
  it('promotes and demotes, signing the user out each time', async () => {
    const promoted = await post(admin, `/users/${user.id}/role`, {
      role: 'admin',
      reason: 'new support hire',
    });
    expect(promoted.json()).toMatchObject({ user: { role: 'admin' } });
    expect((await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).statusCode).toBe(
      401,
    );
    const [row] = await t.ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.role).toBe(1);
    expect((await post(admin, `/users/${user.id}/role`, { role: 'admin', reason: 'twice' })).statusCode).toBe(
      409,
    );
    expect(
      (await post(admin, `/users/${user.id}/role`, { role: 'user', reason: 'left' })).json(),
    ).toMatchObject({
      user: { role: 'user' },
    });
  });

  it('turns two-factor off only where it is on, and signs a user out everywhere', async () => {
    expect(
      (await post(admin, `/users/${user.id}/two-factor/reset`, { reason: 'lost phone' })).statusCode,
    ).toBe(409);
    await t.ctx.database.db
      .update(users)
      .set({ totpSecret: 'JBSWY3DPEHPK3PXP' })
      .where(eq(users.id, user.id));
    const reset = await post(admin, `/users/${user.id}/two-factor/reset`, {
      reason: 'lost phone, ID checked',
    });
    expect(reset.json()).toMatchObject({ user: { two_factor: false } });

    const signedOut = await post(admin, `/users/${user.id}/sign-out`, { reason: 'stolen laptop' });
    expect(signedOut.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/dashboard/summary', headers: user.headers })).statusCode).toBe(
      401,
    );
    const detail = (await get(admin, `/users/${user.id}`)).json();
    expect(
      detail.sessions.every((session: { revoked_at: string | null }) => session.revoked_at !== null),
    ).toBe(true);
    expect(detail.audit.map((entry: { action: string }) => entry.action)).toEqual([
      'user.sign_out',
      'user.reset_two_factor',
    ]);
  });
});
