import { and, eq, isNotNull, like, not, or } from 'drizzle-orm';
import type { SecretBox } from '../lib/secret-box';
import type { Database } from './client';
import { apiKeys, users } from './schema';

const SEALED = 'enc:v1:%';

/**
 * Seals the secrets stored in clear before sealing existed (two-factor secrets, customer webhook secrets),
 * at every start: a no-op once done. Reads accept both forms meanwhile (SecretBox.open), so an instance
 * still running the older version and this one can share the database during a rolling upgrade.
 */
export async function sealStoredSecrets(db: Database, box: SecretBox): Promise<number> {
  let sealed = 0;
  await db.transaction(async (tx) => {
    const clearUsers = await tx
      .select({ id: users.id, totpSecret: users.totpSecret, totpPendingSecret: users.totpPendingSecret })
      .from(users)
      .where(
        or(
          and(isNotNull(users.totpSecret), not(like(users.totpSecret, SEALED))),
          and(isNotNull(users.totpPendingSecret), not(like(users.totpPendingSecret, SEALED))),
        ),
      )
      .for('update');
    const sealOrKeep = (value: string | null) =>
      value === null || box.isSealed(value) ? value : box.seal(value);
    for (const user of clearUsers) {
      await tx
        .update(users)
        .set({
          totpSecret: sealOrKeep(user.totpSecret),
          totpPendingSecret: sealOrKeep(user.totpPendingSecret),
        })
        .where(eq(users.id, user.id));
    }
    const clearKeys = await tx
      .select({ id: apiKeys.id, webhookSecret: apiKeys.webhookSecret })
      .from(apiKeys)
      .where(not(like(apiKeys.webhookSecret, SEALED)))
      .for('update');
    for (const key of clearKeys) {
      await tx
        .update(apiKeys)
        .set({ webhookSecret: box.seal(key.webhookSecret) })
        .where(eq(apiKeys.id, key.id));
    }
    sealed = clearUsers.length + clearKeys.length;
  });
  return sealed;
}
