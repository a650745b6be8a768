import type { Clock } from '../../lib/clock';

/** How a purchase call at a provider ended, as routing counts it. */
export type CallOutcome =
  /** A number was issued. */
  | 'ok'
  /** A clean refusal for this choice (no numbers, price above our ceiling): the provider itself is fine. */
  | 'no_numbers'
  /** Errors, timeouts, garbage: the provider is failing. */
  | 'error';

export interface HealthOptions {
  clock: Clock;
  /** Failed calls in a row that take a provider out of routing. */
  failuresToCool: number;
  /** How long it stays out; then the next purchase that routes to it is its probe. */
  cooldownMs: number;
  /** Told of every purchase call (the metrics). */
  onCall?: (provider: string, outcome: CallOutcome, latencyMs: number) => void;
}

/** Calls kept per provider for the rolling rates. */
const CALL_WINDOW = 100;
/** Deliveries kept per provider and per (provider, service, country). */
const DELIVERY_WINDOW = 200;
/** A pair's own record speaks for it from this many orders on; before, the provider's does. */
const PAIR_MIN_SAMPLES = 10;
/** Failed calls' messages kept per provider, for the console. */
const ERROR_WINDOW = 20;
/** A provider that just answered "no numbers" for a pair is not asked for it again for this long. */
const NO_NUMBERS_MEMORY_MS = 60_000;

interface CallRecord {
  outcome: CallOutcome;
  latencyMs: number;
  atMs: number;
}

interface DeliveryRecord {
  delivered: boolean;
  /** Purchase to first code; only for delivered ones. */
  timeToCodeMs: number;
  /** When it was recorded: records older than the shared figures are counted in them already. */
  atMs: number;
}

/** Every instance's deliveries over a window, as the delivery-stats job stores them. */
export interface SharedDelivery {
  provider: string;
  /** `*` for the provider overall. */
  service: string;
  countryId: string;
  orders: number;
  delivered: number;
  medianTimeToCodeMs: number | null;
}

/** Counts that combine: shared figures plus this process's deliveries since they were computed. */
interface DeliveryTally {
  orders: number;
  delivered: number;
  timeToCodeMs: number | null;
}

interface ProviderRecord {
  calls: CallRecord[];
  deliveries: DeliveryRecord[];
  pairDeliveries: Map<string, DeliveryRecord[]>;
  /** Pair → when its last "no numbers" answer came. */
  noNumbersAt: Map<string, number>;
  failuresInARow: number;
  coolUntilMs: number;
  /** The last failed calls, newest last. */
  errors: Array<{ atMs: number; message: string }>;
  /** When it last refused to cancel a number because it was too soon after the purchase. */
  earlyCancelRefusedAtMs: number;
}

/** A provider that refused an early cancel within this long is taken to keep refusing them. */
const EARLY_CANCEL_MEMORY_MS = 24 * 60 * 60_000;

/** What routing and the health page read of one provider. */
export interface HealthSnapshot {
  provider: string;
  calls: number;
  averageLatencyMs: number | null;
  errorRate: number;
  noNumbersRate: number;
  /** Share of settled orders that got a code, smoothed toward 1/2 while there is little data. */
  deliveryRate: number;
  /** The median over every instance's orders of the last 7 days, else this process's recent average. */
  averageTimeToCodeMs: number | null;
  coolingUntil: Date | null;
  /** The last failed calls, newest first. */
  recentErrors: Array<{ at: Date; message: string }>;
}

function push<T>(list: T[], item: T, limit: number): void {
  list.push(item);
  if (list.length > limit) list.shift();
}

/** Laplace's rule: no data reads as 50 %, so a new provider is neither favoured nor shunned. */
function smoothedRate({ orders, delivered }: DeliveryTally): number {
  return (delivered + 1) / (orders + 2);
}

/**
 * The shared figures (the median over every instance) plus this process's newer records. Their time is the
 * shared median while there is one: a median and a handful of recent times do not average honestly.
 */
function tally(
  shared: SharedDelivery | undefined,
  records: readonly DeliveryRecord[],
  sinceMs: number,
): DeliveryTally {
  const recent = records.filter((record) => record.atMs > sinceMs);
  const times = recent.filter((record) => record.delivered).map((record) => record.timeToCodeMs);
  return {
    orders: (shared?.orders ?? 0) + recent.length,
    delivered: (shared?.delivered ?? 0) + times.length,
    timeToCodeMs:
      shared?.medianTimeToCodeMs ??
      (times.length === 0 ? null : times.reduce((sum, time) => sum + time, 0) / times.length),
  };
}

const pairKey = (service: string, countryId: string) => `${service}:${countryId}`;
const ALL = '*';

/**
 * The rolling health record of each provider: purchase calls (latency, errors, "no numbers") in this
 * process's memory, and deliveries (share of orders that got a code, time to code) per provider and per
 * (service, country), shared by every instance through the database (`useSharedDeliveries`) plus this
 * process's own since the last shared figures. Calls stay per process: a cool-down reacts within seconds
 * to what this instance sees of the provider. A provider whose calls fail `failuresToCool` times in a row is
 * taken out of routing for `cooldownMs`; afterwards the next purchase routed to it is a probe: one success
 * brings it back, one failure cools it again.
 */
export class ProviderHealth {
  readonly #records = new Map<string, ProviderRecord>();
  /** `provider|service:country` (or `provider|*:*`) → every instance's deliveries, from the database. */
  #shared = new Map<string, SharedDelivery>();
  #sharedAtMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly options: HealthOptions) {}

  #record(provider: string): ProviderRecord {
    let record = this.#records.get(provider);
    if (!record) {
      record = {
        calls: [],
        deliveries: [],
        pairDeliveries: new Map(),
        noNumbersAt: new Map(),
        failuresInARow: 0,
        coolUntilMs: 0,
        errors: [],
        earlyCancelRefusedAtMs: Number.NEGATIVE_INFINITY,
      };
      this.#records.set(provider, record);
    }
    return record;
  }

  #nowMs(): number {
    return this.options.clock.now().getTime();
  }

  /** The clock routing decisions are timed by. */
  now(): Date {
    return this.options.clock.now();
  }

  recordCall(
    provider: string,
    outcome: CallOutcome,
    latencyMs: number,
    pair?: { service: string; countryId: string },
    /** What went wrong, for a failed call: shown to operators, never to users. */
    errorMessage?: string,
  ): void {
    this.options.onCall?.(provider, outcome, latencyMs);
    const record = this.#record(provider);
    push(record.calls, { outcome, latencyMs, atMs: this.#nowMs() }, CALL_WINDOW);
    if (outcome === 'error' && errorMessage)
      push(record.errors, { atMs: this.#nowMs(), message: errorMessage }, ERROR_WINDOW);
    if (pair) {
      const key = pairKey(pair.service, pair.countryId);
      if (outcome === 'no_numbers') record.noNumbersAt.set(key, this.#nowMs());
      // A number sold for the pair (at the minimum price it named, say) ends the "no numbers" memory.
      else if (outcome === 'ok') record.noNumbersAt.delete(key);
    }
    if (outcome === 'error') {
      record.failuresInARow += 1;
      if (record.failuresInARow >= this.options.failuresToCool)
        record.coolUntilMs = this.#nowMs() + this.options.cooldownMs;
    } else {
      // Any answer that is not a failure is the provider working (a probe that passed included).
      record.failuresInARow = 0;
      record.coolUntilMs = 0;
    }
  }

  /** The provider refused to cancel a number because it was too soon after the purchase. */
  recordEarlyCancelRefused(provider: string): void {
    this.#record(provider).earlyCancelRefusedAtMs = this.#nowMs();
  }

  /** Whether the provider lets a number be cancelled right after the purchase, as far as we have seen. */
  cancelsAtOnce(provider: string): boolean {
    return this.#nowMs() - this.#record(provider).earlyCancelRefusedAtMs > EARLY_CANCEL_MEMORY_MS;
  }

  /** An order of this provider ended: with a code (`timeToCodeMs` from purchase) or refunded without one. */
  recordDelivery(
    provider: string,
    pair: { service: string; countryId: string },
    delivered: boolean,
    timeToCodeMs = 0,
  ): void {
    const record = this.#record(provider);
    const entry = { delivered, timeToCodeMs, atMs: this.#nowMs() };
    push(record.deliveries, entry, DELIVERY_WINDOW);
    const key = pairKey(pair.service, pair.countryId);
    const pairRecords = record.pairDeliveries.get(key) ?? [];
    push(pairRecords, entry, DELIVERY_WINDOW);
    record.pairDeliveries.set(key, pairRecords);
  }

  /**
   * Takes every instance's delivery figures (computed at `computedAt`): from then on they speak for the
   * deliveries up to that moment, and this process's own records only for those after it.
   */
  useSharedDeliveries(rows: readonly SharedDelivery[], computedAt: Date): void {
    this.#shared = new Map(
      rows.map((row) => [`${row.provider}|${pairKey(row.service, row.countryId)}`, row]),
    );
    this.#sharedAtMs = computedAt.getTime();
  }

  #providerTally(provider: string): DeliveryTally {
    return tally(
      this.#shared.get(`${provider}|${pairKey(ALL, ALL)}`),
      this.#records.get(provider)?.deliveries ?? [],
      this.#sharedAtMs,
    );
  }

  isCooling(provider: string): boolean {
    return this.#nowMs() < (this.#records.get(provider)?.coolUntilMs ?? 0);
  }

  /** True for a short while after the provider answered "no numbers" for this pair. */
  recentlyOutOf(provider: string, service: string, countryId: string): boolean {
    const at = this.#records.get(provider)?.noNumbersAt.get(pairKey(service, countryId));
    return at !== undefined && this.#nowMs() - at < NO_NUMBERS_MEMORY_MS;
  }

  /** Delivery for the pair where it has enough orders, else the provider's overall. */
  delivery(
    provider: string,
    service: string,
    countryId: string,
  ): { rate: number; timeToCodeMs: number | null } {
    const key = pairKey(service, countryId);
    const pair = tally(
      this.#shared.get(`${provider}|${key}`),
      this.#records.get(provider)?.pairDeliveries.get(key) ?? [],
      this.#sharedAtMs,
    );
    const figures = pair.orders >= PAIR_MIN_SAMPLES ? pair : this.#providerTally(provider);
    return { rate: smoothedRate(figures), timeToCodeMs: figures.timeToCodeMs };
  }

  /** This process's purchase calls to the provider since `sinceMs` (of its last hundred): how many failed. */
  callsSince(provider: string, sinceMs: number): { calls: number; errors: number } {
    const calls = (this.#records.get(provider)?.calls ?? []).filter((call) => call.atMs >= sinceMs);
    return { calls: calls.length, errors: calls.filter((call) => call.outcome === 'error').length };
  }

  errorRate(provider: string): number {
    const calls = this.#records.get(provider)?.calls ?? [];
    return calls.length === 0 ? 0 : calls.filter((call) => call.outcome === 'error').length / calls.length;
  }

  snapshot(provider: string): HealthSnapshot {
    const record = this.#records.get(provider);
    const calls = record?.calls ?? [];
    const share = (outcome: CallOutcome) =>
      calls.length === 0 ? 0 : calls.filter((call) => call.outcome === outcome).length / calls.length;
    const coolUntilMs = record?.coolUntilMs ?? 0;
    const deliveries = this.#providerTally(provider);
    return {
      provider,
      calls: calls.length,
      averageLatencyMs:
        calls.length === 0 ? null : calls.reduce((sum, call) => sum + call.latencyMs, 0) / calls.length,
      errorRate: share('error'),
      noNumbersRate: share('no_numbers'),
      deliveryRate: smoothedRate(deliveries),
      averageTimeToCodeMs: deliveries.timeToCodeMs,
      coolingUntil: coolUntilMs > this.#nowMs() ? new Date(coolUntilMs) : null,
      recentErrors: (record?.errors ?? [])
        .map((error) => ({ at: new Date(error.atMs), message: error.message }))
        .reverse(),
    };
  }
}
