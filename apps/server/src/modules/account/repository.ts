import { createHash } from 'node:crypto';
import type { Language } from '@simcode/contract';
import { and, count, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type AccountLinkPurpose, accountLinks, recoveryCodes, users } from '../../db/schema';

/** The stored form of a link's token: a copy of the database holds no working link. */
export function linkTokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewAccountLink {
  token: string;
  userId: number;
  purpose: AccountLinkPurpose;
  newEmail?: string;
  now: Date;
  expiresAt: Date;
}

/** The SQL of the account page: e-mailed links, two-factor state, recovery codes and preferences. */
export function createAccountRepository(db: Executor) {
  return {
    /** Adds a link under the user's current credential stamp. */
    async insertLink(link: NewAccountLink, tx: Executor = db): Promise<void> {
      await tx.insert(accountLinks).values({
        tokenHash: linkTokenHash(link.token),
        userId: link.userId,
        purpose: link.purpose,
        newEmail: link.newEmail ?? null,
        credentialVersion: sql`(select ${users.credentialVersion} from ${users} where ${users.id} = ${link.userId})`,
        createdAt: link.now,
        expiresAt: link.expiresAt,
      });
    },

    /** Adds a link and retires the user's earlier links of that purpose: only the newest one works. */
    async replaceLink(link: NewAccountLink): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(accountLinks)
          .set({ usedAt: link.now })
          .where(
            and(
              eq(accountLinks.userId, link.userId),
              eq(accountLinks.purpose, link.purpose),
              isNull(accountLinks.usedAt),
            ),
          );
        await this.insertLink(link, tx);
      });
    },

    /**
     * Uses a link: one conditional update, so of two requests with the same link exactly one gets it, and
     * an expired or used link gets nothing, nor one made before the user's last revocation (its credential
     * stamp moved on; a revert link excepted, see modules/auth/revocation.ts).
     */
    async consumeLink(token: string, purpose: AccountLinkPurpose, now: Date, tx: Executor = db) {
      const [link] = await tx
        .update(accountLinks)
        .set({ usedAt: now })
        .where(
          and(
            eq(accountLinks.tokenHash, linkTokenHash(token)),
            eq(accountLinks.purpose, purpose),
            isNull(accountLinks.usedAt),
            gt(accountLinks.expiresAt, now),
            or(
              eq(accountLinks.purpose, 'email_revert'),
              sql`${accountLinks.credentialVersion} = (select ${users.credentialVersion} from ${users} where ${users.id} = ${accountLinks.userId})`,
            ),
          ),
        )
        .returning({ userId: accountLinks.userId, newEmail: accountLinks.newEmail });
      return link;
    },

    async setPasswordHash(userId: number, passwordHash: string, tx: Executor = db): Promise<void> {
      await tx.update(users).set({ passwordHash }).where(eq(users.id, userId));
    },

    async setEmail(userId: number, email: string, tx: Executor = db): Promise<void> {
      await tx.update(users).set({ email }).where(eq(users.id, userId));
    },

    async setPendingTotpSecret(userId: number, secret: string): Promise<void> {
      await db.update(users).set({ totpPendingSecret: secret }).where(eq(users.id, userId));
    },

    /** Turns two-factor on with the confirmed secret and a fresh set of recovery codes, in one transaction. */
    async enableTotp(userId: number, secret: string, step: number, codeHashes: string[]): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [changed] = await tx
          .update(users)
          .set({ totpSecret: secret, totpPendingSecret: null, totpLastStep: step })
          .where(and(eq(users.id, userId), isNull(users.totpSecret), eq(users.totpPendingSecret, secret)))
          .returning({ id: users.id });
        if (!changed) return false;
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
        return true;
      });
    },

    async disableTotp(userId: number): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ totpSecret: null, totpPendingSecret: null, totpLastStep: null })
          .where(eq(users.id, userId));
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      });
    },

    async replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
        await tx.insert(recoveryCodes).values(codeHashes.map((codeHash) => ({ userId, codeHash })));
      });
    },

    /**
     * Accepts a TOTP step once: the update only happens when the step is newer than the last one accepted,
     * so a code replayed (or sent twice at once) within its 30 seconds is refused.
     */
    async acceptTotpStep(userId: number, step: number): Promise<boolean> {
      const [row] = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return row !== undefined;
    },

    /** Uses a recovery code once; false when it is unknown or used. */
    async useRecoveryCode(userId: number, codeHash: string, now: Date): Promise<boolean> {
      const [row] = await db
        .update(recoveryCodes)
        .set({ usedAt: now })
        .where(
          and(
            eq(recoveryCodes.userId, userId),
            eq(recoveryCodes.codeHash, codeHash),
            isNull(recoveryCodes.usedAt),
          ),
        )
        .returning({ id: recoveryCodes.id });
      return row !== undefined;
    },

    async recoveryCodesLeft(userId: number): Promise<number> {
      const [row] = await db
        .select({ left: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
      return Number(row?.left ?? 0);
    },

    async setCodeEmails(userId: number, enabled: boolean): Promise<void> {
      await db.update(users).set({ codeEmails: enabled }).where(eq(users.id, userId));
    },

    async setOneClickBuying(userId: number, enabled: boolean): Promise<void> {
      await db.update(users).set({ oneClickBuying: enabled }).where(eq(users.id, userId));
    },

    async setLanguage(userId: number, language: Language): Promise<void> {
      await db.update(users).set({ language }).where(eq(users.id, userId));
    },

    /** Whether another account already uses the address (any case). */
    async emailTakenByOther(userId: number, email: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = lower(${email})`, sql`${users.id} <> ${userId}`))
        .limit(1);
      return row !== undefined;
    },
  };
}

export type AccountRepository = ReturnType<typeof createAccountRepository>;
