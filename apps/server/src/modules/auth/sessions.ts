import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { sessions } from '../../db/schema';

/** A browser's user agent is kept for the sessions list, not as evidence: long ones are cut. */
const USER_AGENT_MAX_LENGTH = 300;

export interface NewSession {
  id: string;
  userId: number;
  now: Date;
  expiresAt: Date;
  userAgent?: string;
  address?: string;
}

/**
 * The SQL of sessions: one row per issued token. Revoking a row makes a database trigger tell every
 * instance (the `account` user event), so their caches forget the user at once.
 */
export function createSessionsRepository(db: Executor) {
  return {
    async insert(session: NewSession): Promise<void> {
      await db.insert(sessions).values({
        id: session.id,
        userId: session.userId,
        createdAt: session.now,
        lastSeenAt: session.now,
        expiresAt: session.expiresAt,
        userAgent: session.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
        address: session.address ?? null,
      });
    },

    /** The sessions of a user that are live (not revoked, not expired): the only ones a token may name. */
    async liveIds(userId: number, now: Date): Promise<string[]> {
      const rows = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
      return rows.map((row) => row.id);
    },

    /** The sessions a user can still use, newest first (for an account page). */
    async activeFor(userId: number, now: Date) {
      return db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
        .orderBy(desc(sessions.createdAt));
    },

    /** Ends one session of the user; false when it is not theirs, unknown or already ended. */
    async revoke(userId: number, sessionId: string, now: Date): Promise<boolean> {
      const ended = await db
        .update(sessions)
        .set({ revokedAt: now, revokedCause: 'sign_out' })
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt)))
        .returning({ id: sessions.id });
      return ended.length > 0;
    },

    /** Why a user's session ended, as stored when it was revoked; undefined for a live or unknown one. */
    async endedCause(userId: number, sessionId: string): Promise<string | undefined> {
      const [row] = await db
        .select({ cause: sessions.revokedCause })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)));
      return row?.cause ?? undefined;
    },

    async touch(sessionId: string, now: Date): Promise<void> {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sessionId));
    },
  };
}

export type SessionsRepository = ReturnType<typeof createSessionsRepository>;
