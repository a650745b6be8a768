import type { Clock } from '../../src/clock';

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  #nowMs: number;
  constructor(startMs: number) {
    this.#nowMs = startMs;
  }
  now(): Date {
    return new Date(this.#nowMs);
  }
  advance(ms: number): void {
    this.#nowMs += ms;
  }
}
