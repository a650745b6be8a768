import type { Activation } from '../../../db/schema';
import type { CallBudget } from '../../../lib/call-budget';
import {
  type ActivationProvider,
  type ActivationState,
  type ActiveActivation,
  type RecentActivation,
  UpstreamError,
} from '../../../providers/sms/types';
import { ACTIVATIONS_BUDGET, isStuck, ORPHAN_CANCEL_MS } from '../budget';
import { type ActivationDeps, callProvider, numbersChanged } from './deps';
import { completeActivation, finishUpstream } from './finish';
import { cancelGivenBack } from './give-back';
import { readFromUpstream } from './read-upstream';
import { recordSms } from './record-sms';
import { refundActivation } from './refund';

/** Grace after expiry before we end a still-listed activation ourselves. */
export const EXPIRY_GRACE_MS = 2 * 60_000;
/** Sweeps are at least this far apart even when the budget would allow more. */
export const MIN_SWEEP_INTERVAL_MS = 10_000;
/** When no complete sweep can tell (the upstream unreadable, or too many pages for the budget), an expired order is refunded anyway after this long. */
export const BLIND_EXPIRY_MS = 10 * 60_000;

interface SyncDeps {
  orders: ActivationDeps;
  provider: ActivationProvider;
  budget: CallBudget;
  /**
   * When this process started: a pending order created before it was left by a process that died between
   * hold and settle, and is settled on the first sweep instead of after PENDING_SETTLE_MS.
   */
  startedAt?: Date;
}

const ACTIVATIONS = ACTIVATIONS_BUDGET;

/** An upstream activation this far from a stuck purchase's time is not its number. */
const MATCH_WINDOW_MS = 3 * 60_000;

/**
 * The listed activation nobody claims that a stuck purchase most likely issued: the same service and
 * country, started within MATCH_WINDOW_MS of the purchase (in the provider's time zone, read by the
 * adapter), the closest in time first, so that two stuck purchases of one service each get their own.
 * The provider's id, the surest match, is unknown here by definition: the answer that carried it never came.
 */
export function closestUnclaimed(order: Activation, unclaimed: ReadonlyMap<string, ActiveActivation>) {
  const distance = (item: ActiveActivation) =>
    item.activatedAt ? Math.abs(item.activatedAt.getTime() - order.createdAt.getTime()) : MATCH_WINDOW_MS - 1;
  return [...unclaimed.values()]
    .filter(
      (item) =>
        item.service === order.service &&
        (item.countryId === null || item.countryId === order.countryId) &&
        distance(item) < MATCH_WINDOW_MS,
    )
    .sort((left, right) => distance(left) - distance(right))[0];
}

/**
 * The safety net behind the upstream's SMS webhooks: reads the upstream's list of active activations in
 * pages of 100, within the call budget, and settles our live orders against it — codes stored, expired
 * orders refunded, stuck purchases attached or refunded, orphans cancelled. Clients never cause upstream
 * calls: the status endpoints read what this and the webhooks stored.
 */
export function createActivationSync({ orders, provider, budget, startedAt }: SyncDeps) {
  const { repository, clock, log } = orders;
  let lastSweepAt = 0;
  let lastCompleteSweepStartedAt = 0;
  const orphanFirstSeenAt = new Map<string, number>();

  async function sweep(): Promise<{ items: ActiveActivation[]; complete: boolean; startedAt: number }> {
    const startedAt = clock.now().getTime();
    const items: ActiveActivation[] = [];
    const seen = new Set<string>();
    for (let page = 0; ; page += 1) {
      if (!budget.tryTake(ACTIVATIONS)) return { items, complete: false, startedAt };
      const result = await provider.listActiveActivations(page);
      const fresh = result.items.filter((item) => !seen.has(item.activationId));
      // A server that ignores `start` answers the first page again: nothing more can be read this way.
      if (page > 0 && fresh.length === 0 && result.items.length > 0)
        return { items, complete: false, startedAt };
      for (const item of fresh) seen.add(item.activationId);
      items.push(...fresh);
      if (!result.hasMore) return { items, complete: true, startedAt };
    }
  }

  async function settleListed(order: Activation, item: ActiveActivation): Promise<void> {
    const codes = item.codes.length > 0 ? item.codes : item.state.kind === 'code' ? [item.state.code] : [];
    for (const code of codes) {
      await recordSms(orders, order, {
        code,
        text: item.smsText && codes.length === 1 ? item.smsText : code,
        receivedAt: clock.now(),
      });
    }
    if (codes.length === 0 && item.state.kind === 'cancelled') {
      await refundActivation(orders, order, ['waiting'], 'expired', 'withdrawn');
    }
  }

  /**
   * The provider's own record of recently closed activations (getHistory, 5sim's orders), read once per
   * sweep (a page per budgeted call) for the waiting orders that left the list, instead of asking about
   * each one; empty where the provider keeps no history or the budget is spent.
   */
  async function recentHistory(gone: readonly Activation[]): Promise<Map<string, RecentActivation>> {
    if (gone.length === 0 || !provider.listRecentActivations || !budget.tryTake(ACTIVATIONS))
      return new Map();
    const sinceMs = Math.min(...gone.map((order) => order.createdAt.getTime()));
    const history = new Map<string, RecentActivation>();
    try {
      // Page by page back to the oldest gone order, each page one call of the budget.
      for (let page = 0; ; page += 1) {
        const { items, hasMore } = await provider.listRecentActivations(sinceMs, page);
        for (const item of items) history.set(item.activationId, item);
        if (!hasMore || !budget.tryTake(ACTIVATIONS)) break;
      }
    } catch (error) {
      log.warn({ err: error, provider: provider.name }, 'could not read the upstream history');
    }
    return history;
  }

  /** The upstream no longer lists this order: it ended, with or without an SMS. */
  async function settleGone(
    order: Activation,
    nowMs: number,
    history: ReadonlyMap<string, RecentActivation> = new Map(),
  ): Promise<void> {
    if (order.status === 'received') {
      const completed = await repository.transition(order.id, ['received'], 'completed', clock.now());
      if (completed) numbersChanged(orders, completed.userId);
      return;
    }
    if (order.status !== 'waiting') return;
    const closed = history.get(order.providerActivationId ?? '');
    const lastCode = closed?.state.kind === 'finished' ? closed.messages.at(-1) : undefined;
    if (lastCode !== undefined) {
      // The supplier closed it billed, with a code (one that came in its last seconds, before our sweep saw
      // it): the code wins. Refunding it would pay the buyer back for a code the supplier charged us for.
      await recordSms(orders, order, { code: lastCode, text: lastCode, receivedAt: clock.now() });
      return;
    }
    if (nowMs >= order.expiresAt.getTime()) {
      await refundActivation(orders, order, ['waiting'], 'expired', 'expired');
    } else if (closed && closed.messages.length === 0 && closed.state.kind === 'cancelled') {
      // The provider's history says it was withdrawn without an SMS.
      await refundActivation(orders, order, ['waiting'], 'expired', 'withdrawn');
    } else if (budget.tryTake(ACTIVATIONS)) {
      // Ended early upstream (withdrawn number): ask once, to tell a late code from a cancellation.
      await readFromUpstream(orders, order);
    }
  }

  /** The upstream is slow to end an expired order: end it ourselves, and refund unless a code beat us. */
  async function endOverdue(order: Activation): Promise<void> {
    try {
      await callProvider(orders, order, 'cancel', (upstream) =>
        upstream.cancelActivation(order.providerActivationId!),
      );
    } catch (error) {
      if (!(error instanceof UpstreamError) || error.kind !== 'not_found') {
        if (error instanceof UpstreamError && error.kind === 'cannot_cancel')
          await readFromUpstream(orders, order);
        return;
      }
    }
    await refundActivation(orders, order, ['waiting'], 'expired', 'expired');
  }

  /**
   * Orders the sweep could not account for — it failed, or the budget ended it before the last page, as
   * with thousands of live orders — are refunded once long past their lifetime: the upstream has ended
   * them by then and refunded itself, and a code it delivered would have come through the webhook.
   */
  async function refundLongExpired(
    live: Activation[],
    listed: ReadonlyMap<string, ActiveActivation>,
    nowMs: number,
  ): Promise<void> {
    for (const order of live) {
      if (nowMs < order.expiresAt.getTime() + BLIND_EXPIRY_MS) continue;
      if (order.providerActivationId && listed.has(order.providerActivationId)) continue;
      if (order.status === 'waiting')
        await refundActivation(orders, order, ['waiting'], 'expired', 'expired');
      else if (order.status === 'pending')
        await refundActivation(orders, order, ['pending'], 'failed', 'not_issued');
    }
  }

  /**
   * Without the list (the provider answers BAD_ACTION, garbage, or nothing to getActiveActivations), each
   * live order is asked about on its own, as far as the budget goes: codes are stored, ended orders
   * settled, overdue ones ended. Oldest first, since they are the ones about to be owed a refund.
   */
  async function settleByStatus(live: Activation[], nowMs: number): Promise<void> {
    const asked = live
      .filter(
        (order) => order.providerActivationId && (order.status === 'waiting' || order.status === 'received'),
      )
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
    for (const order of asked) {
      if (!budget.tryTake(ACTIVATIONS)) return;
      let state: ActivationState;
      try {
        // V2 where the provider has it: the same one call, with the SMS's full text for the user.
        const id = order.providerActivationId!;
        state = await (provider.getActivationStateWithText
          ? provider.getActivationStateWithText(id)
          : provider.getActivationState(id));
      } catch (error) {
        if (error instanceof UpstreamError && error.kind === 'not_found') await settleGone(order, nowMs);
        continue;
      }
      if (state.kind === 'code' || state.kind === 'waiting_retry') {
        const code = state.kind === 'code' ? state.code : state.lastCode;
        await recordSms(orders, order, {
          code,
          text: state.kind === 'code' ? (state.text ?? code) : code,
          receivedAt: clock.now(),
        });
      } else if (state.kind === 'cancelled' || state.kind === 'finished') {
        await settleGone(order, nowMs);
      } else if (
        order.status === 'waiting' &&
        nowMs >= order.expiresAt.getTime() + EXPIRY_GRACE_MS &&
        budget.tryTake(ACTIVATIONS)
      ) {
        await endOverdue(order);
      }
    }
  }

  async function settlePending(
    pending: Activation[],
    unclaimed: Map<string, ActiveActivation>,
    complete: boolean,
    nowMs: number,
  ) {
    for (const order of pending) {
      if (!isStuck(order.createdAt, nowMs, startedAt)) continue;
      const match = closestUnclaimed(order, unclaimed);
      if (match) {
        unclaimed.delete(match.activationId);
        const issued = await repository.markIssued(order.id, {
          providerActivationId: match.activationId,
          phoneNumber: match.phoneNumber,
          now: clock.now(),
        });
        if (issued) {
          numbersChanged(orders, issued.userId);
          log.info(
            { orderId: order.id, activationId: match.activationId },
            'attached a stuck purchase to its upstream activation',
          );
          await settleListed(issued, match);
        }
      } else if (complete) {
        await refundActivation(orders, order, ['pending'], 'failed', 'not_issued');
      }
    }
  }

  async function cancelOrphans(unclaimed: Map<string, ActiveActivation>, nowMs: number) {
    for (const id of orphanFirstSeenAt.keys()) if (!unclaimed.has(id)) orphanFirstSeenAt.delete(id);
    for (const item of unclaimed.values()) {
      const firstSeen = orphanFirstSeenAt.get(item.activationId) ?? nowMs;
      orphanFirstSeenAt.set(item.activationId, firstSeen);
      if (nowMs - firstSeen < ORPHAN_CANCEL_MS || !budget.tryTake(ACTIVATIONS)) continue;
      await provider.cancelActivation(item.activationId).then(
        () => orphanFirstSeenAt.delete(item.activationId),
        (error: unknown) =>
          log.warn({ err: error, activationId: item.activationId }, 'could not cancel an orphan activation'),
      );
    }
  }

  return {
    /** One step of the job: sweep if due and within budget, then settle what the sweep showed. */
    async run(): Promise<void> {
      const nowMs = clock.now().getTime();
      const live = await repository.listLive(provider.name);
      if (live.length === 0 && orphanFirstSeenAt.size === 0) return;
      if (nowMs - lastSweepAt < MIN_SWEEP_INTERVAL_MS) return;
      lastSweepAt = nowMs;

      let result: Awaited<ReturnType<typeof sweep>>;
      try {
        result = await sweep();
      } catch (error) {
        log.warn({ err: error, provider: provider.name }, 'could not read the upstream activations');
        await settleByStatus(live, nowMs);
        await refundLongExpired(live, new Map(), nowMs);
        return;
      }
      if (result.complete) lastCompleteSweepStartedAt = result.startedAt;

      const listed = new Map(result.items.map((item) => [item.activationId, item]));
      const ours = new Set(
        live.map((order) => order.providerActivationId).filter((id): id is string => id !== null),
      );
      // Waiting orders the list no longer has, those at their end of life included: a code delivered in
      // their last seconds shows only in the provider's history.
      const gone = result.complete
        ? live.filter(
            (order) =>
              order.status === 'waiting' &&
              order.providerActivationId &&
              !listed.has(order.providerActivationId),
          )
        : [];
      const history = await recentHistory(gone);
      for (const order of live) {
        if (!order.providerActivationId) continue;
        const item = listed.get(order.providerActivationId);
        if (item) {
          await settleListed(order, item);
          // Its life ended with a code: the code is final, and the number is freed upstream at once.
          if (
            order.status === 'received' &&
            nowMs >= order.expiresAt.getTime() &&
            budget.tryTake(ACTIVATIONS)
          ) {
            await completeActivation(orders, order);
          }
          if (
            order.status === 'waiting' &&
            nowMs >= order.expiresAt.getTime() + EXPIRY_GRACE_MS &&
            item.codes.length === 0 &&
            budget.tryTake(ACTIVATIONS)
          ) {
            await endOverdue(order);
          } else if (
            order.status === 'waiting' &&
            order.givenBackAt &&
            item.codes.length === 0 &&
            budget.tryTake(ACTIVATIONS)
          ) {
            // Given back by the buyer before the provider allowed a cancel: cancelled now that it may.
            await cancelGivenBack(orders, order);
          }
        } else if (result.complete) {
          await settleGone(order, nowMs, history);
        }
      }

      const unclaimed = new Map<string, ActiveActivation>();
      for (const item of result.items) {
        if (ours.has(item.activationId)) continue;
        // Perhaps an order of an earlier run that is no longer live (refunded): it still is not ours to keep.
        const known = await repository.findByProviderActivationId(provider.name, item.activationId);
        if (!known) unclaimed.set(item.activationId, item);
        else if (known.status === 'completed') {
          // Finishing it when it completed failed: try again while the upstream still lists it.
          if (budget.tryTake(ACTIVATIONS)) await finishUpstream(orders, known);
        } else if (
          known.status !== 'waiting' &&
          known.status !== 'received' &&
          item.codes.length === 0 &&
          budget.tryTake(ACTIVATIONS)
        ) {
          await provider.cancelActivation(item.activationId).catch(() => {});
        }
      }
      await settlePending(
        live.filter((order) => order.status === 'pending'),
        unclaimed,
        result.complete,
        nowMs,
      );
      if (result.complete) await cancelOrphans(unclaimed, nowMs);
      else await refundLongExpired(live, listed, nowMs);
    },

    /** When the last sweep that read every page started (0 if none yet). */
    lastCompleteSweepStartedAt: () => lastCompleteSweepStartedAt,
  };
}
