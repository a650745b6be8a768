import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client';
import { accountLinks, apiKeys, sessions, users } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';

/** Why a user's credentials are revoked; every path that must kill them names itself here. */
export type RevocationCause =
  | 'password_change'
  | 'password_reset'
  | 'sign_out_everywhere'
  | 'two_factor_change'
  | 'block'
  | 'role_change'
  | 'admin_sign_out'
  | 'email_revert';

export interface Revocation {
  userId: number;
  cause: RevocationCause;
  /** The session that made the change and stays signed in (a password or two-factor change here). */
  keepSessionId?: string;
  /** Revoke the user's API keys too (offered, checked by default, on a reset and a sign-out everywhere). */
  revokeApiKeys?: boolean;
}

/**
 * The one rule "every credential dies with the events that should kill it". Every path above calls it:
 * it moves the credential stamp on (every mailed link and two-factor challenge made before dies with it),
 * ends the sessions (all, or all but the one that asked), marks the unused links used, optionally revokes
 * the API keys, and tells every instance (identities are forgotten, and the live-update streams of ended
 * sessions close: modules/events/routes.ts). A revert link is the exception: it belongs to the address
 * that lost the account and must outlive the taker's clean-up.
 */
export function createCredentialRevocation({
  db,
  events,
  clock,
}: {
  db: Database;
  events: UserEventBus;
  clock: Clock;
}) {
  /** The changes, inside the caller's transaction (which may change the user row too: a block, a role). */
  async function revokeWithin(tx: Executor, revocation: Revocation): Promise<void> {
    const now = clock.now();
    const { userId, keepSessionId } = revocation;
    await tx
      .update(users)
      .set({
        credentialVersion: sql`${users.credentialVersion} + 1`,
        // A kept session's token must go on working; without one, tokens that never had a row die too.
        ...(keepSessionId ? {} : { tokenVersion: sql`${users.tokenVersion} + 1` }),
      })
      .where(eq(users.id, userId));
    await tx
      .update(sessions)
      .set({ revokedAt: now, revokedCause: revocation.cause })
      .where(
        and(
          eq(sessions.userId, userId),
          isNull(sessions.revokedAt),
          keepSessionId ? ne(sessions.id, keepSessionId) : undefined,
        ),
      );
    await tx
      .update(accountLinks)
      .set({ usedAt: now })
      .where(
        and(
          eq(accountLinks.userId, userId),
          isNull(accountLinks.usedAt),
          ne(accountLinks.purpose, 'email_revert'),
        ),
      );
    if (revocation.revokeApiKeys) {
      await tx
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
    }
  }

  /** After the commit: this instance at once, the others through the database's triggers and the bus. */
  function announce(userId: number): void {
    events.publish({ userId, type: 'account' });
    events.publish({ userId, type: 'api-keys' });
  }

  return {
    revokeWithin,
    announce,
    async revoke(revocation: Revocation): Promise<void> {
      await db.transaction((tx) => revokeWithin(tx, revocation));
      announce(revocation.userId);
    },
  };
}

export type CredentialRevocation = ReturnType<typeof createCredentialRevocation>;
