import {
  centsToDollars,
  countryById,
  localizeEnglish,
  type PurchasedNumber,
  serviceDisplayName,
} from '@simcode/contract';
import type { Activation, ActivationMessage } from '../../../db/schema';
import type { RetryRequest } from './repository';

/** The API shape of an order: the spec's fields plus what the page shows (names, expiry, every SMS). */
export function presentNumber(
  order: Activation,
  messages: ActivationMessage[],
  retry?: RetryRequest,
): PurchasedNumber {
  const { countryName, serviceName } = displayNames(order);
  const codes = messages.filter((message) => message.code !== null);
  return {
    id: order.id,
    // Our own id: two providers may issue the same one, and theirs is nobody's business.
    number_id: order.providerActivationId === null ? null : String(order.id),
    country: order.countryId,
    country_name: countryName,
    service: order.service,
    service_name: serviceName,
    operator: order.operator,
    number: order.phoneNumber,
    price: centsToDollars(order.priceCents),
    created_at: order.createdAt.toISOString(),
    expires_at: order.expiresAt.toISOString(),
    status: order.status === 'failed' ? 'canceled' : order.status,
    status_reason: localizeEnglish(order.statusReason),
    code: codes.at(-1)?.code ?? null,
    sms: messages.map((message) => ({
      code: message.code,
      text: message.text,
      received_at: message.receivedAt.toISOString(),
    })),
    via_api: order.apiKeyId !== null,
    // Asked for another SMS and none came since: the number is waiting again (until its time is over).
    awaiting_another_sms:
      order.status === 'received' && retry !== undefined && messages.length <= retry.messagesBefore,
  };
}

/** Display names for the API; unknown ids (a service the catalogue lost) show as their code. */
export function displayNames(order: Pick<Activation, 'countryId' | 'service'>) {
  return {
    countryName: countryById(order.countryId)?.name ?? order.countryId,
    serviceName: serviceDisplayName(order.service),
  };
}
