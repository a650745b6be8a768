import { rentMessages } from '@simcode/contract';
import type { RentRenewal, RentRow } from '../../../db/schema';
import { AppError, fail, isUniqueViolation } from '../../../lib/errors';
import { UpstreamError } from '../../../providers/sms/types';
import { lockAccount } from '../../accounts/ledger';
import { holdMoney, type KeySpend } from '../hold';
import { isLiveRent } from '../lifecycle';
import { upstreamFailure } from '../upstream-failure';
import { assertLive, findOwnedRent } from './cancel';
import type { RenewalQuote } from './catalog';
import { autoRenewErrors, callRentProvider, type RentDeps, recordRentCharge, rentsChanged } from './deps';
import { refundRent } from './refund';
import { createRentalsRepository } from './repository';

function assertRenewable(rent: RentRow): void {
  if (rent.status === 'pending') throw fail('pending', rentMessages.stillIssuing);
  if (!isLiveRent(rent.status)) throw fail('ended', rentMessages.cannotRenew);
}

function renewalQuote(deps: RentDeps, rent: RentRow, hours: number): Promise<RenewalQuote> {
  return deps.catalog.renewalQuote(
    {
      provider: rent.provider,
      providerRentId: rent.providerRentId!,
      service: rent.service,
      countryId: rent.countryId,
    },
    hours,
  );
}

/**
 * Confirms a renewal the upstream made: the charge stands and the end date moves. When the rent ended
 * meanwhile (cancelled: the upstream refunded it whole), the renewal is refunded instead; undefined then.
 */
export async function settleRenewal(
  deps: RentDeps,
  renewal: RentRenewal,
  endsAt: Date,
): Promise<RentRow | undefined> {
  const now = deps.clock.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const inTransaction = createRentalsRepository(tx);
    await lockAccount(tx, renewal.userId);
    const locked = await inTransaction.lockById(renewal.rentId);
    if (!locked || !isLiveRent(locked.status)) return { live: false as const };
    const done = await inTransaction.transitionRenewal(renewal.id, 'pending', 'done', now);
    if (!done) return { live: true as const, rent: locked, charged: false };
    const renewed = await inTransaction.update(renewal.rentId, {
      endsAt,
      status: 'renewed',
      autoRenewError: null,
      updatedAt: now,
    });
    return { live: true as const, rent: renewed, charged: true };
  });
  if (!outcome.live) {
    await refundRent(deps, renewal.rentId, { of: 'renewal', renewalId: renewal.id, to: 'refunded' });
    return undefined;
  }
  rentsChanged(deps, { userId: renewal.userId, id: renewal.rentId });
  if (outcome.charged && outcome.rent)
    await recordRentCharge(deps, outcome.rent, renewal.upstreamCost, 'renewal');
  return outcome.rent;
}

/**
 * Charges a renewal, extends the rent upstream, and settles: the money flow of a purchase, for renewals.
 * Made through a key, it counts against that key's caps, checked in the charge's transaction.
 */
async function chargeAndExtend(
  deps: RentDeps,
  found: RentRow,
  quote: RenewalQuote,
  automatic: boolean,
  through?: KeySpend,
): Promise<RentRow> {
  const now = deps.clock.now();
  const renewalId = await holdMoney(deps.db, {
    referenceType: 'rent_renewal',
    idempotencyKeyPrefix: 'purchase:rent-renewal:',
    priceCents: quote.priceCents,
    through,
    insufficient: () => fail('insufficient_balance', rentMessages.insufficientBalanceRenew),
    insert: async (tx) => {
      const inTransaction = createRentalsRepository(tx);
      await lockAccount(tx, found.userId);
      const locked = await inTransaction.lockById(found.id);
      if (!locked || !isLiveRent(locked.status) || !locked.endsAt || locked.endsAt.getTime() <= now.getTime())
        throw fail('ended', rentMessages.cannotRenew);
      if ((await inTransaction.renewalsOf(found.id, 'pending')).length > 0) throw fail('renewal_pending');
      return inTransaction.pendingRenewalInsert({
        createdAt: now,
        rentId: found.id,
        userId: found.userId,
        hours: quote.hours,
        priceCents: quote.priceCents,
        upstreamCost: quote.upstreamCost,
        automatic,
        previousEndsAt: locked.endsAt,
        apiKeyId: through?.apiKeyId,
      });
    },
  }).catch((error: unknown) => {
    // Two renewals raced past the check: the unique index let one through.
    if (isUniqueViolation(error, 'rent_renewals_one_pending_key')) throw fail('renewal_pending');
    throw error;
  });
  rentsChanged(deps, found, true);
  const renewal = (await deps.repository.findRenewal(renewalId))!;

  let extended: { endsAt: Date };
  try {
    extended = await callRentProvider(deps, found, 'extend', (provider) =>
      provider.extendRent(found.providerRentId!, quote.hours),
    );
  } catch (error) {
    if (error instanceof UpstreamError && !error.outcomeUnknown) {
      await refundRent(deps, found.id, { of: 'renewal', renewalId, to: 'failed' });
      throw error.kind === 'not_found' ? fail('ended', rentMessages.cannotRenew) : upstreamFailure(error);
    }
    deps.log.warn(
      { err: error, rentId: found.id, renewalId },
      'renewal outcome unknown; left for reconciliation',
    );
    throw fail('renewal_outcome_unknown');
  }
  deps.catalog.forgetRenewalQuotes({ provider: found.provider, providerRentId: found.providerRentId! });
  const settled = await settleRenewal(deps, renewal, extended.endsAt);
  if (!settled) throw fail('ended');
  return settled;
}

/** What extending the user's rent by `hours` costs now. */
export async function renewalPrice(deps: RentDeps, userId: number, orderId: string, hours: number) {
  const found = await findOwnedRent(deps, userId, orderId);
  assertRenewable(found);
  return renewalQuote(deps, found, hours);
}

/** The buyer extends a live rent by `hours`, at the price the catalog quotes now. */
export async function renewRent(
  deps: RentDeps,
  userId: number,
  orderId: string,
  hours: number,
  through?: KeySpend,
): Promise<RentRow> {
  const found = await findOwnedRent(deps, userId, orderId);
  assertRenewable(found);
  return chargeAndExtend(deps, found, await renewalQuote(deps, found, hours), false, through);
}

/**
 * The one automatic renewal of a renewable rent's period (the caller found it due): the same period
 * again, from the balance. When it cannot run the rent keeps the reason and ends on its date; when only the
 * provider's prices could not be read in time, the claim is given back so a later tick tries again.
 */
export async function autoRenewRent(deps: RentDeps, due: RentRow): Promise<void> {
  const { repository, clock, log } = deps;
  const claimed = await repository.claimAutoRenew(due.id, due.endsAt!, clock.now());
  if (!claimed) return;
  let why: string | null = null;
  let quote: RenewalQuote | undefined;
  try {
    quote = await renewalQuote(deps, claimed, claimed.hours);
    await chargeAndExtend(deps, claimed, quote, true);
  } catch (error) {
    if (error instanceof AppError && error.code === 'rent_catalog_busy') {
      await repository.update(claimed.id, { autoRenewAttemptedFor: null, updatedAt: clock.now() });
      return;
    }
    if (error instanceof AppError && error.code === 'insufficient_balance' && quote)
      why = autoRenewErrors.noBalance(quote.priceCents);
    else if (error instanceof AppError && error.code === 'renewal_outcome_unknown') why = null;
    else if (error instanceof AppError) why = autoRenewErrors.failed(error.message);
    else {
      log.error({ err: error, rentId: claimed.id }, 'automatic renewal failed');
      why = autoRenewErrors.failed('The renewal could not be completed.');
    }
  }
  if (why) {
    await repository.update(claimed.id, { autoRenewError: why, updatedAt: clock.now() });
    rentsChanged(deps, claimed);
  }
}

export async function setAutoRenew(
  deps: RentDeps,
  userId: number,
  orderId: string,
  enabled: boolean,
): Promise<RentRow> {
  const found = await findOwnedRent(deps, userId, orderId);
  if (found.periodUnit === 'hour') throw fail('not_renewable');
  assertLive(found);
  // Switching it on again is the owner asking for another attempt this period.
  const updated = await deps.repository.update(found.id, {
    autoRenew: enabled,
    ...(enabled ? { autoRenewError: null, autoRenewAttemptedFor: null } : {}),
    updatedAt: deps.clock.now(),
  });
  rentsChanged(deps, found);
  return updated!;
}
