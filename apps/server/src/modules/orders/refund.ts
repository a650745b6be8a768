import type { Executor } from '../../db/client';
import { applyLedgerChange } from '../accounts/ledger';

/** What a refund returns money for, and the name each has in the ledger's keys. */
const REFUND_KEYS = { activation: 'activation', rent: 'rent', rent_renewal: 'rent-renewal' } as const;

/**
 * The ledger credit of a refund, inside the transaction that ends what it pays back. Its key is unique per
 * thing refunded, so a refund happens at most once whatever races to make it (the database enforces it).
 */
export function creditRefund(
  tx: Executor,
  refund: { userId: number; amountCents: number; of: keyof typeof REFUND_KEYS; id: number; note?: string },
) {
  return applyLedgerChange(tx, {
    userId: refund.userId,
    amountCents: refund.amountCents,
    kind: 'refund',
    referenceType: refund.of,
    referenceId: String(refund.id),
    idempotencyKey: `refund:${REFUND_KEYS[refund.of]}:${refund.id}`,
    note: refund.note,
  });
}
