import type { RefundReason } from '@simcode/contract';
import {
  type ActivationStatus,
  liveRentStatuses,
  type RenewalStatus,
  type RentRow,
  type RentRowStatus,
} from '../../db/schema';

/**
 * The order lifecycle's rules, stated once. Every path (web, SMS-Activate protocol, JSON API, MCP, console,
 * jobs, webhooks, renewals) reaches orders through the operations of this folder, which apply them.
 *
 * Nothing after the end: an SMS that arrives once an order or rent has ended (refunded, cancelled,
 * completed, expired) is stored for audit only, marked late. It never becomes a code, changes no status or
 * money, and no channel shows or sends it: every read of an order's messages, the customer webhooks' and
 * the code mail's triggers, and the live events skip late ones. The console shows and counts them.
 */

/** A one-time order takes SMS while its number waits for a code or has one. */
export function activationTakesSms(status: ActivationStatus | undefined): boolean {
  return status === 'waiting' || status === 'received';
}

export function isLiveRent(status: RentRowStatus): boolean {
  return (liveRentStatuses as readonly RentRowStatus[]).includes(status);
}

/**
 * Whether an SMS received at `receivedAt` came after the rent ended. A live rent takes it; an expired one
 * takes what arrived before its end (the sync may read it later), the end being its end date or, when the
 * provider ended it early, that moment; a refunded or failed rent takes nothing more.
 */
export function rentSmsIsLate(
  rent: Pick<RentRow, 'status' | 'endsAt' | 'upstreamClosedAt'>,
  receivedAt: Date,
): boolean {
  if (isLiveRent(rent.status)) return false;
  if (rent.status !== 'expired' || rent.endsAt === null) return true;
  const endedAtMs = Math.min(
    rent.endsAt.getTime(),
    rent.upstreamClosedAt?.getTime() ?? Number.POSITIVE_INFINITY,
  );
  return receivedAt.getTime() > endedAtMs;
}

/**
 * Why a one-time order's money came back, the one answer every page, the CSV and the console give. A support
 * refund ends the order as canceled with support's reason: it reads "Refunded by support", never "Canceled by
 * you".
 */
export function activationRefundReason(
  status: ActivationStatus,
  statusReason: string | null,
): RefundReason | null {
  if (status === 'canceled') {
    if (statusReason === 'refunded_by_support' || statusReason === 'number_used') return statusReason;
    return 'canceled_by_you';
  }
  if (status === 'expired') return statusReason === 'withdrawn' ? 'provider_failure' : 'no_code';
  if (status === 'failed') return 'provider_failure';
  return null;
}

/** Why a rent's money came back (see activationRefundReason). */
export function rentRefundReason(status: RentRowStatus, statusReason: string | null): RefundReason | null {
  if (status === 'canceled' && statusReason === 'canceled_by_user') return 'canceled_by_you';
  if (status === 'canceled' && statusReason === 'refunded_by_support') return 'refunded_by_support';
  if (status === 'canceled' || status === 'failed') return 'provider_failure';
  return null;
}

/** A renewal's refund: its own failure, else whatever refunded the rent it extended. */
export function renewalRefundReason(renewal: RenewalStatus, rent: RefundReason | null): RefundReason | null {
  return renewal === 'failed' ? 'provider_failure' : rent;
}

/**
 * Why the buyer ends a number that got no SMS: a plain cancel, or the service it was bought for refuses it as
 * already used, which is the supplier's ban where it has one (5sim) and its cancel elsewhere (status 8 in the
 * SMS-Activate family), within the window the supplier refunds it in.
 */
export type BuyerCancel = 'canceled_by_user' | 'number_used';
