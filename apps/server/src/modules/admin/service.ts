import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { ledgerEntries } from '../../db/schema';
import { badRequest, conflict, notFound } from '../../lib/errors';
import type { UserEventBus } from '../../lib/events';
import { applyLedgerChange, InsufficientBalanceError } from '../accounts/ledger';
import { createUsersRepository } from '../users/repository';

export const IDEMPOTENCY_KEY_REUSED = 'This idempotency key was already used for another request.';

/** Largest single adjustment, so a typo cannot mint a fortune. */
export const MAX_ADJUSTMENT_CENTS = 1_000_000;

export interface Adjustment {
  userId: number;
  amountCents: number;
  note: string;
  /** Who made it, for the ledger's record. */
  adminUsername: string;
  /** Repeating a request with the same key adjusts once. */
  idempotencyKey?: string;
}

/**
 * Support's corrections to a balance (compensation, a refund outside the automatic rules). They go through
 * the ledger like every other change, with the administrator's name in the note.
 */
export function createAdminService(db: Database, events: UserEventBus) {
  /**
   * A repeated key is a retry only when it repeats the request: the same key with another user, amount or
   * note is a mistake that must not pass as done (Stripe answers the same way).
   */
  async function requireSameAdjustment(idempotencyKey: string, userId: number, adjustment: Adjustment) {
    const [earlier] = await db
      .select({
        userId: ledgerEntries.userId,
        amountCents: ledgerEntries.amountCents,
        note: ledgerEntries.note,
      })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.idempotencyKey, idempotencyKey));
    const same =
      earlier?.userId === userId &&
      earlier.amountCents === adjustment.amountCents &&
      earlier.note === adjustment.note;
    if (!same) throw conflict(IDEMPOTENCY_KEY_REUSED, 'idempotency_key_reused');
  }

  return {
    async adjustBalance(adjustment: Adjustment): Promise<{ balanceAfterCents: number; applied: boolean }> {
      if (!Number.isSafeInteger(adjustment.amountCents) || adjustment.amountCents === 0) {
        throw badRequest('The amount must be a non-zero number of cents.');
      }
      if (Math.abs(adjustment.amountCents) > MAX_ADJUSTMENT_CENTS)
        throw badRequest('The amount is larger than one adjustment may be.');
      const user = await createUsersRepository(db).findById(adjustment.userId);
      if (!user) throw notFound();
      const idempotencyKey = `adjustment:${adjustment.idempotencyKey ?? randomUUID()}`;
      try {
        const result = await db.transaction((tx) =>
          applyLedgerChange(tx, {
            userId: user.id,
            amountCents: adjustment.amountCents,
            kind: 'adjustment',
            referenceType: 'admin',
            referenceId: adjustment.adminUsername,
            idempotencyKey,
            note: adjustment.note,
          }),
        );
        if (!result.applied) await requireSameAdjustment(idempotencyKey, user.id, adjustment);
        events.publish({ userId: user.id, type: 'balance' });
        return result;
      } catch (error) {
        if (error instanceof InsufficientBalanceError) throw badRequest('The balance cannot go below zero.');
        throw error;
      }
    },
  };
}
