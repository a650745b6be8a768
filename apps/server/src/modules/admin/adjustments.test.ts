import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/app';
import { createUser, type TestUser } from '../../../test/support/users';
import { ledgerEntries } from '../../db/schema';
import { balanceOf } from '../accounts/ledger';
import { IDEMPOTENCY_KEY_REUSED } from './service';

let t: TestApp;
let admin: TestUser;
let user: TestUser;
beforeEach(async () => {
  t = await createTestApp();
  admin = await createUser(t, { admin: true });
  user = await createUser(t);
});
afterEach(async () => {
  await t.app.close();
});

const adjust = (caller: TestUser | null, userId: number, body: unknown) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/users/${userId}/adjustments`,
    headers: caller?.headers ?? {},
    payload: body as Record<string, unknown>,
  });

describe('POST /api/admin/users/:id/adjustments', () => {
  const first = { amount: 5, note: 'compensation for ticket 42', idempotency_key: 'ticket-42-comp' };

  it('applies a retry once and refuses the key reused for another request with 409', async () => {
    expect((await adjust(admin, user.id, first)).json()).toMatchObject({ applied: true, balance: 5 });
    expect((await adjust(admin, user.id, first)).json()).toMatchObject({ applied: false, balance: 5 });
    const other = await createUser(t);
    for (const [target, body] of [
      [user.id, { ...first, amount: 50 }],
      [user.id, { ...first, note: 'another note' }],
      [other.id, first],
    ] as const) {
      const response = await adjust(admin, target, body);
      expect(response.statusCode).toBe(409);
      expect(response.json()).toEqual({
        success: false,
        error: IDEMPOTENCY_KEY_REUSED,
        code: 'idempotency_key_reused',
      });
    }
    expect(await balanceOf(t.ctx.database.db, user.id)).toBe(500);
    expect(await balanceOf(t.ctx.database.db, other.id)).toBe(0);
    expect(await t.ctx.database.db.select().from(ledgerEntries)).toHaveLength(1);
  });

  it('refuses overflowing amounts, control characters and strings for numbers with a 400, changing nothing', async () => {
    for (const body of [
      { ...first, amount: 1e300 },
      { ...first, amount: '5' },
      { ...first, note: 'a\u0000b' },
      { ...first, idempotency_key: 'key\u0007key' },
    ]) {
      const response = await adjust(admin, user.id, body);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, code: 'invalid_request' });
    }
    expect(await t.ctx.database.db.select().from(ledgerEntries)).toHaveLength(0);
  });

  it('judges the caller before the body: a visitor gets 401 and a user 403, even for a bad body', async () => {
    expect((await adjust(null, user.id, { amount: 'x' })).statusCode).toBe(401);
    expect((await adjust(user, user.id, { amount: 'x' })).statusCode).toBe(403);
    expect((await adjust(null, user.id, { amount: 'x' })).json()).toEqual({
      success: false,
      error: 'Unauthorized',
      code: 'unauthorized',
    });
  });
});
