import { centsToDollars, orderReasonText, periodText, type Rent, rentServiceByKey } from '@simcode/contract';
import type { RentRow } from '../../../db/schema';
import { displayNames } from '../activations/presenter';

export interface RenewalTotals {
  /** Renewals charged and standing. */
  doneCents: number;
  /** Hours those renewals added. */
  doneHours: number;
  /** A renewal is waiting for the upstream's confirmation. */
  pending: boolean;
}

const NO_RENEWALS: RenewalTotals = { doneCents: 0, doneHours: 0, pending: false };

/**
 * A rent's public id: ours, never the provider's (two providers issue overlapping ids, and a provider's ids
 * are nobody's business). Null until the provider has issued the number, as the spec's order_id was.
 */
export function orderIdOf(rent: Pick<RentRow, 'id' | 'providerRentId'>): string | null {
  return rent.providerRentId ? String(rent.id) : null;
}

/** The API shape of a rent: the spec's fields plus what the page shows (period, auto-renew, reasons, price). */
export function presentRent(rent: RentRow, renewals: RenewalTotals = NO_RENEWALS, smsReceived = false): Rent {
  const { countryName, serviceName } = displayNames(rent);
  return {
    id: rent.id,
    order_id: orderIdOf(rent),
    country: countryName,
    country_id: rent.countryId,
    service: { key: rent.serviceKey, name: rentServiceByKey(rent.serviceKey)?.name ?? serviceName },
    number: rent.phoneNumber,
    created_at: rent.createdAt.toISOString(),
    end_date: rent.endsAt?.toISOString() ?? null,
    status: rent.status === 'failed' ? 'canceled' : rent.status,
    status_reason: orderReasonText('rent', rent.statusReason),
    // An hourly rent renewed by 48 h reads as the hours it now runs for; weeks and months renew by their own
    // period, which stays the rent's period.
    period:
      rent.periodUnit === 'hour'
        ? periodText('hour', rent.hours + renewals.doneHours)
        : periodText(rent.periodUnit, rent.periodCount),
    hours: rent.hours,
    renewable: rent.periodUnit !== 'hour',
    auto_renew: rent.autoRenew,
    auto_renew_error: rent.autoRenewError,
    renewal_pending: renewals.pending,
    sms_received: smsReceived,
    price: centsToDollars(rent.priceCents + renewals.doneCents),
  };
}
