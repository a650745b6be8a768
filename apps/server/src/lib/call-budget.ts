import type { Clock } from './clock';

/**
 * At most `perMinute` calls in any 60-second window: the background sync's allowance of upstream calls.
 * It bounds what we ask of the upstream by configuration, whatever the number of orders or of users polling.
 */
export class CallBudget {
  readonly #callTimesMs: number[] = [];
  #used = 0;

  constructor(
    readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  #prune(nowMs: number): void {
    while (this.#callTimesMs.length > 0 && this.#callTimesMs[0]! <= nowMs - 60_000) this.#callTimesMs.shift();
  }

  /** Takes one call from the budget if the last minute leaves room. */
  tryTake(): boolean {
    const nowMs = this.clock.now().getTime();
    this.#prune(nowMs);
    if (this.#callTimesMs.length >= this.perMinute) return false;
    this.#callTimesMs.push(nowMs);
    this.#used += 1;
    return true;
  }

  remaining(): number {
    this.#prune(this.clock.now().getTime());
    return this.perMinute - this.#callTimesMs.length;
  }

  /** Calls taken since start, for metrics and benchmarks. */
  get used(): number {
    return this.#used;
  }
}
