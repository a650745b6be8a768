import type { Clock } from '../clock';
import type { StandInLogger } from '../logger';

/** A non-2xx answer is retried this many times, 1 s, 2 s, 4 s, ... apart (on the simulator's clock). */
const WEBHOOK_RETRIES = 5;
const FIRST_RETRY_DELAY_MS = 1000;
/** Hero gives receivers 3 seconds; a slower receiver counts as a failure. */
const WEBHOOK_TIMEOUT_MS = 3000;

interface PendingPush {
  url: string;
  body: unknown;
  failures: number;
  dueAtMs: number;
  inFlight: boolean;
}

/**
 * Pushes SMS to webhook receivers. Requests run in the background, so a slow or dead receiver never
 * holds up the delivery loop; retries are scheduled on the injected clock, like everything else.
 */
export class WebhookPusher {
  #queue = new Set<PendingPush>();
  #stopping = new AbortController();

  constructor(
    private readonly clock: Clock,
    private readonly logger?: StandInLogger,
  ) {}

  push(url: string, body: unknown): void {
    this.#queue.add({ url, body, failures: 0, dueAtMs: this.clock.now().getTime(), inFlight: false });
    this.process();
  }

  /** Starts every push that is due; never waits for one. */
  process(): void {
    const now = this.clock.now().getTime();
    for (const pending of this.#queue) {
      if (!pending.inFlight && pending.dueAtMs <= now) void this.#send(pending);
    }
  }

  /** Drops what is queued and aborts what is under way; pushing again afterwards works. */
  stop(): void {
    this.#stopping.abort();
    this.#stopping = new AbortController();
    this.#queue.clear();
  }

  async #send(pending: PendingPush): Promise<void> {
    const stopping = this.#stopping.signal;
    pending.inFlight = true;
    let delivered = false;
    try {
      const response = await fetch(pending.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(pending.body),
        signal: AbortSignal.any([stopping, AbortSignal.timeout(WEBHOOK_TIMEOUT_MS)]),
      });
      delivered = response.ok;
      await response.body?.cancel();
    } catch {
      // Refused, reset or too slow: the same as a non-2xx answer.
    }
    pending.inFlight = false;
    if (delivered || stopping.aborted) {
      this.#queue.delete(pending);
      return;
    }
    pending.failures += 1;
    if (pending.failures > WEBHOOK_RETRIES) {
      this.#queue.delete(pending);
      this.logger?.warn({ failures: pending.failures }, 'simulator webhook dropped after retries');
      return;
    }
    pending.dueAtMs = this.clock.now().getTime() + FIRST_RETRY_DELAY_MS * 2 ** (pending.failures - 1);
  }
}
