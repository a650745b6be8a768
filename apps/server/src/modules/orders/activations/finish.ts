import type { Activation } from '../../../db/schema';
import { type ActivationDeps, callProvider, numbersChanged } from './deps';

/**
 * Tells the provider we are done with a number that got its code (status 6, 5sim's finish), so it stops
 * counting against our channel limit there for the rest of its 20 minutes. Best effort: the order and
 * money do not depend on it, and the sync finishes a completed order it still sees listed.
 */
export async function finishUpstream(deps: ActivationDeps, order: Activation): Promise<boolean> {
  if (!order.providerActivationId || !deps.providers.has(order.provider)) return false;
  try {
    await callProvider(deps, order, 'finish', (provider) =>
      provider.finishActivation(order.providerActivationId!),
    );
    return true;
  } catch (error) {
    deps.log.warn(
      { err: error, orderId: order.id, provider: order.provider },
      'could not finish a completed activation upstream; the sync tries again',
    );
    return false;
  }
}

/** Marks an order with a code done (the user is done, or its code is final) and frees its number upstream. */
export async function completeActivation(
  deps: ActivationDeps,
  order: Activation,
): Promise<Activation | undefined> {
  const completed = await deps.repository.transition(order.id, ['received'], 'completed', deps.clock.now());
  if (!completed) return undefined;
  numbersChanged(deps, completed.userId);
  await finishUpstream(deps, completed);
  return completed;
}
