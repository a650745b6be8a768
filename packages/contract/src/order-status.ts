import { NUMBER_STATUS, type NumberStatus, numberMessages } from './dashboard';

/**
 * The rules of a one-time number's status that both the server and the web app apply: which statuses still
 * change, the protocol status string each answers, and why a cancel cannot succeed.
 */

/** A number's status as the server keeps it: the public ones, and `failed` (never issued, refunded). */
export type OrderStatus = NumberStatus | 'failed';

/** Still running: being issued, waiting for a code, or holding one that another SMS may replace. */
export const liveNumberStatuses = [
  'pending',
  'waiting',
  'received',
] as const satisfies readonly NumberStatus[];

/** Whether the number's status can still change: a live number is polled, an ended one is final. */
export function isLiveNumber(order: { status: OrderStatus }): boolean {
  return (liveNumberStatuses as readonly OrderStatus[]).includes(order.status);
}

/**
 * What the status call answers for a number (spec section 4): `STATUS_OK:<code>` once a code arrived
 * (`STATUS_OK` without one), `STATUS_WAIT_CODE` while waiting, `STATUS_CANCEL` once it is over without one.
 */
export function numberStatusOf(order: { status: OrderStatus; code: string | null }): {
  status: string;
  code: string | null;
} {
  switch (order.status) {
    case 'received':
    case 'completed':
      return {
        status: order.code ? `${NUMBER_STATUS.okPrefix}${order.code}` : NUMBER_STATUS.okPrefix.slice(0, -1),
        code: order.code,
      };
    case 'pending':
    case 'waiting':
      return { status: NUMBER_STATUS.waiting, code: null };
    default:
      return { status: NUMBER_STATUS.canceled, code: null };
  }
}

/** Why a cancel cannot succeed; each is also the `code` of the server's 409 answer. */
export type CancelBlock = 'code_arrived' | 'already_canceled' | 'pending' | 'expired' | 'early_cancel';

/**
 * Why cancelling the number cannot succeed, or null when it can. A code seen before the status caught up,
 * or a cancel the status call already reports (`canceledUpstream`), count as what they mean. How soon a
 * cancel is allowed is the supplier's rule: the server says when its window opens (`cancel_available_at`),
 * and until then (`earlyCancel`) a cancel would only be refused.
 */
export function cancelBlockOf(
  order: { status: OrderStatus; code?: string | null },
  when: { expired: boolean; canceledUpstream?: boolean; earlyCancel?: boolean },
): CancelBlock | null {
  if (order.status === 'received' || order.status === 'completed' || order.code) return 'code_arrived';
  if (
    order.status === 'canceled' ||
    order.status === 'expired' ||
    order.status === 'failed' ||
    when.canceledUpstream
  )
    return 'already_canceled';
  if (order.status === 'pending') return 'pending';
  if (when.expired) return 'expired';
  if (when.earlyCancel) return 'early_cancel';
  return null;
}

/** Whole seconds until the supplier allows a cancel (0 once it does, or when it allows one at once). */
export function secondsUntilCancel(order: { cancel_available_at?: string | null }, nowMs: number): number {
  if (!order.cancel_available_at) return 0;
  return Math.max(0, Math.ceil((new Date(order.cancel_available_at).getTime() - nowMs) / 1000));
}

/** The sentence a blocked cancel is refused with, in the current language. */
export function cancelBlockText(block: CancelBlock): string {
  switch (block) {
    case 'code_arrived':
      return numberMessages.cancelAfterCode;
    case 'already_canceled':
      return numberMessages.alreadyCanceled;
    case 'pending':
      return numberMessages.stillIssuing;
    case 'expired':
      return numberMessages.cancelAfterExpiry;
    case 'early_cancel':
      return numberMessages.cancelTooEarly;
  }
}
