import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import type { CallOutcome } from './health';
import type { ProviderPool } from './pool';
import { UpstreamError } from './types';

/** A provider a held order may be placed with, and the most it may charge there (in its currency). */
export interface Candidate {
  provider: string;
  upstreamCost: number;
}

/** One call made while placing an order, for the order's history. */
export interface PlacementAttempt {
  provider: string;
  /** The ceiling asked for, in the provider's currency. */
  upstreamCost: number;
  at: Date;
  latencyMs: number;
  /** `ok`, or the refusal's or failure's token. */
  outcome: string;
  /** The error's sentence, for a failed call. */
  detail?: string;
}

/** How placing a held order ended. */
type Outcome<T> =
  /** A provider issued it. */
  | { kind: 'placed'; value: T; provider: string }
  /** Every candidate refused cleanly: the order is to be refunded, with the last refusal's reason. */
  | { kind: 'refused'; error: UpstreamError }
  /** The last candidate's outcome is unknown (or an unexpected error): the reconciler settles it there. */
  | { kind: 'unknown'; provider: string; error: unknown }
  /** The order left `pending` meanwhile (the reconciler settled it): nothing is left to place. */
  | { kind: 'superseded' };

/** How placing a held order ended, and every call made on the way. */
export type Placement<T> = Outcome<T> & { attempts: PlacementAttempt[] };

/** A provider that answered NO_BALANCE is left out this long, then probed, unless a reading decides first. */
export const NO_BALANCE_PROBE_MS = 60_000;

/** A clean refusal says nothing against the provider itself; anything else counts toward its cool-down. */
function callOutcomeOf(error: UpstreamError): CallOutcome {
  return error.kind === 'no_numbers' || error.kind === 'bad_request' ? 'no_numbers' : 'error';
}

interface FailoverOptions<T> {
  candidates: readonly Candidate[];
  pool: ProviderPool;
  pair: { service: string; countryId: string };
  /** What is placed, for the logs: `purchase` or `rent`, and the order's id. */
  what: string;
  orderId: number;
  log: FastifyBaseLogger;
  clock: Clock;
  /** Points the held order at the next candidate; false when it is not pending any more. */
  moveTo(candidate: Candidate): Promise<boolean>;
  place(candidate: Candidate): Promise<T>;
  /** Whether a provider that named its minimum price (WRONG_MAX_PRICE:<min>) is asked once more at it. */
  mayRetryAt?(provider: string, minimum: number): boolean;
}

/**
 * Places one held order (the money taken once) with each candidate in routing order until one issues it
 * (ADR 0017). A clean refusal, an error, garbage or a timeout moves on; an outcome that is unknown at the
 * last candidate is left to the reconciler there, while earlier in the list a number that provider may have
 * issued is nobody's order and its sweep cancels it as an orphan. Every call is recorded in the pool's
 * health.
 */
export async function placeWithFailover<T>(options: FailoverOptions<T>): Promise<Placement<T>> {
  const { pool, pair, log } = options;
  const attempts: Candidate[] = [...options.candidates];
  const askedAtMinimum = new Set<string>();
  const made: PlacementAttempt[] = [];
  const note = (candidate: Candidate, at: Date, latencyMs: number, outcome: string, detail?: string) =>
    made.push({ ...candidate, at, latencyMs: Math.round(latencyMs), outcome, detail });
  let previous: Candidate | undefined;
  let lastError: UpstreamError | undefined;
  for (let index = 0; index < attempts.length; index += 1) {
    const candidate = attempts[index]!;
    const { provider } = candidate;
    if (previous) {
      if (!(await options.moveTo(candidate))) return { kind: 'superseded', attempts: made };
      log.info(
        { orderId: options.orderId, from: previous.provider, to: provider, reason: lastError?.token },
        `${options.what} trying the next offer`,
      );
    }
    previous = candidate;
    const at = options.clock.now();
    const startedAtMs = performance.now();
    try {
      const value = await options.place(candidate);
      const latencyMs = performance.now() - startedAtMs;
      pool.health.recordCall(provider, 'ok', latencyMs, pair);
      pool.markFunded(provider);
      note(candidate, at, latencyMs, 'ok');
      return { kind: 'placed', value, provider, attempts: made };
    } catch (error) {
      const latencyMs = performance.now() - startedAtMs;
      if (!(error instanceof UpstreamError)) {
        pool.health.recordCall(provider, 'error', latencyMs, pair, String(error));
        note(candidate, at, latencyMs, 'error', String(error));
        log.warn({ err: error, orderId: options.orderId, provider }, `${options.what} failed unexpectedly`);
        return { kind: 'unknown', provider, error, attempts: made };
      }
      pool.health.recordCall(provider, callOutcomeOf(error), latencyMs, pair, error.message);
      // An empty account refuses every purchase: it leaves routing until a balance reading shows a top-up,
      // or, on this answer alone, until a probe a while later sells a number.
      if (error.kind === 'no_balance') pool.markOutOfBalance(provider, at, NO_BALANCE_PROBE_MS);
      note(candidate, at, latencyMs, error.token, error.userMessage);
      lastError = error;
      const minimum = error.minPrice;
      if (minimum !== undefined && !askedAtMinimum.has(provider) && options.mayRetryAt?.(provider, minimum)) {
        askedAtMinimum.add(provider);
        attempts.splice(index + 1, 0, { provider, upstreamCost: minimum });
        continue;
      }
      if (index === attempts.length - 1 && error.outcomeUnknown)
        return { kind: 'unknown', provider, error, attempts: made };
    }
  }
  return { kind: 'refused', error: lastError!, attempts: made };
}
