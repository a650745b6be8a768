import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { DashboardEventType } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { DatabaseHandle } from './client';

export const USER_EVENTS_CHANNEL = 'simcode_user_events';

/**
 * `account` means the user row itself changed (role, token version, deletion): cached identities must be
 * dropped. A database trigger sends it, so no code path (the admin command included) can forget to.
 * `tickets` means one of the user's support tickets changed (a new one, a message, a status, a deletion):
 * their cached first page of tickets is dropped. `settings` means a preference of the account changed
 * (its language, one-click buying): the user's other pages read the account again.
 */
export type UserEventType = DashboardEventType | 'account' | 'api-keys' | 'tickets' | 'settings';

export interface UserEvent {
  userId: number;
  type: UserEventType;
  /** The one-time order that changed (`numbers`), and its new code when that is the change. */
  orderId?: number;
  code?: string | null;
  /** The rent that changed (`rents`). */
  rentId?: number;
  /** The API key the order or rent was bought through, when it was (for the key's own event stream). */
  apiKeyId?: number | null;
}

/**
 * Tells whoever cares that something of a user changed: their open pages (server-sent events) and the
 * in-memory caches of every instance. An event is applied in this process at once and sent to the other
 * instances with PostgreSQL NOTIFY (PGlite listens too), in batches, outside any transaction: a
 * transaction that issues NOTIFY commits under a global lock, one at a time, which would make every
 * purchase wait for the previous one's disk flush.
 */
export interface UserEventBus {
  publish(event: UserEvent): void;
  subscribe(userId: number, listener: (event: UserEvent) => void): () => void;
  /** Every user's events, for caches. */
  subscribeAll(listener: (event: UserEvent) => void): () => void;
  /**
   * Called when events from other instances may have been missed (the LISTEN connection was lost and is
   * back): what was derived from them must be dropped and read again.
   */
  onResync(listener: () => void): () => void;
  /** The LISTEN connection on PostgreSQL (`undefined` on the embedded database, which has no other instance). */
  listenerState(): 'up' | 'down' | undefined;
  close(): Promise<void>;
}

/** What travels on the channel: a batch from an instance, or one event from a database trigger. */
type Notification = { origin: string; events: UserEvent[] } | UserEvent;

const ALL = 'all';
const RESYNC = 'resync';
/** Reconnection attempts of the LISTEN connection back off from the first to the last. */
const LISTEN_RETRY_FIRST_MS = 250;
const LISTEN_RETRY_MAX_MS = 10_000;
/** Events are gathered this long before one NOTIFY carries them all. */
const BATCH_WINDOW_MS = 50;
/** NOTIFY payloads must stay under 8000 bytes; an event takes about 30, 70 with an order and its code. */
const EVENTS_PER_NOTIFY = 100;

export async function createUserEventBus(
  database: DatabaseHandle,
  log: FastifyBaseLogger,
): Promise<UserEventBus> {
  const instanceId = randomUUID();
  const local = new EventEmitter();
  local.setMaxListeners(0);
  const deliver = (event: UserEvent) => {
    local.emit(ALL, event);
    local.emit(String(event.userId), event);
  };
  const onNotification = (payload: string | undefined) => {
    try {
      const notification = JSON.parse(payload ?? '') as Notification;
      if ('events' in notification) {
        // Our own batches were delivered here when published.
        if (notification.origin !== instanceId) for (const event of notification.events) deliver(event);
      } else if (Number.isInteger(notification.userId)) {
        deliver(notification);
      }
    } catch {
      // A malformed notification is not ours to act on.
    }
  };

  let stopListening: () => Promise<void>;
  let notify: (payload: string) => Promise<unknown>;
  let listenerState: () => 'up' | 'down' | undefined = () => undefined;
  if (database.pglite) {
    const { pglite } = database;
    stopListening = await pglite.listen(USER_EVENTS_CHANNEL, onNotification);
    notify = (payload) => pglite.query('select pg_notify($1, $2)', [USER_EVENTS_CHANNEL, payload]);
  } else {
    const pool = database.pool!;
    const listener = await listenWithReconnect({
      connectionString: pool.options.connectionString!,
      applicationName: pool.options.application_name,
      onNotification,
      // Whatever was sent while the connection was down is lost: every cache and stream starts over.
      onResync: () => local.emit(RESYNC),
      log,
    });
    stopListening = listener.stop;
    listenerState = listener.state;
    notify = (payload) => pool.query('select pg_notify($1, $2)', [USER_EVENTS_CHANNEL, payload]);
  }

  // Pending events for the other instances, one per user, kind and order.
  const outbox = new Map<string, UserEvent>();
  let flushTimer: NodeJS.Timeout | undefined;
  async function flush(): Promise<void> {
    flushTimer = undefined;
    const events = [...outbox.values()];
    outbox.clear();
    for (let start = 0; start < events.length; start += EVENTS_PER_NOTIFY) {
      const batch = events.slice(start, start + EVENTS_PER_NOTIFY);
      await notify(JSON.stringify({ origin: instanceId, events: batch })).catch((error: unknown) =>
        log.warn({ err: error }, 'could not send user events to the other instances'),
      );
    }
  }

  return {
    publish(event) {
      deliver(event);
      const key = `${event.userId}:${event.type}:${event.orderId ?? event.rentId ?? ''}`;
      // A code is news the later event of the same order must not hide.
      if (!(outbox.get(key)?.code && !event.code)) outbox.set(key, event);
      flushTimer ??= setTimeout(() => void flush(), BATCH_WINDOW_MS);
    },
    subscribe(userId, listener) {
      const key = String(userId);
      local.on(key, listener);
      return () => local.off(key, listener);
    },
    subscribeAll(listener) {
      local.on(ALL, listener);
      return () => local.off(ALL, listener);
    },
    onResync(listener) {
      local.on(RESYNC, listener);
      return () => local.off(RESYNC, listener);
    },
    listenerState: () => listenerState(),
    async close() {
      clearTimeout(flushTimer);
      await flush();
      local.removeAllListeners();
      await stopListening().catch(() => {});
    },
  };
}

/**
 * The LISTEN connection, kept open: when PostgreSQL restarts or the network drops it, it is opened again
 * with a growing pause between attempts, and `onResync` is called once it listens again.
 */
async function listenWithReconnect(options: {
  connectionString: string;
  applicationName?: string;
  onNotification: (payload: string | undefined) => void;
  onResync: () => void;
  log: FastifyBaseLogger;
}) {
  const { log } = options;
  let current: pg.Client | undefined;
  let stopped = false;
  let failedAttempts = 0;
  /** Set from a lost connection until its replacement listens. */
  let reconnecting = false;
  let retryTimer: NodeJS.Timeout | undefined;

  async function connect(): Promise<void> {
    const client = new pg.Client({
      connectionString: options.connectionString,
      application_name: options.applicationName && `${options.applicationName}-listen`,
    });
    client.on('notification', (message) => options.onNotification(message.payload));
    client.on('error', (error) => lost(client, error));
    client.on('end', () => lost(client, new Error('connection ended')));
    try {
      await client.connect();
      await client.query(`LISTEN ${USER_EVENTS_CHANNEL}`);
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await client.end();
      return;
    }
    current = client;
    if (reconnecting) {
      log.info({ dependency: 'postgres-listen' }, 'event listener connection is back');
      options.onResync();
    }
    failedAttempts = 0;
    reconnecting = false;
  }

  function lost(client: pg.Client, error: unknown) {
    if (stopped || client !== current) return;
    current = undefined;
    reconnecting = true;
    log.warn({ dependency: 'postgres-listen', err: error }, 'event listener connection lost: reconnecting');
    client.removeAllListeners('end');
    client.end().catch(() => {});
    retry();
  }

  function retry() {
    const delayMs = Math.min(LISTEN_RETRY_MAX_MS, LISTEN_RETRY_FIRST_MS * 2 ** failedAttempts);
    retryTimer = setTimeout(() => {
      connect().catch((error: unknown) => {
        failedAttempts += 1;
        if (stopped) return;
        log.warn(
          { dependency: 'postgres-listen', err: error, delayMs },
          'event listener could not reconnect',
        );
        retry();
      });
    }, delayMs);
    retryTimer.unref();
  }

  // The first connection must succeed: a server that starts without it would never hear the others.
  await connect();
  return {
    state: (): 'up' | 'down' => (current ? 'up' : 'down'),
    async stop() {
      stopped = true;
      clearTimeout(retryTimer);
      const client = current;
      current = undefined;
      await client?.end();
    },
  };
}
