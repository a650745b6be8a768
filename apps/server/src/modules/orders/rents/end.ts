import type { RentReason } from '@simcode/contract';
import { liveRentStatuses, type RentRow } from '../../../db/schema';
import { isLiveRent } from '../lifecycle';
import { callRentProvider, type RentDeps, rentsChanged } from './deps';
import { refundRent } from './refund';
import { createRentalsRepository } from './repository';

/**
 * Marks a live rent expired once its end date has come, unless a renewal is still being confirmed; with a
 * `reason`, at once (the provider or the buyer ended it early), and the provider is known to be done with it.
 */
export async function expireRent(
  deps: RentDeps,
  rentId: number,
  reason?: RentReason,
): Promise<RentRow | undefined> {
  const now = deps.clock.now();
  const expired = await deps.db.transaction(async (tx) => {
    const inTransaction = createRentalsRepository(tx);
    const locked = await inTransaction.lockById(rentId);
    if (!locked || !isLiveRent(locked.status)) return undefined;
    if (reason === undefined && (!locked.endsAt || locked.endsAt.getTime() > now.getTime())) return undefined;
    if ((await inTransaction.renewalsOf(rentId, 'pending')).length > 0) return undefined;
    return inTransaction.update(rentId, {
      status: 'expired',
      ...(reason !== undefined ? { statusReason: reason, upstreamClosedAt: now } : {}),
      updatedAt: now,
    });
  });
  if (expired) rentsChanged(deps, expired);
  return expired;
}

/** The buyer is done with a live rent before its end date: finished at the provider, then ended here. */
export async function finishRentEarly(
  deps: RentDeps,
  rent: RentRow,
  reason: RentReason,
): Promise<RentRow | undefined> {
  await callRentProvider(deps, rent, 'finish', (provider) => provider.finishRent(rent.providerRentId!));
  return expireRent(deps, rent.id, reason);
}

/**
 * What the provider says of a rent's end, applied once: ended without SMS (cancelled, or revoked before
 * any) is refunded whole; ended with SMS, or at its time, expires.
 */
export async function applyEndState(
  deps: RentDeps,
  target: RentRow,
  kind: 'waiting' | 'cancelled' | 'finished' | 'revoked',
  cancelledReason: RentReason,
): Promise<void> {
  if (kind === 'waiting' || !isLiveRent(target.status)) return;
  const hasSms = (await deps.repository.messageCount(target.id)) > 0;
  if (kind === 'cancelled' || (kind === 'revoked' && !hasSms)) {
    await refundRent(deps, target.id, {
      of: 'rent',
      from: liveRentStatuses,
      to: 'canceled',
      reason: cancelledReason,
    });
    return;
  }
  const endedOnTime = target.endsAt !== null && target.endsAt.getTime() <= deps.clock.now().getTime();
  if (endedOnTime) await expireRent(deps, target.id);
  else {
    deps.log.warn({ rentId: target.id, kind }, 'the upstream ended a rent before its end date');
    await expireRent(deps, target.id, 'ended_early');
  }
}
