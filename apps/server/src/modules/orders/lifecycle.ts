import { type ActivationStatus, liveRentStatuses, type RentRow, type RentRowStatus } from '../../db/schema';

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
