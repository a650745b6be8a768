import { DEFAULT_LANGUAGE, type Language } from '@simcode/contract';
import { and, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type MailQueueRow, type MailTemplate, mailQueue, users } from '../../db/schema';
import { requestLanguageOrNull } from '../../lib/request-language';
import type { MailPayloads } from './templates';

export interface QueuedMail<T extends MailTemplate = MailTemplate> {
  userId: number;
  template: T;
  payload: MailPayloads[T];
  /** Only for an address that is not the account's yet (an e-mail change). */
  toAddress?: string;
  /** Due from then (the service's clock). */
  now: Date;
}

/**
 * A claimed row with the address to send to (the user's current one unless the row names another) and the
 * language to write in: the one the user chose, else the one of the request that caused the mail, else
 * English.
 */
export interface ClaimedMail extends Omit<MailQueueRow, 'language'> {
  address: string;
  language: Language;
}

/** The SQL of the mail queue. */
export function createMailQueue(db: Executor) {
  return {
    async enqueue<T extends MailTemplate>(mail: QueuedMail<T>): Promise<void> {
      await db.insert(mailQueue).values({
        userId: mail.userId,
        template: mail.template,
        payload: mail.payload as unknown as Record<string, unknown>,
        toAddress: mail.toAddress ?? null,
        language: requestLanguageOrNull(),
        createdAt: mail.now,
        nextAttemptAt: mail.now,
      });
    },

    /**
     * Takes up to `limit` due messages and moves their next attempt to `leaseUntil`: another instance skips
     * them, and a process that dies while sending leaves them to be tried again then.
     */
    async claimDue(now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
      const due = db
        .select({ id: mailQueue.id })
        .from(mailQueue)
        .where(and(isNull(mailQueue.sentAt), isNull(mailQueue.failedAt), lte(mailQueue.nextAttemptAt, now)))
        .orderBy(mailQueue.id)
        .limit(limit)
        .for('update', { skipLocked: true });
      const claimed = await db
        .update(mailQueue)
        .set({ attempts: sql`${mailQueue.attempts} + 1`, nextAttemptAt: leaseUntil })
        .where(inArray(mailQueue.id, due))
        .returning();
      if (claimed.length === 0) return [];
      const owners = await db
        .select({ id: users.id, email: users.email, language: users.language })
        .from(users)
        .where(inArray(users.id, [...new Set(claimed.map((row) => row.userId))]));
      const ownerOf = new Map(owners.map((owner) => [owner.id, owner]));
      return claimed
        .map((row) => {
          const owner = ownerOf.get(row.userId);
          return {
            ...row,
            address: row.toAddress ?? owner?.email ?? '',
            language: owner?.language ?? row.language ?? DEFAULT_LANGUAGE,
          };
        })
        .sort((a, b) => a.id - b.id);
    },

    async markSent(id: number, now: Date): Promise<void> {
      await db.update(mailQueue).set({ sentAt: now, lastError: null }).where(eq(mailQueue.id, id));
    },

    /** A failed attempt: tried again at `retryAt`, or given up (`retryAt` null) after the last attempt. */
    async markFailed(id: number, error: string, retryAt: Date | null, now: Date): Promise<void> {
      await db
        .update(mailQueue)
        .set(retryAt ? { lastError: error, nextAttemptAt: retryAt } : { lastError: error, failedAt: now })
        .where(eq(mailQueue.id, id));
    },
  };
}

export type MailQueue = ReturnType<typeof createMailQueue>;
