import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app';
import { createApiKey } from '../../test/support/reseller';
import { createUser } from '../../test/support/users';
import { apiKeys, users } from './schema';
import { sealStoredSecrets } from './sealed-secrets';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.app.close();
});

describe('secrets at rest', () => {
  it('are written sealed, and rows from before sealing are sealed at start and read the same', async () => {
    const user = await createUser(t);
    const key = await createApiKey(t, user);
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/account/two-factor/setup',
      headers: user.headers,
    });
    const { db } = t.ctx.database;
    const [stored] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(stored!.webhookSecret).toMatch(/^enc:v1:/);
    expect(stored!.webhookSecret).not.toContain(key.webhookSecret);
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row!.totpPendingSecret).toMatch(/^enc:v1:/);
    expect(t.ctx.secretBox.open(row!.totpPendingSecret!)).toBe(setup.json().secret);

    // As an older version left them: in clear. Reads accept both while they wait to be sealed.
    await db.update(apiKeys).set({ webhookSecret: 'whsec_in_clear' }).where(eq(apiKeys.id, key.id));
    await db.update(users).set({ totpSecret: 'JBSWY3DPEHPK3PXP' }).where(eq(users.id, user.id));
    const listed = await t.app.inject({ url: '/api/dashboard/api-keys', headers: user.headers });
    expect(listed.json().keys[0].webhook_secret).toBe('whsec_in_clear');

    expect(await sealStoredSecrets(db, t.ctx.secretBox)).toBe(2);
    const [sealedKey] = await db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    const [sealedUser] = await db.select().from(users).where(eq(users.id, user.id));
    expect(sealedKey!.webhookSecret).toMatch(/^enc:v1:/);
    expect(t.ctx.secretBox.open(sealedKey!.webhookSecret)).toBe('whsec_in_clear');
    expect(t.ctx.secretBox.open(sealedUser!.totpSecret!)).toBe('JBSWY3DPEHPK3PXP');
    expect(t.ctx.secretBox.open(sealedUser!.totpPendingSecret!)).toBe(setup.json().secret);
    // Done once: the next start has nothing left to seal.
    expect(await sealStoredSecrets(db, t.ctx.secretBox)).toBe(0);
  });
});
