import { createHash } from 'node:crypto';
import {
  english,
  extractSmsCode,
  formatCents,
  localizeEnglish,
  RENT_CANCEL_WINDOW_MS,
  RENT_STATUS,
  type RentPeriod,
  type RentStatusResponse,
  rentMessages,
} from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../../db/client';
import { liveRentStatuses, type RentRenewal, type RentRow, type RentRowStatus } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { AppError, conflict, isUniqueViolation, notFound } from '../../../lib/errors';
import type { UserEventBus } from '../../../lib/events';
import { placeWithFailover } from '../../../providers/sms/failover';
import type { ProviderPool } from '../../../providers/sms/pool';
import { type RentMessage, UpstreamError } from '../../../providers/sms/types';
import { applyLedgerChange, InsufficientBalanceError, lockAccount } from '../../accounts/ledger';
import type { PricingRulesStore } from '../../catalog/pricing-rules';
import { type ApiPurchase, upstreamFailure } from '../activations/service';
import { createRentCatalog, type RenewalQuote } from './catalog';
import { createRentalsRepository } from './repository';

/** Why a rent ended or was refunded: stored with it in English, shown in the reader's language. */
export const rentReasons = {
  ...english.rentReasons,
  autoRenewNoBalance: (priceCents: number) =>
    `Not renewed automatically: renewing costs ${formatCents(priceCents)} and your balance was lower. Top up and renew it yourself before it ends.`,
  autoRenewFailed: (why: string) => `Not renewed automatically. ${why} Renew it yourself before it ends.`,
};

export interface RentRequest {
  countryId: string;
  serviceKey: string;
  period: RentPeriod;
  /** Renewable rents only; on unless turned off. */
  autoRenew?: boolean;
}

export interface IncomingRentSms {
  from: string;
  text: string;
  /** The code, when the upstream extracted one. */
  code?: string | null;
  receivedAt: Date;
  /** Who pushed it (the webhook's source address); absent when our sync read it. */
  sourceAddress?: string;
}

/** What a refund returns: the whole rent (its first period and every standing renewal), or one renewal. */
export type RefundChange =
  | { of: 'rent'; from: readonly RentRowStatus[]; to: 'canceled' | 'failed'; reason: string }
  | { of: 'renewal'; renewalId: number; to: 'failed' | 'refunded' };

interface RentalServiceDeps {
  db: Database;
  /** The suppliers: new rents go to those that rent numbers, everything after to the rent's own. */
  providers: ProviderPool;
  /** Our markup over the upstream's rent prices: the rules in force. */
  pricing: PricingRulesStore;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Where a provider pushes its rents' SMS (our webhook, with the provider's name). */
  webhookUrl: (provider: string) => string;
}

export function isLive(status: RentRowStatus): boolean {
  return (liveRentStatuses as readonly RentRowStatus[]).includes(status);
}

function dedupeKeyOf(sms: IncomingRentSms): string {
  // The webhook and the sync give the upstream's own receive time, to the second; the text alone would merge
  // two identical notices, the time alone two SMS of the same second.
  const second = Math.floor(sms.receivedAt.getTime() / 1000);
  return createHash('sha256').update(`${sms.from}\n${sms.text}\n${second}`).digest('hex');
}

export function createRentalService({
  db,
  providers,
  pricing,
  events,
  clock,
  log,
  webhookUrl,
}: RentalServiceDeps) {
  const repository = createRentalsRepository(db);
  const catalog = createRentCatalog({ providers, pricing, clock, log });

  function changed(userId: number, balance = false): void {
    events.publish({ userId, type: 'rents' });
    if (balance) events.publish({ userId, type: 'balance' });
  }

  /**
   * Returns money at most once: the status change and the ledger credits commit together, the status
   * updates are conditional and every ledger key is unique, so racing paths (cancel, the upstream ending
   * the rent, a renewal's failure, the reconciler) cannot both pay out.
   */
  async function refund(
    rentId: number,
    change: RefundChange,
    /** Runs in the refund's transaction once it is sure to happen (the console's audit entry). */
    alongside?: (tx: Transaction, refunded: RentRow) => Promise<void>,
  ): Promise<RentRow | undefined> {
    const now = clock.now();
    const refunded = await db.transaction(async (tx) => {
      const inTransaction = createRentalsRepository(tx);
      const rent = await inTransaction.findById(rentId);
      if (!rent) return undefined;
      await lockAccount(tx, rent.userId);
      const credit = (amountCents: number, type: 'rent' | 'rent_renewal', id: number, note?: string) =>
        applyLedgerChange(tx, {
          userId: rent.userId,
          amountCents,
          kind: 'refund',
          referenceType: type,
          referenceId: String(id),
          idempotencyKey: `refund:${type === 'rent' ? 'rent' : 'rent-renewal'}:${id}`,
          note,
        });
      if (change.of === 'renewal') {
        const renewal = await inTransaction.transitionRenewal(change.renewalId, 'pending', change.to, now);
        if (!renewal) return undefined;
        await credit(renewal.priceCents, 'rent_renewal', renewal.id);
        return rent;
      }
      const ended = await inTransaction.transition(rentId, change.from, change.to, now, change.reason);
      if (!ended) return undefined;
      await credit(ended.priceCents, 'rent', ended.id, change.reason);
      // The upstream refunds a cancelled rent whole, renewals included; so do we. A renewal still pending
      // is settled on its own path, which finds the rent ended and refunds it.
      for (const renewal of await inTransaction.renewalsOf(rentId, 'done')) {
        await inTransaction.transitionRenewal(renewal.id, 'done', 'refunded', now);
        await credit(renewal.priceCents, 'rent_renewal', renewal.id, change.reason);
      }
      await alongside?.(tx, ended);
      return ended;
    });
    if (refunded) changed(refunded.userId, true);
    return refunded;
  }

  async function rent(userId: number, request: RentRequest, api?: ApiPurchase): Promise<RentRow> {
    const { period } = request;
    const quote = await catalog.quote(request.countryId, request.serviceKey, period.hours);
    // Hold the money first, in its own committed transaction, before anyone upstream is asked.
    const order = await db.transaction(async (tx) => {
      // The key's lock before the account's, in the order a one-time purchase takes them.
      if (api) await api.admit(tx, quote.priceCents);
      await lockAccount(tx, userId);
      const pending = await createRentalsRepository(tx).insertPending({
        userId,
        // The cancel window and the reconciler count from here, on the same clock as everything else.
        createdAt: clock.now(),
        provider: quote.candidates[0]!.provider,
        countryId: quote.countryId,
        serviceKey: quote.option.key,
        service: quote.option.service,
        periodUnit: period.unit,
        periodCount: period.count,
        hours: period.hours,
        autoRenew: period.renewable && (request.autoRenew ?? true),
        priceCents: quote.priceCents,
        upstreamCost: quote.candidates[0]!.upstreamCost,
        apiKeyId: api?.apiKeyId,
      });
      try {
        await applyLedgerChange(tx, {
          userId,
          amountCents: -quote.priceCents,
          kind: 'purchase',
          referenceType: 'rent',
          referenceId: String(pending.id),
          idempotencyKey: `purchase:rent:${pending.id}`,
        });
      } catch (error) {
        if (error instanceof InsufficientBalanceError) {
          throw new AppError(402, rentMessages.insufficientBalance, 'insufficient_balance');
        }
        throw error;
      }
      return pending;
    });
    changed(userId, true);

    // Each provider that sells it at a cost the price covers, in routing order, on the one hold: the rules
    // of a one-time purchase (ADR 0017).
    const placement = await placeWithFailover({
      clock,
      candidates: quote.candidates,
      pool: providers,
      pair: { service: quote.option.service, countryId: quote.countryId },
      what: 'rent',
      orderId: order.id,
      log,
      moveTo: async (candidate) =>
        (await repository.reassign(order.id, candidate.provider, candidate.upstreamCost, clock.now())) !==
        undefined,
      place: (candidate) =>
        providers.rentsOf(candidate.provider).rentNumber({
          service: quote.option.service,
          countryId: quote.countryId,
          hours: period.hours,
          webhookUrl: webhookUrl(candidate.provider),
        }),
    });
    if (placement.kind === 'superseded')
      throw new AppError(503, rentMessages.outcomeUnknown, 'rent_superseded');
    if (placement.kind === 'unknown') {
      // The reconciler settles the rent at that provider within minutes.
      log.warn(
        { rentId: order.id, provider: placement.provider },
        'rent outcome unknown; left for reconciliation',
      );
      throw new AppError(503, rentMessages.outcomeUnknown, 'rent_outcome_unknown');
    }
    if (placement.kind === 'refused') {
      await refund(order.id, {
        of: 'rent',
        from: ['pending'],
        to: 'failed',
        reason: placement.error.userMessage,
      });
      throw upstreamFailure(placement.error);
    }
    const { value: rented, provider } = placement;

    const issued = await repository.markIssued(order.id, {
      providerRentId: rented.rentId,
      phoneNumber: rented.phoneNumber,
      endsAt: rented.endsAt,
      now: clock.now(),
    });
    if (!issued) {
      // The reconciler gave up on this rent and refunded it while the upstream was answering.
      await providers
        .rentsOf(provider)
        .cancelRent(rented.rentId)
        .catch(() => {});
      throw new AppError(503, rentMessages.outcomeUnknown, 'rent_superseded');
    }
    changed(userId);
    return issued;
  }

  async function findOwned(userId: number, orderId: string): Promise<RentRow> {
    const found = await repository.findByOrderIdForUser(userId, orderId);
    if (!found) throw notFound();
    return found;
  }

  function assertLive(rent: RentRow): void {
    if (rent.status === 'pending') throw conflict(rentMessages.stillIssuing, 'pending');
    if (!isLive(rent.status)) throw conflict(rentMessages.alreadyEnded, 'ended');
  }

  async function assertCancellable(rent: RentRow, now: Date): Promise<void> {
    assertLive(rent);
    if (now.getTime() - rent.createdAt.getTime() > RENT_CANCEL_WINDOW_MS)
      throw conflict(rentMessages.cannotCancel, 'cancel_window_over');
    if ((await repository.messageCount(rent.id)) > 0)
      throw conflict(rentMessages.cannotCancel, 'sms_arrived');
    if ((await repository.renewalsOf(rent.id, 'pending')).length > 0)
      throw conflict(rentMessages.renewalInProgress, 'renewal_pending');
  }

  async function cancel(userId: number, orderId: string): Promise<RentRow> {
    const found = await findOwned(userId, orderId);
    await assertCancellable(found, clock.now());
    try {
      await providers.rentsOf(found.provider).cancelRent(found.providerRentId!);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      if (error.kind === 'cannot_cancel' || error.kind === 'not_found') {
        // The upstream knows better: an SMS may have arrived, or the rent ended there already.
        await syncOne(found, undefined, rentReasons.canceledByUser);
        const latest = await repository.findById(found.id);
        if (latest && !isLive(latest.status)) throw conflict(rentMessages.alreadyEnded, 'ended');
        throw conflict(rentMessages.cannotCancel, 'cannot_cancel');
      }
      throw upstreamFailure(error);
    }
    const refunded = await refund(found.id, {
      of: 'rent',
      from: liveRentStatuses,
      to: 'canceled',
      reason: rentReasons.canceledByUser,
    });
    if (refunded) return refunded;
    // Another path refunded it first: a second cancel that learnt from the upstream what this one did
    // (this one stands), or something that ended it otherwise.
    const latest = await repository.findById(found.id);
    if (latest?.status === 'canceled') return latest;
    throw conflict(rentMessages.alreadyEnded, 'ended');
  }

  /** Charges a renewal, extends the rent upstream, and settles: the money flow of a purchase, for renewals. */
  async function chargeAndExtend(found: RentRow, quote: RenewalQuote, automatic: boolean): Promise<RentRow> {
    const now = clock.now();
    const renewal = await db
      .transaction(async (tx) => {
        const inTransaction = createRentalsRepository(tx);
        await lockAccount(tx, found.userId);
        const locked = await inTransaction.lockById(found.id);
        if (!locked || !isLive(locked.status) || !locked.endsAt || locked.endsAt.getTime() <= now.getTime()) {
          throw conflict(rentMessages.cannotRenew, 'ended');
        }
        if ((await inTransaction.renewalsOf(found.id, 'pending')).length > 0) {
          throw conflict(rentMessages.renewalInProgress, 'renewal_pending');
        }
        const held = await inTransaction.insertRenewal({
          createdAt: now,
          rentId: found.id,
          userId: found.userId,
          hours: quote.hours,
          priceCents: quote.priceCents,
          upstreamCost: quote.upstreamCost,
          automatic,
          previousEndsAt: locked.endsAt,
        });
        try {
          await applyLedgerChange(tx, {
            userId: found.userId,
            amountCents: -quote.priceCents,
            kind: 'purchase',
            referenceType: 'rent_renewal',
            referenceId: String(held.id),
            idempotencyKey: `purchase:rent-renewal:${held.id}`,
          });
        } catch (error) {
          if (error instanceof InsufficientBalanceError) {
            throw new AppError(402, rentMessages.insufficientBalanceRenew, 'insufficient_balance');
          }
          throw error;
        }
        return held;
      })
      .catch((error: unknown) => {
        // Two renewals raced past the check: the unique index let one through.
        if (isUniqueViolation(error, 'rent_renewals_one_pending_key'))
          throw conflict(rentMessages.renewalInProgress, 'renewal_pending');
        throw error;
      });
    changed(found.userId, true);

    let extended: { endsAt: Date };
    try {
      extended = await providers.rentsOf(found.provider).extendRent(found.providerRentId!, quote.hours);
    } catch (error) {
      if (error instanceof UpstreamError && !error.outcomeUnknown) {
        await refund(found.id, { of: 'renewal', renewalId: renewal.id, to: 'failed' });
        throw error.kind === 'not_found'
          ? conflict(rentMessages.cannotRenew, 'ended')
          : upstreamFailure(error);
      }
      log.warn(
        { err: error, rentId: found.id, renewalId: renewal.id },
        'renewal outcome unknown; left for reconciliation',
      );
      throw new AppError(503, rentMessages.renewOutcomeUnknown, 'renewal_outcome_unknown');
    }
    catalog.forgetRenewalQuotes({ provider: found.provider, providerRentId: found.providerRentId! });
    const settled = await settleRenewal(renewal, extended.endsAt);
    if (!settled) throw conflict(rentMessages.alreadyEnded, 'ended');
    return settled;
  }

  /**
   * Confirms a renewal the upstream made: the charge stands and the end date moves. When the rent ended
   * meanwhile (cancelled: the upstream refunded it whole), the renewal is refunded instead; undefined then.
   */
  async function settleRenewal(renewal: RentRenewal, endsAt: Date): Promise<RentRow | undefined> {
    const now = clock.now();
    const outcome = await db.transaction(async (tx) => {
      const inTransaction = createRentalsRepository(tx);
      await lockAccount(tx, renewal.userId);
      const locked = await inTransaction.lockById(renewal.rentId);
      if (!locked || !isLive(locked.status)) return { live: false as const };
      const done = await inTransaction.transitionRenewal(renewal.id, 'pending', 'done', now);
      if (!done) return { live: true as const, rent: locked };
      const renewed = await inTransaction.update(renewal.rentId, {
        endsAt,
        status: 'renewed',
        autoRenewError: null,
        updatedAt: now,
      });
      return { live: true as const, rent: renewed };
    });
    if (!outcome.live) {
      await refund(renewal.rentId, { of: 'renewal', renewalId: renewal.id, to: 'refunded' });
      return undefined;
    }
    changed(renewal.userId);
    return outcome.rent;
  }

  /** Marks a live rent expired once its end date has come, unless a renewal is still being confirmed. */
  async function expire(rentId: number, reason?: string): Promise<RentRow | undefined> {
    const now = clock.now();
    const expired = await db.transaction(async (tx) => {
      const inTransaction = createRentalsRepository(tx);
      const locked = await inTransaction.lockById(rentId);
      if (!locked || !isLive(locked.status)) return undefined;
      if (reason === undefined && (!locked.endsAt || locked.endsAt.getTime() > now.getTime()))
        return undefined;
      if ((await inTransaction.renewalsOf(rentId, 'pending')).length > 0) return undefined;
      return inTransaction.update(rentId, {
        status: 'expired',
        ...(reason !== undefined ? { statusReason: reason, upstreamClosedAt: now } : {}),
        updatedAt: now,
      });
    });
    if (expired) changed(expired.userId);
    return expired;
  }

  /** Stores an SMS once; a new one tells the owner's open pages. */
  async function recordSms(target: Pick<RentRow, 'id' | 'userId'>, sms: IncomingRentSms): Promise<boolean> {
    const stored = await repository.addMessage(target.id, {
      sender: sms.from,
      text: sms.text,
      code: sms.code ?? extractSmsCode(sms.text),
      receivedAt: sms.receivedAt,
      dedupeKey: dedupeKeyOf(sms),
      sourceAddress: sms.sourceAddress,
    });
    if (stored) changed(target.userId);
    return stored;
  }

  /**
   * Reads one rent from the upstream and applies what it says: new SMS stored (further pages while
   * `mayReadMore` allows), a rent the upstream ended settled. Returns false when the upstream could not be read.
   */
  async function syncOne(
    target: RentRow,
    mayReadMore: () => boolean = () => false,
    cancelledReason: string = rentReasons.withdrawn,
  ): Promise<boolean> {
    if (!target.providerRentId) return true;
    try {
      for (let page = 0; ; page += 1) {
        const state = await providers.rentsOf(target.provider).getRentState(target.providerRentId, page);
        if (state.kind !== 'messages') {
          await applyEndState(target, state.kind, cancelledReason);
          return true;
        }
        let fresh = 0;
        for (const message of state.messages) if (await recordSms(target, toIncoming(message))) fresh += 1;
        // Pages run newest first: a page with nothing new means the older ones are stored already.
        const stored = await repository.messageCount(target.id);
        if (fresh === 0 || state.messages.length === 0 || stored >= state.total || !mayReadMore())
          return true;
      }
    } catch (error) {
      log.warn({ err: error, rentId: target.id }, 'could not read a rent from the upstream');
      return false;
    }
  }

  async function applyEndState(
    target: RentRow,
    kind: 'waiting' | 'cancelled' | 'finished' | 'revoked',
    cancelledReason: string,
  ): Promise<void> {
    if (kind === 'waiting' || !isLive(target.status)) return;
    const hasSms = (await repository.messageCount(target.id)) > 0;
    if (kind === 'cancelled' || (kind === 'revoked' && !hasSms)) {
      await refund(target.id, {
        of: 'rent',
        from: liveRentStatuses,
        to: 'canceled',
        reason: cancelledReason,
      });
      return;
    }
    const endedOnTime = target.endsAt !== null && target.endsAt.getTime() <= clock.now().getTime();
    if (endedOnTime) await expire(target.id);
    else {
      log.warn({ rentId: target.id, kind }, 'the upstream ended a rent before its end date');
      await expire(target.id, rentReasons.endedEarly);
    }
  }

  return {
    repository,
    catalog,
    rent,
    cancel,
    refund,
    expire,
    settleRenewal,
    recordSms,
    syncOne,

    /** A new rent of the same country, service and period, at today's price. */
    async repeat(userId: number, orderId: string): Promise<RentRow> {
      const found = await findOwned(userId, orderId);
      return rent(userId, {
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

    /** What extending the user's rent by `hours` costs now. */
    async renewalPrice(userId: number, orderId: string, hours: number): Promise<RenewalQuote> {
      const found = await findOwned(userId, orderId);
      assertRenewable(found);
      return catalog.renewalQuote(
        {
          provider: found.provider,
          providerRentId: found.providerRentId!,
          service: found.service,
          countryId: found.countryId,
        },
        hours,
      );
    },

    async renew(userId: number, orderId: string, hours: number): Promise<RentRow> {
      const found = await findOwned(userId, orderId);
      assertRenewable(found);
      const quote = await catalog.renewalQuote(
        {
          provider: found.provider,
          providerRentId: found.providerRentId!,
          service: found.service,
          countryId: found.countryId,
        },
        hours,
      );
      return chargeAndExtend(found, quote, false);
    },

    /**
     * The one automatic renewal of a renewable rent's period (the caller found it due): the same period
     * again, from the balance. When it cannot run the rent keeps the reason and ends on its date.
     */
    async autoRenew(due: RentRow): Promise<void> {
      const claimed = await repository.claimAutoRenew(due.id, due.endsAt!, clock.now());
      if (!claimed) return;
      let why: string | null = null;
      let quote: RenewalQuote | undefined;
      try {
        quote = await catalog.renewalQuote(
          {
            provider: claimed.provider,
            providerRentId: claimed.providerRentId!,
            service: claimed.service,
            countryId: claimed.countryId,
          },
          claimed.hours,
        );
        await chargeAndExtend(claimed, quote, true);
      } catch (error) {
        if (error instanceof AppError && error.code === 'insufficient_balance' && quote)
          why = rentReasons.autoRenewNoBalance(quote.priceCents);
        else if (error instanceof AppError && error.code === 'renewal_outcome_unknown') why = null;
        else if (error instanceof AppError) why = rentReasons.autoRenewFailed(error.message);
        else {
          log.error({ err: error, rentId: claimed.id }, 'automatic renewal failed');
          why = rentReasons.autoRenewFailed('The renewal could not be completed.');
        }
      }
      if (why) {
        await repository.update(claimed.id, { autoRenewError: why, updatedAt: clock.now() });
        changed(claimed.userId);
      }
    },

    async setAutoRenew(userId: number, orderId: string, enabled: boolean): Promise<RentRow> {
      const found = await findOwned(userId, orderId);
      if (found.periodUnit === 'hour') throw conflict(rentMessages.notRenewable, 'not_renewable');
      assertLive(found);
      // Switching it on again is the owner asking for another attempt this period.
      const updated = await repository.update(found.id, {
        autoRenew: enabled,
        ...(enabled ? { autoRenewError: null, autoRenewAttemptedFor: null } : {}),
        updatedAt: clock.now(),
      });
      changed(userId);
      return updated!;
    },

    /** The rent-status answer of spec section 3, from our database only. */
    async statusOf(userId: number, orderId: string): Promise<RentStatusResponse> {
      const found = await findOwned(userId, orderId);
      const values = (await repository.messagesOf(found.id)).map((message) => ({
        phoneFrom: message.sender,
        text: message.text,
        code: message.code,
        date: message.receivedAt.toISOString(),
      }));
      return rentStatusAnswer(found, values);
    },

    /** An SMS pushed by a provider (the rent's webhook, which names the provider). */
    async recordPushedSms(provider: string, providerRentId: string, sms: IncomingRentSms): Promise<boolean> {
      const found = await repository.findByProviderRentId(provider, providerRentId);
      if (!found) return false;
      await recordSms(found, sms);
      return true;
    },
  };
}

export type RentalService = ReturnType<typeof createRentalService>;

function assertRenewable(rent: RentRow): void {
  if (rent.status === 'pending') throw conflict(rentMessages.stillIssuing, 'pending');
  if (!isLive(rent.status)) throw conflict(rentMessages.cannotRenew, 'ended');
}

function toIncoming(message: RentMessage): IncomingRentSms {
  return {
    from: message.from,
    text: message.text,
    code: message.code ?? null,
    receivedAt: message.receivedAt,
  };
}

export function rentStatusAnswer(
  rent: Pick<RentRow, 'status' | 'statusReason'>,
  values: RentStatusResponse['values'],
): RentStatusResponse {
  if (rent.status === 'failed')
    return {
      status: 'error',
      message: RENT_STATUS.canceled,
      values,
      error: localizeEnglish(rent.statusReason),
    };
  if (values.length > 0) return { status: 'success', message: null, values, error: null };
  switch (rent.status) {
    case 'canceled':
      return { status: 'error', message: RENT_STATUS.canceled, values, error: null };
    case 'expired':
      return { status: 'error', message: RENT_STATUS.finished, values, error: null };
    default:
      return { status: 'error', message: RENT_STATUS.waiting, values, error: null };
  }
}
