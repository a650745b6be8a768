import { activationWebhook, inProviderZone, rentWebhook } from '@simcode/sms-activate-protocol';
import type { UpstreamSmsEvent } from '../types';

/** Activation webhooks (account-wide URL) and rent webhooks (per-rent `url`), docs/protocols.md A.7. */
export function parseSmsActivateWebhook(body: unknown, timeZone = 'UTC'): UpstreamSmsEvent | null {
  let value = body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    try {
      value = JSON.parse(body.toString());
    } catch {
      return null;
    }
  }
  const rent = rentWebhook.safeParse(value);
  if (rent.success) {
    const { rentId, sms } = rent.data;
    return {
      type: 'rent',
      rentId,
      from: sms.phoneFrom,
      text: sms.text,
      receivedAt: inProviderZone(sms.date, timeZone),
    };
  }
  const activation = activationWebhook.safeParse(value);
  if (activation.success) {
    const { activationId, code, text, phoneFrom, receivedAt } = activation.data;
    const trimmedCode = code?.trim() || null;
    // A call verification has no text: the code stands for it.
    return {
      type: 'activation',
      activationId,
      code: trimmedCode,
      text: text ?? trimmedCode ?? '',
      from: phoneFrom?.trim() || undefined,
      receivedAt: inProviderZone(receivedAt, timeZone),
    };
  }
  return null;
}
