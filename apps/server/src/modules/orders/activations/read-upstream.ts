import type { Activation } from '../../../db/schema';
import type { BuyerCancel } from '../lifecycle';
import type { ActivationDeps } from './deps';
import { recordSms } from './record-sms';
import { refundActivation } from './refund';

/** How an order the upstream reports cancelled ends here, and why. */
type CancelledUpstream = { to: 'expired' | 'canceled'; reason: 'withdrawn' | BuyerCancel };

/**
 * Asks the upstream about one order and applies what it says: its SMS stored, a withdrawn number refunded.
 * Used by the sync for an order that left the upstream's list early, and after a refused cancel, where
 * "cancelled upstream" is the buyer's own cancel (a concurrent one may have reached the upstream first).
 */
export async function readFromUpstream(
  deps: ActivationDeps,
  order: Activation,
  whenCancelled: CancelledUpstream = { to: 'expired', reason: 'withdrawn' },
): Promise<void> {
  if (!order.providerActivationId) return;
  const { clock } = deps;
  try {
    const provider = deps.providers.get(order.provider);
    const state = await provider.getActivationState(order.providerActivationId);
    if (state.kind === 'code') {
      // Every SMS with its full text where the provider lists them (a second code after "another SMS"
      // included); the state's own code otherwise, or when the list cannot be read.
      const messages = await provider.listActivationMessages?.(order.providerActivationId).catch(() => []);
      const listed = (messages ?? []).filter((message) => message.code);
      for (const message of listed)
        await recordSms(deps, order, {
          code: message.code!,
          text: message.text,
          sender: message.from,
          receivedAt: message.receivedAt ?? clock.now(),
        });
      if (!listed.some((message) => message.code === state.code))
        await recordSms(deps, order, {
          code: state.code,
          text: state.text ?? state.code,
          receivedAt: clock.now(),
        });
    } else if (state.kind === 'waiting_retry')
      await recordSms(deps, order, { code: state.lastCode, text: state.lastCode, receivedAt: clock.now() });
    else if (state.kind === 'cancelled')
      await refundActivation(deps, order, ['waiting', 'pending'], whenCancelled.to, whenCancelled.reason);
  } catch (error) {
    deps.log.warn({ err: error, orderId: order.id }, 'could not read an activation from the upstream');
  }
}
