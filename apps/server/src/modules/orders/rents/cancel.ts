import { RENT_CANCEL_WINDOW_MS, rentMessages } from '@simcode/contract';
import { liveRentStatuses, type RentRow } from '../../../db/schema';
import { fail, notFound } from '../../../lib/errors';
import { UpstreamError } from '../../../providers/sms/types';
import { isLiveRent } from '../lifecycle';
import { upstreamFailure } from '../upstream-failure';
import { callRentProvider, type RentDeps } from './deps';
import { readRentFromUpstream } from './read-upstream';
import { refundRent } from './refund';

/** A user's rent by its public order id, or 404. */
export async function findOwnedRent(deps: RentDeps, userId: number, orderId: string): Promise<RentRow> {
  const found = await deps.repository.findByOrderIdForUser(userId, orderId);
  if (!found) throw notFound();
  return found;
}

export function assertLive(rent: RentRow): void {
  if (rent.status === 'pending') throw fail('pending', rentMessages.stillIssuing);
  if (!isLiveRent(rent.status)) throw fail('ended');
}

async function assertCancellable(deps: RentDeps, rent: RentRow, now: Date): Promise<void> {
  assertLive(rent);
  if (now.getTime() - rent.createdAt.getTime() > RENT_CANCEL_WINDOW_MS) throw fail('cancel_window_over');
  if ((await deps.repository.messageCount(rent.id)) > 0) throw fail('sms_arrived');
  if ((await deps.repository.renewalsOf(rent.id, 'pending')).length > 0) throw fail('renewal_pending');
}

/** The buyer cancels a rent within its window and before any SMS: cancelled upstream, then refunded whole once. */
export async function cancelRent(deps: RentDeps, userId: number, orderId: string): Promise<RentRow> {
  const found = await findOwnedRent(deps, userId, orderId);
  await assertCancellable(deps, found, deps.clock.now());
  try {
    await callRentProvider(deps, found, 'cancel', (provider) => provider.cancelRent(found.providerRentId!));
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    if (error.kind === 'cannot_cancel' || error.kind === 'not_found') {
      // The upstream knows better: an SMS may have arrived, or the rent ended there already.
      await readRentFromUpstream(deps, found, undefined, 'canceled_by_user');
      const latest = await deps.repository.findById(found.id);
      if (latest && !isLiveRent(latest.status)) throw fail('ended');
      throw fail('cannot_cancel', rentMessages.cannotCancel);
    }
    throw upstreamFailure(error);
  }
  const refunded = await refundRent(deps, found.id, {
    of: 'rent',
    from: liveRentStatuses,
    to: 'canceled',
    reason: 'canceled_by_user',
  });
  if (refunded) return refunded;
  // Another path refunded it first: a second cancel that learnt from the upstream what this one did
  // (this one stands), or something that ended it otherwise.
  const latest = await deps.repository.findById(found.id);
  if (latest?.status === 'canceled') return latest;
  throw fail('ended');
}
