/**
 * Collects the keys of records changed since the last save and writes them in one batch. Saves never
 * overlap, and a caller joins the next save that has not started yet, so a burst of concurrent requests
 * costs a few writes, and each caller's promise resolves only once its own changes are stored.
 */
export class ChangeBatcher<Key> {
  #pending = new Set<Key>();
  #queued: Promise<void> | null = null;
  #last: Promise<void> = Promise.resolve();

  constructor(private readonly write: (keys: ReadonlySet<Key>) => Promise<void>) {}

  mark(key: Key): void {
    this.#pending.add(key);
  }

  /** Resolves once every change marked before the call is stored; rejects when its write failed. */
  save(): Promise<void> {
    if (this.#queued) return this.#queued;
    // Nothing new: a write in flight may still hold the caller's earlier changes.
    if (this.#pending.size === 0) return this.#last;
    const run = this.#last.then(async () => {
      this.#queued = null;
      const keys = this.#pending;
      this.#pending = new Set();
      try {
        await this.write(keys);
      } catch (error) {
        // Still unsaved: the next save tries them again.
        for (const key of keys) this.#pending.add(key);
        throw error;
      }
    });
    this.#queued = run;
    this.#last = run.catch(() => {});
    return run;
  }
}
