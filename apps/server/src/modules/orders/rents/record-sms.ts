import { createHash } from 'node:crypto';
import { extractSmsCode } from '@simcode/contract';
import type { RentRow } from '../../../db/schema';
import { rentSmsIsLate } from '../lifecycle';
import { type RentDeps, rentsChanged } from './deps';
import { createRentalsRepository } from './repository';

export interface IncomingRentSms {
  from: string;
  text: string;
  /** The code, when the upstream extracted one. */
  code?: string | null;
  receivedAt: Date;
  /** Who pushed it (the webhook's source address); absent when our sync read it. */
  sourceAddress?: string;
}

function dedupeKeyOf(sms: IncomingRentSms): string {
  // The webhook and the sync give the upstream's own receive time, to the second; the text alone would merge
  // two identical notices, the time alone two SMS of the same second.
  const second = Math.floor(sms.receivedAt.getTime() / 1000);
  return createHash('sha256').update(`${sms.from}\n${sms.text}\n${second}`).digest('hex');
}

/**
 * Stores an SMS once; a new one tells the owner's open pages. One that arrived after the rent ended is kept
 * for audit only, marked late (the lifecycle's rule), decided under the rent's lock so a refund and an SMS
 * are ordered. Returns whether it became one of the rent's messages.
 */
export async function recordRentSms(
  deps: RentDeps,
  target: Pick<RentRow, 'id' | 'userId' | 'provider'>,
  sms: IncomingRentSms,
): Promise<boolean> {
  const { stored, late } = await deps.db.transaction(async (tx) => {
    const inTransaction = createRentalsRepository(tx);
    const rent = await inTransaction.lockById(target.id);
    const late = !rent || rentSmsIsLate(rent, sms.receivedAt);
    const stored = await inTransaction.addMessage(target.id, {
      sender: sms.from,
      text: sms.text,
      code: sms.code ?? extractSmsCode(sms.text),
      receivedAt: sms.receivedAt,
      dedupeKey: dedupeKeyOf(sms),
      sourceAddress: sms.sourceAddress,
      late,
    });
    return { stored, late };
  });
  if (stored && late)
    deps.log.warn(
      { rentId: target.id, provider: target.provider },
      'SMS for an ended rent kept for audit only',
    );
  if (!stored || late) return false;
  rentsChanged(deps, target);
  return true;
}

/** An SMS pushed by a provider (the rent's webhook, which names the provider); false when it names no rent. */
export async function recordPushedRentSms(
  deps: RentDeps,
  provider: string,
  providerRentId: string,
  sms: IncomingRentSms,
): Promise<boolean> {
  const found = await deps.repository.findByProviderRentId(provider, providerRentId);
  if (!found) return false;
  await recordRentSms(deps, found, sms);
  return true;
}
