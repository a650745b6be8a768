/** Time as a dependency: the stand-ins read it only from here, so tests move it by hand. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
