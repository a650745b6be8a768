import { numberMessages } from '@simcode/contract';
import type { Activation } from '../../../db/schema';
import { fail, notFound } from '../../../lib/errors';
import { UpstreamError } from '../../../providers/sms/types';
import type { BuyerCancel } from '../lifecycle';
import { upstreamFailure } from '../upstream-failure';
import { type ActivationDeps, callProvider, pairOf } from './deps';
import { readFromUpstream } from './read-upstream';
import { refundActivation } from './refund';

/** Why an order cannot be cancelled now, as the error the buyer gets; nothing when it can. */
function assertCancellable(order: Activation, now: Date): void {
  switch (order.status) {
    case 'received':
    case 'completed':
      throw fail('code_arrived');
    case 'canceled':
    case 'expired':
    case 'failed':
      throw fail('already_canceled');
    case 'pending':
      throw fail('pending');
    case 'waiting':
      break;
  }
  if (now.getTime() >= order.expiresAt.getTime()) throw fail('expired');
  // How soon a cancel is allowed is the upstream's rule (two minutes in the SMS-Activate family): it answers.
}

/** The state an order ended up in after a cancel lost a race, as the error that names it. */
function lostRace(latest: Activation | undefined) {
  if (latest?.status === 'received' || latest?.status === 'completed') return fail('code_arrived');
  return fail('already_canceled');
}

/** The buyer cancels a number that got no SMS: cancelled upstream first, then refunded once. */
export async function cancelActivation(
  deps: ActivationDeps,
  userId: number,
  id: number,
  why: BuyerCancel = 'canceled_by_user',
): Promise<Activation> {
  const order = await deps.repository.findForUser(userId, id);
  if (!order) throw notFound();
  assertCancellable(order, deps.clock.now());
  const ban = why === 'number_used' ? deps.providers.get(order.provider).banActivation : undefined;
  try {
    await callProvider(deps, order, ban ? 'ban' : 'cancel', (provider) =>
      ban
        ? provider.banActivation!(order.providerActivationId!)
        : provider.cancelActivation(order.providerActivationId!),
    );
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    if (error.kind === 'cannot_cancel' || error.kind === 'not_found') {
      // The upstream knows better: a code may have arrived, or it ended the activation already.
      await readFromUpstream(deps, order, { to: 'canceled', reason: why });
      const latest = await deps.repository.findForUser(userId, id);
      if (latest?.status === 'canceled' || latest?.status === 'expired') throw fail('already_canceled');
      throw fail(
        'cannot_cancel',
        error.kind === 'cannot_cancel' ? numberMessages.cancelAfterCode : error.userMessage,
      );
    }
    if (error.kind === 'early_cancel_denied') throw fail('early_cancel');
    throw upstreamFailure(error);
  }
  const refunded = await refundActivation(deps, order, ['waiting'], 'canceled', why);
  if (refunded) {
    // A number the service refused as used is a number its provider should not have sold for it.
    if (why === 'number_used' && deps.providers.has(order.provider))
      deps.providers.health.recordDelivery(order.provider, pairOf(order), false);
    return refunded;
  }
  const latest = await deps.repository.findForUser(userId, id);
  // This cancel went through upstream, and a concurrent path (another cancel reading the upstream, the
  // sync) refunded the order first: the number is cancelled and the money back once, as the buyer asked.
  if (latest?.status === 'canceled' || latest?.status === 'expired') return latest;
  // Otherwise a code arrived first, and the code wins.
  throw lostRace(latest);
}
