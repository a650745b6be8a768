import type { UserEvent, UserEventBus } from '../db/user-events';
import type { Clock } from './clock';

/**
 * Values derived from one user's data (identity, order statuses, the dashboard summary), kept in memory
 * for the endpoints clients poll. Entries are dropped when an event says the user's data changed, here or
 * on another instance; the time-to-live only bounds how stale a value can get if an event were lost.
 */
export class UserCache<Value> {
  readonly #entries = new Map<string, { value: Value; storedAtMs: number }>();
  readonly #keysByUser = new Map<number, Set<string>>();
  /**
   * Loads in flight per user. An event that arrives while one runs may describe a change the load did not
   * see (it read before the change committed): such a load's value is answered but not kept.
   */
  readonly #loading = new Map<number, Set<{ stale: boolean }>>();

  constructor(
    private readonly options: {
      clock: Clock;
      ttlMs: number;
      /** Oldest entries go first past this size. */
      maxEntries: number;
      events: UserEventBus;
      /** Which events make a user's entries stale. */
      invalidatedBy: (event: UserEvent) => boolean;
    },
  ) {
    options.events.subscribeAll((event) => {
      if (options.invalidatedBy(event)) this.invalidateUser(event.userId);
    });
    // Events from other instances may have been missed: nothing cached can be trusted.
    options.events.onResync(() => {
      this.#entries.clear();
      this.#keysByUser.clear();
      for (const loads of this.#loading.values()) for (const load of loads) load.stale = true;
    });
  }

  get(userId: number, key: string): Value | undefined {
    const id = `${userId}:${key}`;
    const entry = this.#entries.get(id);
    if (!entry) return undefined;
    if (this.options.clock.now().getTime() - entry.storedAtMs >= this.options.ttlMs) {
      this.#entries.delete(id);
      return undefined;
    }
    return entry.value;
  }

  set(userId: number, key: string, value: Value): void {
    const id = `${userId}:${key}`;
    this.#entries.delete(id);
    this.#entries.set(id, { value, storedAtMs: this.options.clock.now().getTime() });
    let keys = this.#keysByUser.get(userId);
    if (!keys) {
      keys = new Set();
      this.#keysByUser.set(userId, keys);
    }
    keys.add(id);
    while (this.#entries.size > this.options.maxEntries) {
      const oldest = this.#entries.keys().next().value!;
      this.#entries.delete(oldest);
      this.#keysByUser.get(Number(oldest.slice(0, oldest.indexOf(':'))))?.delete(oldest);
    }
  }

  /** Reads through the cache: the loader runs only when there is no fresh value. */
  async getOrLoad(userId: number, key: string, load: () => Promise<Value>): Promise<Value> {
    const cached = this.get(userId, key);
    if (cached !== undefined) return cached;
    const ticket = { stale: false };
    let loads = this.#loading.get(userId);
    if (!loads) {
      loads = new Set();
      this.#loading.set(userId, loads);
    }
    loads.add(ticket);
    let value: Value;
    try {
      value = await load();
    } finally {
      loads.delete(ticket);
      if (loads.size === 0 && this.#loading.get(userId) === loads) this.#loading.delete(userId);
    }
    if (!ticket.stale) this.set(userId, key, value);
    return value;
  }

  invalidateUser(userId: number): void {
    for (const load of this.#loading.get(userId) ?? []) load.stale = true;
    const keys = this.#keysByUser.get(userId);
    if (!keys) return;
    for (const id of keys) this.#entries.delete(id);
    this.#keysByUser.delete(userId);
  }
}
