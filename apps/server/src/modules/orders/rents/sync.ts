import type { RentRenewal } from '../../../db/schema';
import type { CallBudget } from '../../../lib/call-budget';
import { type RentProvider, UpstreamError } from '../../../providers/sms/types';
import { isStuck, ORPHAN_CANCEL_MS, PENDING_SETTLE_MS } from '../budget';
import { isLiveRent } from '../lifecycle';
import type { RentDeps } from './deps';
import { expireRent } from './end';
import { readRentFromUpstream } from './read-upstream';
import { refundRent } from './refund';
import { autoRenewRent, settleRenewal } from './renewals';

/** A rent's SMS are read from the upstream at most this often (its webhook brings them at once anyway). */
export const RENT_SYNC_MIN_INTERVAL_MS = 60_000;
/** Auto-renew runs this long before the end date: enough ticks to retry when the budget is short. */
export const AUTO_RENEW_LEAD_MS = 10 * 60_000;
/**
 * A renewal the upstream did not confirm is decided after the rent's old end date plus this: if the
 * upstream still lists the rent then, the extension happened; if not, it did not and is refunded.
 */
export const RENEWAL_DECIDE_GRACE_MS = 5 * 60_000;
/** The upstream's list of rents is read at most this often, and only when something needs it. */
export const RENT_LIST_MIN_INTERVAL_MS = 60_000;
/**
 * Share of the shared budget the rentals claim while live rents wait for their SMS read, so a thousand live
 * one-time orders, whose sweeps would take every call, cannot stop that safety net.
 */
export const RENTAL_CLAIM_SHARE = 0.3;
/** This job's name in the shared upstream budget. */
const RENTALS = 'rentals';
/** Rows looked at per step and tick; the budget, not these, bounds the upstream calls. */
const BATCH = 50;

interface RentalSyncDeps {
  rents: RentDeps;
  provider: RentProvider;
  budget: CallBudget;
  /** When this process started: pending rents and renewals from before it are settled at once. */
  startedAt?: Date;
}

/**
 * The rentals' background work, one step per tick: settle purchases and renewals whose upstream outcome
 * is unknown, expire rents at their end date and finish them upstream, renew renewable rents shortly
 * before their end date, and read live rents' SMS round-robin (the oldest read first) — every upstream
 * call within the shared budget, whose share claimed by the activations it leaves them.
 */
export function createRentalSync({ rents, provider, budget, startedAt }: RentalSyncDeps) {
  const { repository, clock, log } = rents;
  const claim = Math.floor(budget.perMinute * RENTAL_CLAIM_SHARE);
  const orphanFirstSeenAt = new Map<string, number>();
  let lastListAtMs = Number.NEGATIVE_INFINITY;

  function takeCall(): boolean {
    return budget.tryTake(RENTALS);
  }

  /** Pending rents and renewals the upstream's list decides, and orphan rents (rented, but not ours). */
  async function settleUnknownOutcomes(nowMs: number): Promise<void> {
    const stuckRents = (await repository.pendingRents(provider.name)).filter((rent) =>
      isStuck(rent.createdAt, nowMs, startedAt),
    );
    const undecided: Array<{ renewal: RentRenewal; providerRentId: string }> = [];
    const settleBefore = new Date(nowMs - PENDING_SETTLE_MS);
    const renewalsBefore = startedAt && startedAt > settleBefore ? startedAt : settleBefore;
    for (const renewal of await repository.pendingRenewalsOlderThan(renewalsBefore)) {
      const rent = await repository.findById(renewal.rentId);
      // The rent ended meanwhile (cancelled upstream, which refunds it whole): so is the renewal.
      if (!rent || !isLiveRent(rent.status))
        await refundRent(rents, renewal.rentId, { of: 'renewal', renewalId: renewal.id, to: 'refunded' });
      else if (nowMs >= renewal.previousEndsAt.getTime() + RENEWAL_DECIDE_GRACE_MS)
        undecided.push({ renewal, providerRentId: rent.providerRentId! });
    }
    if (stuckRents.length === 0 && undecided.length === 0 && orphanFirstSeenAt.size === 0) return;
    if (nowMs - lastListAtMs < RENT_LIST_MIN_INTERVAL_MS || !takeCall()) return;
    lastListAtMs = nowMs;

    const listed = await provider.listActiveRents();
    const listedIds = new Set(listed.map((item) => item.rentId));
    for (const { renewal, providerRentId } of undecided) {
      if (listedIds.has(providerRentId)) {
        log.info(
          { renewalId: renewal.id },
          'the upstream kept a rent past its old end date: the renewal went through',
        );
        await settleRenewal(
          rents,
          renewal,
          new Date(renewal.previousEndsAt.getTime() + renewal.hours * 3_600_000),
        );
      } else {
        await refundRent(rents, renewal.rentId, { of: 'renewal', renewalId: renewal.id, to: 'failed' });
      }
    }
    // A purchase whose answer never came: refunded, and the number it may have rented is an orphan below.
    for (const rent of stuckRents) {
      await refundRent(rents, rent.id, {
        of: 'rent',
        from: ['pending'],
        to: 'failed',
        reason: 'not_issued',
      });
    }
    await cancelOrphans(
      listed.map((item) => item.rentId),
      nowMs,
    );
  }

  async function cancelOrphans(listedIds: string[], nowMs: number): Promise<void> {
    const known = await repository.knownProviderRentIds(provider.name, listedIds);
    const orphans = listedIds.filter((id) => !known.has(id));
    for (const id of orphanFirstSeenAt.keys()) if (!orphans.includes(id)) orphanFirstSeenAt.delete(id);
    for (const id of orphans) {
      const firstSeen = orphanFirstSeenAt.get(id) ?? nowMs;
      orphanFirstSeenAt.set(id, firstSeen);
      if (nowMs - firstSeen < ORPHAN_CANCEL_MS || !takeCall()) continue;
      try {
        await provider.cancelRent(id);
      } catch (error) {
        // Past the cancel window (or after an SMS) it can only be finished: it stops costing more.
        if (!(error instanceof UpstreamError) || error.kind !== 'cannot_cancel' || !takeCall()) {
          log.warn({ err: error, rentId: id }, 'could not cancel an orphan rent');
          continue;
        }
        await provider
          .finishRent(id)
          .catch((finishError: unknown) =>
            log.warn({ err: finishError, rentId: id }, 'could not finish an orphan rent'),
          );
      }
      orphanFirstSeenAt.delete(id);
    }
  }

  async function expireDue(now: Date): Promise<void> {
    for (const rent of await repository.dueForExpiry(provider.name, now, BATCH))
      await expireRent(rents, rent.id);
  }

  /** Tells the upstream that expired rents are over (it ends them itself too; this makes sure). */
  async function closeExpiredUpstream(now: Date): Promise<void> {
    if (budget.remaining(RENTALS) === 0) return;
    for (const rent of await repository.expiredNotClosedUpstream(provider.name, BATCH)) {
      if (!takeCall()) return;
      try {
        await provider.finishRent(rent.providerRentId!);
      } catch (error) {
        if (!(error instanceof UpstreamError) || error.kind !== 'not_found') {
          log.warn({ err: error, rentId: rent.id }, 'could not finish an expired rent upstream');
          continue;
        }
      }
      await repository.update(rent.id, { upstreamClosedAt: now });
    }
  }

  async function autoRenewDue(now: Date): Promise<void> {
    for (const rent of await repository.dueForAutoRenew(
      provider.name,
      now,
      new Date(now.getTime() + AUTO_RENEW_LEAD_MS),
      BATCH,
    )) {
      // A price read and the extension; without both in the budget, a later tick tries (the lead is long).
      if (budget.remaining(RENTALS) < 2 || !budget.tryTake(RENTALS) || !budget.tryTake(RENTALS)) return;
      await autoRenewRent(rents, rent);
    }
  }

  async function syncMessages(nowMs: number): Promise<void> {
    const due = await repository.dueForSync(
      provider.name,
      new Date(nowMs - RENT_SYNC_MIN_INTERVAL_MS),
      BATCH,
    );
    if (due.length > 0) budget.claim(RENTALS, claim);
    if (budget.remaining(RENTALS) === 0) return;
    for (const rent of due) {
      if (!takeCall()) return;
      await readRentFromUpstream(rents, rent, takeCall);
      // Also after a failed read, so one broken rent cannot hold up the round.
      await repository.update(rent.id, { lastSyncedAt: new Date(nowMs) });
    }
  }

  async function step(name: string, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      log.warn({ err: error, step: name }, 'rental sync step failed');
    }
  }

  return {
    async run(): Promise<void> {
      const now = clock.now();
      const nowMs = now.getTime();
      // Money first: outcomes to settle, then ends, then renewals, then the SMS safety net.
      await step('settle', () => settleUnknownOutcomes(nowMs));
      await step('expire', () => expireDue(now));
      await step('auto-renew', () => autoRenewDue(now));
      await step('close-upstream', () => closeExpiredUpstream(now));
      await step('messages', () => syncMessages(nowMs));
    },
  };
}
