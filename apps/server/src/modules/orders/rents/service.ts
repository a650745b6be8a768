import type { RentReason } from '@simcode/contract';
import type { Transaction } from '../../../db/client';
import type { RentRenewal, RentRow, RentRowStatus } from '../../../db/schema';
import type { KeySpend } from '../hold';
import { cancelRent, findOwnedRent } from './cancel';
import type { RentDeps } from './deps';
import { expireRent, finishRentEarly } from './end';
import { endRentAtProvider } from './end-at-provider';
import { createRentQueries } from './queries';
import { readRentFromUpstream } from './read-upstream';
import { type IncomingRentSms, recordPushedRentSms, recordRentSms } from './record-sms';
import { type RefundChange, refundRent } from './refund';
import { autoRenewRent, renewalPrice, renewRent, setAutoRenew, settleRenewal } from './renewals';
import { type RentRequest, rentNumber } from './rent';

/**
 * Rents: the operations every path uses (web, SMS-Activate protocol, JSON API, MCP, console, jobs,
 * webhooks, renewals), each in a file of its own, over the dependencies the composition root built.
 */
export function createRentalService(deps: RentDeps) {
  return {
    ...createRentQueries(deps),
    catalog: deps.catalog,
    rent: (userId: number, request: RentRequest, through?: KeySpend) =>
      rentNumber(deps, userId, request, through),
    /** A new rent of the same country, service and period, at today's price. */
    async repeat(userId: number, orderId: string): Promise<RentRow> {
      const found = await findOwnedRent(deps, userId, orderId);
      return rentNumber(deps, userId, {
        countryId: found.countryId,
        serviceKey: found.serviceKey,
        period: {
          unit: found.periodUnit,
          count: found.periodCount,
          hours: found.hours,
          renewable: found.periodUnit !== 'hour',
        },
        autoRenew: found.autoRenew,
      });
    },
    cancel: (userId: number, orderId: string) => cancelRent(deps, userId, orderId),
    refund: (
      rentId: number,
      change: RefundChange,
      alongside?: (tx: Transaction, refunded: RentRow) => Promise<void>,
    ) => refundRent(deps, rentId, change, alongside),
    /**
     * Support refunds a rent whole: ended at the provider first (so it stops receiving for the rest of its
     * term), then the refund, once, with `alongside` (the audit entry) in its transaction.
     */
    async refundBySupport(
      rent: RentRow,
      from: readonly RentRowStatus[],
      alongside?: (tx: Transaction, refunded: RentRow) => Promise<void>,
    ) {
      await endRentAtProvider(deps, rent);
      return refundRent(
        deps,
        rent.id,
        { of: 'rent', from, to: 'canceled', reason: 'refunded_by_support' },
        alongside,
      );
    },
    /** The calls made to providers about a rent, with their answers. */
    historyOf: (id: number) => deps.history.of('rent', id),
    expire: (rentId: number, reason?: RentReason) => expireRent(deps, rentId, reason),
    /** The buyer is done before the end date (the protocol's setRentStatus 1). */
    finishEarly: (rent: RentRow) => finishRentEarly(deps, rent, 'finished_by_buyer'),
    renewalPrice: (userId: number, orderId: string, hours: number) =>
      renewalPrice(deps, userId, orderId, hours),
    renew: (userId: number, orderId: string, hours: number, through?: KeySpend) =>
      renewRent(deps, userId, orderId, hours, through),
    autoRenew: (due: RentRow) => autoRenewRent(deps, due),
    setAutoRenew: (userId: number, orderId: string, enabled: boolean) =>
      setAutoRenew(deps, userId, orderId, enabled),
    settleRenewal: (renewal: RentRenewal, endsAt: Date) => settleRenewal(deps, renewal, endsAt),
    recordSms: (rent: RentRow, sms: IncomingRentSms) => recordRentSms(deps, rent, sms),
    recordPushedSms: (provider: string, providerRentId: string, sms: IncomingRentSms) =>
      recordPushedRentSms(deps, provider, providerRentId, sms),
    readFromUpstream: (rent: RentRow, mayReadMore?: () => boolean) =>
      readRentFromUpstream(deps, rent, mayReadMore),
  };
}

export type RentalService = ReturnType<typeof createRentalService>;
