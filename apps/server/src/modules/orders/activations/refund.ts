import type { ActivationReason, RefusedReason } from '@simcode/contract';
import type { Transaction } from '../../../db/client';
import type { Activation, ActivationStatus } from '../../../db/schema';
import { creditRefund } from '../refund';
import { type ActivationDeps, pairOf } from './deps';
import { createActivationsRepository } from './repository';

/**
 * Refunds an order at most once: the status change and the ledger credit commit together, the status
 * update is conditional and the ledger key is unique, so racing paths cannot both pay out.
 */
export async function refundActivation(
  deps: ActivationDeps,
  order: Pick<Activation, 'id'>,
  from: readonly ActivationStatus[],
  to: 'canceled' | 'expired' | 'failed',
  reason: ActivationReason | RefusedReason,
  /** Runs in the refund's transaction once it is sure to happen (the console's audit entry). */
  alongside?: (tx: Transaction, refunded: Activation) => Promise<void>,
): Promise<Activation | undefined> {
  const refunded = await deps.db.transaction(async (tx) => {
    const changed = await createActivationsRepository(tx).transition(
      order.id,
      from,
      to,
      deps.clock.now(),
      reason,
    );
    if (!changed) return undefined;
    await creditRefund(tx, {
      userId: changed.userId,
      amountCents: changed.priceCents,
      of: 'activation',
      id: changed.id,
      note: reason,
    });
    await alongside?.(tx, changed);
    return changed;
  });
  if (refunded) {
    deps.events.publish({
      userId: refunded.userId,
      type: 'numbers',
      orderId: refunded.id,
      apiKeyId: refunded.apiKeyId,
    });
    deps.events.publish({ userId: refunded.userId, type: 'balance' });
    deps.refunds.inc({ kind: 'activation', provider: refunded.provider, outcome: to });
    // A number that ended without a code counts against its provider's delivery rate.
    if (to === 'expired' && deps.providers.has(refunded.provider))
      deps.providers.health.recordDelivery(refunded.provider, pairOf(refunded), false);
  }
  return refunded;
}
