/** Time as a dependency, so rules about lifetimes and windows are testable without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; used by tests. */
export class ManualClock implements Clock {
  #nowMs: number;
  constructor(start: Date | number = Date.UTC(2026, 0, 1)) {
    this.#nowMs = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.#nowMs);
  }
  advance(ms: number): void {
    this.#nowMs += ms;
  }
  set(time: Date | number): void {
    this.#nowMs = typeof time === 'number' ? time : time.getTime();
  }
}
