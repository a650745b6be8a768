import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import type { Payment } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import { applyLedgerChange } from '../accounts/ledger';
import { createPaymentsRepository } from './repository';

export interface CreditRequest {
  creditedCents: number;
  /** The provider's status that made it credit, and its payment id (the ledger key's last part). */
  providerStatus: string;
  providerPaymentId: string;
  now: Date;
}

/**
 * Puts a payment on its owner's balance, at most once: the conditional status update decides among every
 * webhook and poll racing for it, and the ledger key `topup:<provider>:<provider payment id>` backs it up.
 * Invoices and deposits to a deposit address both credit here. Undefined when it was credited before.
 */
export function createCrediting({
  db,
  events,
  log,
}: {
  db: Database;
  events: UserEventBus;
  log: FastifyBaseLogger;
}) {
  return async function credit(payment: Payment, request: CreditRequest): Promise<Payment | undefined> {
    const { creditedCents, providerStatus, now } = request;
    const credited = await db.transaction(async (tx) => {
      const changed = await createPaymentsRepository(tx).markCompleted(payment.id, {
        creditedCents,
        providerStatus,
        now,
      });
      if (!changed) return undefined;
      await applyLedgerChange(tx, {
        userId: changed.userId,
        amountCents: creditedCents,
        kind: 'topup',
        referenceType: 'payment',
        referenceId: String(changed.id),
        // One credit per payment at one provider: ids of two providers may look alike.
        idempotencyKey: `topup:${payment.provider}:${request.providerPaymentId}`,
        note: `Top-up ${changed.orderId} (${providerStatus})`,
      });
      return changed;
    });
    if (credited) {
      events.publish({ userId: credited.userId, type: 'balance' });
      log.info({ orderId: credited.orderId, creditedCents, providerStatus }, 'top-up credited');
    }
    return credited;
  };
}
