import type { Activation } from '../../../db/schema';
import { activationTakesSms } from '../lifecycle';
import { type ActivationDeps, pairOf } from './deps';
import { createActivationsRepository } from './repository';

export interface IncomingSms {
  code: string | null;
  text: string;
  receivedAt: Date;
  /** Who sent it (a name or a number), where the upstream says. */
  sender?: string;
  /** Who pushed it (the webhook's source address); absent when our sync read it. */
  sourceAddress?: string;
}

function dedupeKeyOf(sms: IncomingSms): string {
  // The webhook and the sync report the same SMS with different timestamps, and the sync sometimes with
  // the code alone as its text: the code identifies it (another SMS brings another code).
  return sms.code ? `code:${sms.code}` : `text:${sms.text}`;
}

/**
 * Stores an SMS for an order; a new one makes a waiting order `received` (not refundable any more) in the
 * same transaction, so a crash cannot leave a stored SMS on an order that still looks refundable. An SMS
 * for an order that has ended is kept for audit only, marked late (the lifecycle's rule). Returns whether it
 * became one of the order's messages.
 */
export async function recordSms(deps: ActivationDeps, order: Activation, sms: IncomingSms): Promise<boolean> {
  const { inserted, late, received } = await deps.db.transaction(async (tx) => {
    const inTransaction = createActivationsRepository(tx);
    // A code arriving while a cancel is in flight wins if it is first: the row lock orders this and the
    // cancel's refund, and each needs the order waiting.
    const late = !activationTakesSms(await inTransaction.lockStatus(order.id));
    const inserted = await inTransaction.addMessage(order.id, { ...sms, dedupeKey: dedupeKeyOf(sms), late });
    const received =
      inserted && !late
        ? await inTransaction.transition(order.id, ['waiting'], 'received', deps.clock.now())
        : undefined;
    return { inserted, late, received };
  });
  if (received && deps.providers.has(order.provider)) {
    deps.providers.health.recordDelivery(
      order.provider,
      pairOf(order),
      true,
      deps.clock.now().getTime() - order.createdAt.getTime(),
    );
  }
  if (inserted && late) {
    deps.log.warn(
      { orderId: order.id, provider: order.provider },
      'SMS for a closed order kept for audit only',
    );
  }
  if (!inserted || late) return false;
  deps.events.publish({
    userId: order.userId,
    type: 'numbers',
    orderId: order.id,
    code: sms.code,
    apiKeyId: order.apiKeyId,
  });
  return true;
}

/** An SMS pushed by a provider (webhook) for one of our activations there; false when it names none. */
export async function recordPushedSms(
  deps: ActivationDeps,
  provider: string,
  providerActivationId: string,
  sms: IncomingSms,
): Promise<boolean> {
  const order = await deps.repository.findByProviderActivationId(provider, providerActivationId);
  if (!order) return false;
  await recordSms(deps, order, sms);
  return true;
}
