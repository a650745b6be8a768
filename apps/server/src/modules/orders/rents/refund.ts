import type { RefusedReason, RentReason } from '@simcode/contract';
import type { Transaction } from '../../../db/client';
import type { RentRow, RentRowStatus } from '../../../db/schema';
import { lockAccount } from '../../accounts/ledger';
import { creditRefund } from '../refund';
import { type RentDeps, rentsChanged } from './deps';
import { createRentalsRepository } from './repository';

/** What a refund returns: the whole rent (its first period and every standing renewal), or one renewal. */
export type RefundChange =
  | {
      of: 'rent';
      from: readonly RentRowStatus[];
      to: 'canceled' | 'failed';
      reason: RentReason | RefusedReason;
    }
  | { of: 'renewal'; renewalId: number; to: 'failed' | 'refunded' };

/**
 * Returns money at most once: the status change and the ledger credits commit together, the status
 * updates are conditional and every ledger key is unique, so racing paths (cancel, the upstream ending
 * the rent, a renewal's failure, the reconciler, support) cannot both pay out.
 */
export async function refundRent(
  deps: RentDeps,
  rentId: number,
  change: RefundChange,
  /** Runs in the refund's transaction once it is sure to happen (the console's audit entry). */
  alongside?: (tx: Transaction, refunded: RentRow) => Promise<void>,
): Promise<RentRow | undefined> {
  const now = deps.clock.now();
  const refunded = await deps.db.transaction(async (tx) => {
    const inTransaction = createRentalsRepository(tx);
    const rent = await inTransaction.findById(rentId);
    if (!rent) return undefined;
    await lockAccount(tx, rent.userId);
    if (change.of === 'renewal') {
      const renewal = await inTransaction.transitionRenewal(change.renewalId, 'pending', change.to, now);
      if (!renewal) return undefined;
      await creditRefund(tx, {
        userId: rent.userId,
        amountCents: renewal.priceCents,
        of: 'rent_renewal',
        id: renewal.id,
      });
      return rent;
    }
    const ended = await inTransaction.transition(rentId, change.from, change.to, now, change.reason);
    if (!ended) return undefined;
    await creditRefund(tx, {
      userId: rent.userId,
      amountCents: ended.priceCents,
      of: 'rent',
      id: ended.id,
      note: change.reason,
    });
    // The upstream refunds a cancelled rent whole, renewals included; so do we. A renewal still pending
    // is settled on its own path, which finds the rent ended and refunds it.
    for (const renewal of await inTransaction.renewalsOf(rentId, 'done')) {
      await inTransaction.transitionRenewal(renewal.id, 'done', 'refunded', now);
      await creditRefund(tx, {
        userId: rent.userId,
        amountCents: renewal.priceCents,
        of: 'rent_renewal',
        id: renewal.id,
        note: change.reason,
      });
    }
    await alongside?.(tx, ended);
    return ended;
  });
  if (refunded) {
    rentsChanged(deps, refunded, true);
    deps.refunds.inc({ kind: change.of, provider: refunded.provider, outcome: change.to });
  }
  return refunded;
}
