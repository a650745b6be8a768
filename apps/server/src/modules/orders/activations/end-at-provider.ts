import type { Activation } from '../../../db/schema';
import { UpstreamError } from '../../../providers/sms/types';
import { type ActivationDeps, callProvider } from './deps';

/**
 * Ends an order's number at its provider before support refunds it, so nothing it receives later is paid
 * for or delivered: cancelled while it has no code, finished when it has one or the provider refuses the
 * cancel. Every call and its answer go to the order's history; what the provider says does not stop the
 * refund (the sync cancels a refunded order it still sees listed).
 */
export async function endActivationAtProvider(deps: ActivationDeps, order: Activation): Promise<void> {
  if (!order.providerActivationId || !deps.providers.has(order.provider)) return;
  const id = order.providerActivationId;
  const hasCode = order.status === 'received' || order.status === 'completed';
  try {
    if (!hasCode) {
      await callProvider(deps, order, 'cancel', (provider) => provider.cancelActivation(id));
      return;
    }
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.kind === 'not_found') return;
  }
  await callProvider(deps, order, 'finish', (provider) => provider.finishActivation(id)).catch(() => {});
}
