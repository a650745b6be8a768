import { CallBudget } from '../../lib/call-budget';
import type { Clock } from '../../lib/clock';

/** A pending order older than this is stuck: its buy call crashed or timed out. */
export const PENDING_SETTLE_MS = 60_000;
/** An upstream order we have no record of is cancelled after this long (it costs us otherwise). */
export const ORPHAN_CANCEL_MS = 5 * 60_000;

/** The activations' name in the shared upstream budget. */
export const ACTIVATIONS_BUDGET = 'activations';
/**
 * Share of the shared upstream budget the activations always hold: their 20 minutes run out fast, so a
 * fresh purchase's sweep must find calls at once, however busy the rentals' sync is.
 */
const ACTIVATION_CLAIM_SHARE = 0.3;

/** The shared budget of a provider's background upstream calls, with the activations' share held for them. */
export function createUpstreamBudget(perMinute: number, clock: Clock): CallBudget {
  const budget = new CallBudget(perMinute, clock);
  budget.claim(ACTIVATIONS_BUDGET, Math.floor(perMinute * ACTIVATION_CLAIM_SHARE), Number.POSITIVE_INFINITY);
  return budget;
}

/** A pending purchase is stuck when its buy call is long over, or when it was left by an earlier process. */
export function isStuck(createdAt: Date, nowMs: number, startedAt: Date | undefined): boolean {
  return (
    nowMs - createdAt.getTime() >= PENDING_SETTLE_MS || (startedAt !== undefined && createdAt < startedAt)
  );
}
