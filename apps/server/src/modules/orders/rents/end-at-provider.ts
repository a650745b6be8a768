import type { RentRow } from '../../../db/schema';
import { UpstreamError } from '../../../providers/sms/types';
import { callRentProvider, type RentDeps } from './deps';

/**
 * Ends a rent at its provider before support refunds it, so it stops receiving (and costing) for the rest
 * of its term: cancelled while the provider allows it, finished otherwise. Every call and its answer go to
 * the rent's history; what the provider says does not stop the refund.
 */
export async function endRentAtProvider(deps: RentDeps, rent: RentRow): Promise<void> {
  if (!rent.providerRentId || !deps.providers.has(rent.provider)) return;
  const id = rent.providerRentId;
  try {
    await callRentProvider(deps, rent, 'cancel', (provider) => provider.cancelRent(id));
    return;
  } catch (error) {
    if (!(error instanceof UpstreamError) || error.kind === 'not_found') return;
  }
  await callRentProvider(deps, rent, 'finish', (provider) => provider.finishRent(id)).catch(() => {});
}
