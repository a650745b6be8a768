import type { Clock } from './clock';

const WINDOW_MS = 60_000;

/**
 * At most `perMinute` calls in any 60-second window: the background sync's allowance of upstream calls.
 * It bounds what we ask of the upstream by configuration, whatever the number of orders or of users polling.
 *
 * Several jobs share it. A job with work waiting can claim a share (`claim`): for the next minute the
 * others leave it that many calls, so a job with a lot to do (a thousand live orders to sweep) cannot
 * starve another (the rents' SMS reads). Unclaimed calls go to whoever asks first.
 */
export class CallBudget {
  readonly #calls: Array<{ atMs: number; owner: string }> = [];
  readonly #claims = new Map<string, { calls: number; untilMs: number }>();
  #used = 0;

  constructor(
    readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  #prune(nowMs: number): void {
    while (this.#calls.length > 0 && this.#calls[0]!.atMs <= nowMs - WINDOW_MS) this.#calls.shift();
  }

  /** Keeps `calls` a minute for `owner` for the next `forMs` (a minute unless told); renewed by claiming again. */
  claim(owner: string, calls: number, forMs = WINDOW_MS): void {
    this.#claims.set(owner, { calls, untilMs: this.clock.now().getTime() + forMs });
  }

  /** Calls `owner` may still take in the current window: what is left, less others' unused claims. */
  remaining(owner = ''): number {
    const nowMs = this.clock.now().getTime();
    this.#prune(nowMs);
    let heldForOthers = 0;
    for (const [claimant, claim] of this.#claims) {
      if (claimant === owner || claim.untilMs <= nowMs) continue;
      const usedByClaimant = this.#calls.filter((call) => call.owner === claimant).length;
      heldForOthers += Math.max(0, claim.calls - usedByClaimant);
    }
    return Math.max(0, this.perMinute - this.#calls.length - heldForOthers);
  }

  /** Takes one call from the budget for `owner` if the last minute leaves room. */
  tryTake(owner = ''): boolean {
    if (this.remaining(owner) <= 0) return false;
    this.#calls.push({ atMs: this.clock.now().getTime(), owner });
    this.#used += 1;
    return true;
  }

  /** Calls taken since start, for metrics and benchmarks. */
  get used(): number {
    return this.#used;
  }
}
