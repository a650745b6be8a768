import {
  centsToDollars,
  countryById,
  type NumberStatus,
  orderReasonText,
  type PurchasedNumber,
  serviceDisplayName,
} from '@simcode/contract';
import type { Activation, ActivationMessage } from '../../../db/schema';
import { activationRefundReason } from '../lifecycle';
import type { RetryRequest } from './repository';

/**
 * The API shape of an order: the spec's fields plus what the page shows (names, expiry, every SMS). With its
 * provider's no-cancel window (`earlyCancelMs`), a number without a code says when a cancel opens.
 */
export function presentNumber(
  order: Activation,
  messages: ActivationMessage[],
  { retry, earlyCancelMs = 0 }: { retry?: RetryRequest; earlyCancelMs?: number } = {},
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
    status: wireNumberStatus(order),
    status_reason: orderReasonText('activation', order.statusReason),
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
    cancel_available_at:
      earlyCancelMs > 0 && (order.status === 'pending' || order.status === 'waiting')
        ? new Date(order.createdAt.getTime() + earlyCancelMs).toISOString()
        : null,
  };
}

/**
 * The status the buyer sees. An order refunded by support reads 'expired' ("Refunded"), like every refund the
 * buyer did not ask for, so the page, its "Refunded" filter and the money pages agree; one never issued
 * ('failed') reads 'canceled'.
 */
export function wireNumberStatus(order: Pick<Activation, 'status' | 'statusReason'>): NumberStatus {
  if (order.status === 'failed') return 'canceled';
  if (activationRefundReason(order.status, order.statusReason) === 'refunded_by_support') return 'expired';
  return order.status;
}

/** Display names for the API; unknown ids (a service the catalogue lost) show as their code. */
export function displayNames(order: Pick<Activation, 'countryId' | 'service'>) {
  return {
    countryName: countryById(order.countryId)?.name ?? order.countryId,
    serviceName: serviceDisplayName(order.service),
  };
}
