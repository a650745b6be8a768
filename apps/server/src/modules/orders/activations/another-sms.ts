import { buyingMessages } from '@simcode/contract';
import type { Activation } from '../../../db/schema';
import { fail } from '../../../lib/errors';
import { UpstreamError } from '../../../providers/sms/types';
import { upstreamFailure } from '../upstream-failure';
import { type ActivationDeps, callProvider, numbersChanged } from './deps';

/**
 * Asks for another SMS on a number that received its code and is still within its lifetime, at no charge
 * (protocol status 3): the order waits for an SMS beyond the ones it has. Where the provider has no such
 * call (5sim), every SMS of the order's lifetime comes through anyway, so only the wait is recorded.
 */
export async function requestAnotherSms(deps: ActivationDeps, order: Activation): Promise<void> {
  if (order.status !== 'received') throw fail('no_code_yet', buyingMessages.anotherSmsNeedsCode);
  if (order.expiresAt.getTime() <= deps.clock.now().getTime())
    throw fail('expired', buyingMessages.anotherSmsEnded);
  const provider = deps.providers.has(order.provider) ? deps.providers.get(order.provider) : undefined;
  if (provider?.requestAnotherSms) {
    try {
      await callProvider(deps, order, 'another_sms', (upstream) =>
        upstream.requestAnotherSms!(order.providerActivationId!),
      );
    } catch (error) {
      if (error instanceof UpstreamError) throw upstreamFailure(error);
      throw error;
    }
  }
  await deps.repository.recordRetryRequest(order.id, deps.clock.now());
  numbersChanged(deps, order.userId);
}
