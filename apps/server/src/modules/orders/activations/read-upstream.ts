import type { Activation } from '../../../db/schema';
import { type ActivationDeps, activationReasons } from './deps';
import { recordSms } from './record-sms';
import { refundActivation } from './refund';

/**
 * Asks the upstream about one order and applies what it says: its SMS stored, a withdrawn number refunded.
 * Used after a refused cancel and by the sync for an order that left the upstream's list early.
 */
export async function readFromUpstream(deps: ActivationDeps, order: Activation): Promise<void> {
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
      await refundActivation(deps, order, ['waiting', 'pending'], 'expired', activationReasons.withdrawn);
  } catch (error) {
    deps.log.warn({ err: error, orderId: order.id }, 'could not read an activation from the upstream');
  }
}
