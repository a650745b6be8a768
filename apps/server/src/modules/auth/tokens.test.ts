import { randomUUID } from 'node:crypto';
import { TOKEN_LIFETIME_SECONDS } from '@simcode/contract';
import { eq, sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { createUser, type TestUser } from '../../../test/support/users';
import { users } from '../../db/schema';
import { createTokenService } from './tokens';

let t: TestApp;
let user: TestUser;
let admin: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  user = await createUser(t);
  admin = await createUser(t, { admin: true });
});
afterEach(() => t.app.close());

/** Tokens signed with the server's own key (JWT_SECRET), as the server signs them. */
const serverTokens = () => createTokenService(t.config.JWT_SECRET);

const userRoute = '/api/dashboard/summary';
/** An administrator's route that answers 404 to an administrator (no such user), 403 to anyone else. */
const adminRoute = '/api/admin/users/2147483647';

async function call(url: string, authorization?: string) {
  const response = await t.app.inject({ url, headers: authorization ? { authorization } : {} });
  return { status: response.statusCode, body: response.json() };
}

describe('who is calling is decided by the server on every request', () => {
  it('answers Unauthorized without a token and Invalid token for a malformed or forged one', async () => {
    expect(await call(userRoute)).toMatchObject({
      status: 401,
      body: { success: false, error: 'Unauthorized' },
    });
    expect(await call(userRoute, 'Basic dXNlcjpwYXNz')).toMatchObject({
      status: 401,
      body: { error: 'Unauthorized' },
    });
    for (const header of ['Bearer abc', 'Bearer a.b.c', `Bearer ${user.token}x`]) {
      expect(await call(userRoute, header)).toMatchObject({
        status: 401,
        body: { success: false, error: 'Invalid token' },
      });
    }
    const forged = await createTokenService('another-secret-of-at-least-32-characters!').sign({
      userId: user.id,
      role: 1,
      tokenVersion: 0,
      sessionId: randomUUID(),
    });
    expect(await call(userRoute, `Bearer ${forged}`)).toMatchObject({
      status: 401,
      body: { error: 'Invalid token' },
    });
  });

  it('accepts a token for 24 hours, not a second more', async () => {
    expect((await call(userRoute, user.headers.authorization)).status).toBe(200);
    t.clock.advance((TOKEN_LIFETIME_SECONDS - 60) * 1000);
    expect((await call(userRoute, user.headers.authorization)).status).toBe(200);
    t.clock.advance(61_000);
    expect(await call(userRoute, user.headers.authorization)).toMatchObject({
      status: 401,
      body: { error: 'Invalid token' },
    });
  });

  it('refuses the token of a deleted user', async () => {
    expect((await call(userRoute, user.headers.authorization)).status).toBe(200);
    await t.ctx.database.db.delete(users).where(eq(users.id, user.id));
    await expect
      .poll(async () => (await call(userRoute, user.headers.authorization)).body.error)
      .toBe('Invalid token');
  });

  it('never takes the role from the token: a user token claiming the admin role gets 403', async () => {
    // Signed with the server's key for the user's own live session: only the role claim is false.
    const { sessionId } = (await serverTokens().verify(user.token))!;
    const claimsAdmin = await serverTokens().sign({ userId: user.id, role: 1, tokenVersion: 0, sessionId });
    expect(await call(adminRoute, `Bearer ${claimsAdmin}`)).toMatchObject({
      status: 403,
      body: { success: false, error: 'Forbidden' },
    });
    expect((await call(adminRoute, user.headers.authorization)).status).toBe(403);
    expect((await call(adminRoute, admin.headers.authorization)).status).toBe(404);
  });

  it('refuses a correctly signed token whose session has no live row', async () => {
    const noSession = await serverTokens().sign({
      userId: user.id,
      role: 0,
      tokenVersion: 0,
      sessionId: randomUUID(),
    });
    expect(await call(userRoute, `Bearer ${noSession}`)).toMatchObject({
      status: 401,
      body: { success: false, error: 'Invalid token', code: 'unauthorized' },
    });
    // The user's own token, naming a live session, still works.
    expect((await call(userRoute, user.headers.authorization)).status).toBe(200);
  });

  it('stops a demoted administrator at once, whether or not the token was revoked', async () => {
    expect((await call(adminRoute, admin.headers.authorization)).status).toBe(404);
    // Role changed in the database behind the application's back: the old token still claims admin.
    await t.ctx.database.db.execute(sql`update users set role = 0 where id = ${admin.id}`);
    await expect.poll(async () => (await call(adminRoute, admin.headers.authorization)).status).toBe(403);
    // Demoted through the product: the token is revoked as well.
    const other = await createUser(t, { admin: true });
    await t.ctx.database.db
      .update(users)
      .set({ role: 0, tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, other.id));
    await expect
      .poll(async () => (await call(adminRoute, other.headers.authorization)).body.error)
      .toBe('Invalid token');
  });
});
