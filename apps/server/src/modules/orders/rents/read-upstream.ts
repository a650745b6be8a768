import type { RentReason } from '@simcode/contract';
import type { RentRow } from '../../../db/schema';
import type { RentMessage } from '../../../providers/sms/types';
import type { RentDeps } from './deps';
import { applyEndState } from './end';
import { type IncomingRentSms, recordRentSms } from './record-sms';

function toIncoming(message: RentMessage): IncomingRentSms {
  return {
    from: message.from,
    text: message.text,
    code: message.code ?? null,
    receivedAt: message.receivedAt,
  };
}

/**
 * Reads one rent from the upstream and applies what it says: new SMS stored (further pages while
 * `mayReadMore` allows), a rent the upstream ended settled. Returns false when the upstream could not be read.
 */
export async function readRentFromUpstream(
  deps: RentDeps,
  target: RentRow,
  mayReadMore: () => boolean = () => false,
  cancelledReason: RentReason = 'withdrawn',
): Promise<boolean> {
  if (!target.providerRentId) return true;
  try {
    for (let page = 0; ; page += 1) {
      const state = await deps.providers.rentsOf(target.provider).getRentState(target.providerRentId, page);
      if (state.kind !== 'messages') {
        await applyEndState(deps, target, state.kind, cancelledReason);
        return true;
      }
      let fresh = 0;
      for (const message of state.messages)
        if (await recordRentSms(deps, target, toIncoming(message))) fresh += 1;
      // Pages run newest first: a page with nothing new means the older ones are stored already.
      const stored = await deps.repository.messageCount(target.id);
      if (fresh === 0 || state.messages.length === 0 || stored >= state.total || !mayReadMore()) return true;
    }
  } catch (error) {
    deps.log.warn({ err: error, rentId: target.id }, 'could not read a rent from the upstream');
    return false;
  }
}
