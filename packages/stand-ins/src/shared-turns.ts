/**
 * When several processes serve the same stand-in from one database (two instances of a public demo behind
 * a load balancer), each keeps the stand-in's state in memory and in the database. The host hands over
 * this port so the processes take turns: one process at a time changes the state, and a process whose copy
 * is older than the database's reads it again first. Without it, two processes issue the same ids from
 * their own counters, and an order is known only to the process that issued it.
 */
export interface SharedTurnPort {
  /**
   * Waits until no other process is in a turn for this stand-in and starts one. `stale` when another
   * process has had a turn since this one's last, or this process has had none: its copy must be read
   * again. `end(kept)` ends the turn after its writes; `kept: false` when the turn failed, so the next one
   * reads everything again.
   */
  begin(): Promise<{ stale: boolean; end(kept: boolean): Promise<void> }>;
  /** Whether another process has had a turn since this one's last; a cheap read outside any turn. */
  changedElsewhere(): Promise<boolean>;
}

import type { FastifyInstance } from 'fastify';

/**
 * Turns for one stand-in: one at a time in this process (so at most one of its database connections waits
 * for the others' turns), the shared port's across processes. Without a port (an embedded database has a
 * single process) a turn is the work and its write; turns then overlap, as requests do.
 */
export class SharedTurns {
  /** Settles when this process's last turn has ended. */
  #last: Promise<void> = Promise.resolve();

  constructor(
    private readonly port: SharedTurnPort | undefined,
    /** Reads the whole state again from the database. */
    private readonly reload: () => Promise<void>,
    /** Writes what the turn changed; resolves once it is stored. */
    private readonly persist: () => Promise<void>,
  ) {}

  get shared(): boolean {
    return this.port !== undefined;
  }

  /**
   * Starts a turn (after this process's previous one) and returns its end, which stores what the turn
   * changed when `kept` (a failed turn is not stored, and the next one reads everything again). Ending
   * twice is harmless: an HTTP request ends its turn when its answer is sent or when it is abandoned.
   */
  async enter(): Promise<(kept: boolean) => Promise<void>> {
    const { port } = this;
    if (!port) {
      return async (kept) => {
        if (kept) await this.persist();
      };
    }
    const previous = this.#last;
    let release!: () => void;
    this.#last = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    let turn: Awaited<ReturnType<SharedTurnPort['begin']>> | undefined;
    try {
      turn = await port.begin();
      if (turn.stale) await this.reload();
    } catch (error) {
      await turn?.end(false).catch(() => {});
      release();
      throw error;
    }
    const started = turn;
    let ended = false;
    return async (kept) => {
      if (ended) return;
      ended = true;
      let stored = false;
      try {
        if (kept) await this.persist();
        stored = kept;
      } finally {
        try {
          await started.end(stored);
        } finally {
          release();
        }
      }
    };
  }

  /** Runs `work` in a turn and stores what it changed before the turn ends. */
  async run<T>(work: () => Promise<T> | T): Promise<T> {
    const end = await this.enter();
    let result: T;
    try {
      result = await work();
    } catch (error) {
      await end(false);
      throw error;
    }
    await end(true);
    return result;
  }

  /** Whether another process has changed the state since this one's last turn (false without a port). */
  changedElsewhere(): Promise<boolean> {
    return this.port ? this.port.changedElsewhere() : Promise.resolve(false);
  }
}

/**
 * Makes each request of a stand-in's routes a turn, from its handler (once its body is read) to its answer:
 * what an answer acknowledges is stored before it leaves. A request abandoned on the way ends its turn
 * unstored.
 */
export function turnPerRequest(app: FastifyInstance, turns: SharedTurns): void {
  const ends = new WeakMap<object, (kept: boolean) => Promise<void>>();
  app.addHook('preHandler', async (request) => {
    ends.set(request, await turns.enter());
  });
  app.addHook('onSend', async (request, _reply, payload) => {
    await ends.get(request)?.(true);
    return payload;
  });
  const abandon = async (request: object) => ends.get(request)?.(false);
  app.addHook('onResponse', abandon);
  app.addHook('onRequestAbort', abandon);
}
