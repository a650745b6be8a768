import { ADMIN_ROLE } from '@simcode/contract';
import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { createUser, type TestUser } from '../../../test/support/users';
import { sessions, users } from '../../db/schema';
import { createAdminUsersService } from '../admin/users/service';
import { createUsersRepository } from '../users/repository';

let t: TestApp;
let other: TestApp | undefined;
let user: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  user = await createUser(t);
});
afterEach(async () => {
  await t.app.close();
  await other?.app.close();
  other = undefined;
});

const summaryWith = (app: TestApp, token: string) =>
  app.app.inject({ url: '/api/dashboard/summary', headers: { authorization: `Bearer ${token}` } });
const post = (app: TestApp, url: string, token: string) =>
  app.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` } });

describe('server-side sessions', () => {
  it('records a session per token with its address and user agent', async () => {
    const rows = await t.ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.revokedAt).toBeNull();
  });

  it('logout ends this token only, on this instance and on another one', async () => {
    // Another instance of the same deployment: same database, same signing key.
    other = await createTestApp({ JWT_SECRET: t.config.JWT_SECRET });
    const second = await t.ctx.auth.issueToken({ id: user.id, role: 0, tokenVersion: 0 });
    // Both instances know the token before it is revoked (their caches hold it).
    expect((await summaryWith(other, user.token)).statusCode).toBe(200);
    expect((await summaryWith(t, user.token)).statusCode).toBe(200);

    expect((await post(t, '/api/auth/logout', user.token)).json()).toEqual({ success: true });
    expect((await summaryWith(t, user.token)).json()).toMatchObject({ error: 'Invalid token' });
    await expect.poll(async () => (await summaryWith(other!, user.token)).statusCode).toBe(401);
    expect((await summaryWith(t, second)).statusCode).toBe(200);
    expect((await summaryWith(other, second)).statusCode).toBe(200);
  });

  it('a caller kept in memory follows a change of the user: a new role shows on the next request', async () => {
    const authorization = `Bearer ${user.token}`;
    const first = await t.ctx.auth.authenticate(authorization);
    expect(first.isAdmin).toBe(false);
    // Polls reuse the caller made for this identity and session.
    expect(t.ctx.auth.authenticateCached(authorization)).toBe(first);
    await t.ctx.database.db.update(users).set({ role: ADMIN_ROLE }).where(eq(users.id, user.id));
    await expect.poll(async () => (await t.ctx.auth.authenticate(authorization)).isAdmin).toBe(true);
    expect(t.ctx.auth.authenticateCached(authorization)?.isAdmin).toBe(true);
  });

  it('sign out everywhere ends every token of the user and no one else’s', async () => {
    const second = await t.ctx.auth.issueToken({ id: user.id, role: 0, tokenVersion: 0 });
    const stranger = await createUser(t);
    expect((await post(t, '/api/auth/logout-all', second)).statusCode).toBe(200);
    expect((await summaryWith(t, user.token)).statusCode).toBe(401);
    expect((await summaryWith(t, second)).statusCode).toBe(401);
    expect((await summaryWith(t, stranger.token)).statusCode).toBe(200);
    const rows = await t.ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('a password change ends every session; the new password signs in', async () => {
    await t.ctx.auth.changePassword(user.id, 'a-brand-new-password');
    expect((await summaryWith(t, user.token)).statusCode).toBe(401);
    const row = await createUsersRepository(t.ctx.database.db).findById(user.id);
    const fresh = await t.ctx.auth.issueToken(row!);
    expect((await summaryWith(t, fresh)).statusCode).toBe(200);
  });

  it('a role change ends every session and marks them revoked', async () => {
    // Through the console's action, the one way a role changes.
    await createAdminUsersService({ db: t.ctx.database.db, events: t.ctx.events, clock: t.clock }).setRole(
      { id: 0, username: 'console' },
      user.id,
      'admin',
      'test',
    );
    await expect.poll(async () => (await summaryWith(t, user.token)).statusCode).toBe(401);
    const rows = await t.ctx.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
    expect(rows.every((row) => row.revokedAt !== null)).toBe(true);
  });

  it('logout needs a valid token', async () => {
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout' })).statusCode).toBe(401);
    await post(t, '/api/auth/logout', user.token);
    expect((await post(t, '/api/auth/logout', user.token)).statusCode).toBe(401);
  });
});
