// 9. Push delivery to API clients: 1,000 clients of the JSON API wait for codes on the long-poll
// (`GET /api/v1/orders/{id}/code?wait=60`), then 1,000 on the event stream (`GET /api/v1/events`). For each:
//   - the work they cost while nothing arrives: database queries and SMS upstream requests over a quiet
//     window, per waiting client (goal: none);
//   - the delay from an SMS stored to the client holding its code, over DELIVERIES SMS (goal: p95 < 50 ms).
//
// The whole product runs in this process (as the server's tests build it) on DATABASE_URL's PostgreSQL or
// PGlite, so every statement sent to the database is counted at the driver (pg's Client#query, PGlite's
// query, exec and the queries of its transactions) and every request to the simulator's handler_api.php at
// `fetch`. No background job runs: what is counted is what the waiting clients cost. The clients are real
// HTTP connections from this process (undici), each with its own account and key by default
// (PUSH_CLIENTS_PER_USER up to 200: 20 per key, the product's cap of waits per key, where each code then
// reaches every stream of its account). "Stored" is the moment the product announces the new code on its event bus, which it does after
// the SMS's transaction commits: the bench's listener is the bus's first, so it hears it before any client.
// The SMS is injected at the simulator, which pushes it to the product's webhook at once, as a supplier
// does; the time from the injection is printed too.
//
//   npx tsx bench/push-delivery.ts        (PUSH_CLIENTS=1000, PUSH_DELIVERIES=100, PUSH_QUIET_SECONDS=10, PUSH_CLIENTS_PER_USER=1)

import { setTimeout as sleep } from 'node:timers/promises';
import type { PGlite, Transaction } from '@electric-sql/pglite';
import pg from 'pg';
import type { DatabaseHandle } from '../apps/server/src/db/client';
import type { UserEvent } from '../apps/server/src/db/user-events';
import { percentile } from './delivery-latency';
import { createBenchDatabase } from './lib/database';
import { type InProcessApp, startInProcessApp } from './lib/in-process';
import { seedUser } from './lib/seed';
import { activationSlots, inPool, slotPicker } from './upstream-cost';

const CLIENTS = Number(process.env.PUSH_CLIENTS ?? 1000);
const DELIVERIES = Number(process.env.PUSH_DELIVERIES ?? 100);
const QUIET_MS = Number(process.env.PUSH_QUIET_SECONDS ?? 10) * 1000;
/** The product's cap of waits per key (container.ts) and keys per user (contract). */
const WAITS_PER_KEY = 20;
/**
 * Waiting clients per account: 1 by default (each bot its own account and key, so a code reaches the one
 * client waiting for it); up to 200 (ten keys of 20 waits), where every stream of the account hears every code.
 */
const CLIENTS_PER_USER = Math.min(200, Math.max(1, Number(process.env.PUSH_CLIENTS_PER_USER ?? 1)));
const KEYS_PER_USER = Math.ceil(CLIENTS_PER_USER / WAITS_PER_KEY);
const HANDLER_PATH = '/simulator/stubs/handler_api.php';
const ONE_HOUR_MS = '3600000';
export const PUSH_P95_TARGET_MS = 50;

export interface PushChannelFigures {
  channel: 'long-poll' | 'stream';
  clients: number;
  quietSeconds: number;
  queriesWhileQuiet: number;
  upstreamWhileQuiet: number;
  /** Stored → held, one figure per client that held a code (the stream: every stream of the order's owner). */
  latenciesMs: number[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** Injected at the simulator → held, p95. */
  fromInjectionP95Ms: number;
}

export interface PushDeliveryReport {
  database: 'postgres' | 'pglite';
  deliveries: number;
  channels: PushChannelFigures[];
}

/** Counts every statement the product sends to its database. */
function countQueries(database: DatabaseHandle): { count(): number; restore(): void } {
  let queries = 0;
  if (database.pool) {
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      queries += 1;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof original;
    return {
      count: () => queries,
      restore: () => {
        pg.Client.prototype.query = original;
      },
    };
  }
  const pglite = database.pglite as PGlite;
  const { query, exec, transaction } = pglite;
  const counted = <F extends (...args: never[]) => unknown>(run: F) =>
    ((...args: Parameters<F>) => {
      queries += 1;
      return run(...args);
    }) as F;
  pglite.query = counted(query.bind(pglite));
  pglite.exec = counted(exec.bind(pglite));
  pglite.transaction = (<T>(work: (tx: Transaction) => Promise<T>) =>
    transaction.call(pglite, (tx: Transaction) => {
      tx.query = counted(tx.query.bind(tx));
      tx.exec = counted(tx.exec.bind(tx));
      return work(tx);
    })) as typeof transaction;
  return {
    count: () => queries,
    restore: () => Object.assign(pglite, { query, exec, transaction }),
  };
}

/** Counts the product's requests to the simulator's SMS-Activate endpoint. */
function countUpstream(): { count(): number; restore(): void } {
  const original = globalThis.fetch;
  let requests = 0;
  globalThis.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes(HANDLER_PATH)) requests += 1;
    return original(input, init);
  };
  return {
    count: () => requests,
    restore: () => {
      globalThis.fetch = original;
    },
  };
}

/** The simulator's activation id of each order, which an injected SMS names. */
const upstreamIdOf = new Map<number, string>();

interface Owner {
  userId: number;
  keys: string[];
  orderIds: number[];
}

/** Users with ten keys each and one waiting order per client. */
async function seedClients(t: InProcessApp, database: DatabaseHandle): Promise<Owner[]> {
  const owners: Owner[] = [];
  for (let index = 0; index < Math.ceil(CLIENTS / CLIENTS_PER_USER); index += 1) {
    // One waiting client per order: a stream for each, and a long-poll on each.
    const user = await seedUser(database.db, `push_${index}`, { balanceCents: 10_000_000 });
    const keys: string[] = [];
    for (let key = 0; key < KEYS_PER_USER; key += 1)
      keys.push((await t.ctx.apiKeys.create(user.id, { name: `bench ${key}` })).secret);
    owners.push({ userId: user.id, keys, orderIds: [] });
  }
  const next = slotPicker(activationSlots(t, CLIENTS));
  await inPool(
    Array.from({ length: CLIENTS }, (_, index) => index),
    20,
    async (index) => {
      const owner = owners[Math.floor(index / CLIENTS_PER_USER)]!;
      for (let attempt = 0; ; attempt += 1) {
        const slot = next();
        try {
          const order = await t.ctx.activations.buy(owner.userId, {
            countryId: slot.countryId,
            operator: 'any',
            service: slot.key,
          });
          owner.orderIds.push(order.id);
          upstreamIdOf.set(order.id, order.providerActivationId!);
          return;
        } catch (error) {
          slot.left = 0;
          if (attempt >= 5) throw error;
        }
      }
    },
  );
  return owners;
}

/** The moments the bus announced each code: the bench's listener is the first one, so it hears it first. */
function storedMoments(t: InProcessApp, owners: Owner[]) {
  const storedAt = new Map<string, number>();
  const stops = owners.map((owner) =>
    t.ctx.events.subscribe(owner.userId, (event: UserEvent) => {
      if (event.type === 'numbers' && event.code) storedAt.set(event.code, performance.now());
    }),
  );
  return {
    storedAt,
    stop: () => {
      for (const stop of stops) stop();
    },
  };
}

/** Live subscriptions of the event bus: a waiting client is one. */
function countSubscriptions(t: InProcessApp): { live(): number; restore(): void } {
  const bus = t.ctx.events;
  const subscribe = bus.subscribe;
  let live = 0;
  bus.subscribe = (userId, listener) => {
    live += 1;
    const stop = subscribe.call(bus, userId, listener);
    return () => {
      live -= 1;
      stop();
    };
  };
  return {
    live: () => live,
    restore: () => {
      bus.subscribe = subscribe;
    },
  };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 120_000;
  // Polls state of this process (counters), cheaply: there is no event for "every client is waiting".
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Waits until the product has sent no statement for a while: the clients' first reads are done. */
async function settled(queries: { count(): number }): Promise<void> {
  let last = -1;
  while (queries.count() !== last) {
    last = queries.count();
    await sleep(500);
  }
}

async function injectSms(t: InProcessApp, orderId: number, code: string): Promise<number> {
  const injectedAt = performance.now();
  const response = await fetch(`${t.ctx.loopback.origin}/simulator/control/sms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-simulator-key': t.config.SMS_PROVIDER_KEY },
    body: JSON.stringify({ activationId: upstreamIdOf.get(orderId), code, text: `Your code is ${code}` }),
  });
  if (!response.ok) throw new Error(`the simulator refused the SMS: ${await response.text()}`);
  return injectedAt;
}

function figures(
  channel: PushChannelFigures['channel'],
  quiet: { queries: number; upstream: number },
  held: Array<{ storedMs: number; injectedMs: number; heldMs: number }>,
): PushChannelFigures {
  const latenciesMs = held.map((entry) => entry.heldMs - entry.storedMs).sort((a, b) => a - b);
  const fromInjection = held.map((entry) => entry.heldMs - entry.injectedMs).sort((a, b) => a - b);
  return {
    channel,
    clients: CLIENTS,
    quietSeconds: QUIET_MS / 1000,
    queriesWhileQuiet: quiet.queries,
    upstreamWhileQuiet: quiet.upstream,
    latenciesMs,
    p50Ms: percentile(latenciesMs, 0.5),
    p95Ms: percentile(latenciesMs, 0.95),
    maxMs: latenciesMs.at(-1) ?? Number.NaN,
    fromInjectionP95Ms: percentile(fromInjection, 0.95),
  };
}

async function quietWindow(queries: { count(): number }, upstream: { count(): number }) {
  const before = { queries: queries.count(), upstream: upstream.count() };
  await sleep(QUIET_MS);
  return { queries: queries.count() - before.queries, upstream: upstream.count() - before.upstream };
}

function print(row: PushChannelFigures): void {
  console.log(
    `  ${row.channel}: ${row.clients} waiting, ${row.quietSeconds} s quiet: ${row.queriesWhileQuiet} queries, ${row.upstreamWhileQuiet} upstream requests (${(row.queriesWhileQuiet / row.clients).toFixed(3)} and ${(row.upstreamWhileQuiet / row.clients).toFixed(3)} per client); stored → held p50 ${row.p50Ms.toFixed(1)} ms, p95 ${row.p95Ms.toFixed(1)} ms, max ${row.maxMs.toFixed(1)} ms over ${row.latenciesMs.length} deliveries (injected → held p95 ${row.fromInjectionP95Ms.toFixed(1)} ms)`,
  );
}

async function measureLongPoll(
  t: InProcessApp,
  owners: Owner[],
  counters: { queries: { count(): number }; upstream: { count(): number }; waits: { live(): number } },
  storedAt: Map<string, number>,
): Promise<PushChannelFigures> {
  const heldAt = new Map<number, number>();
  const base = counters.waits.live();
  const aborts = new AbortController();
  const polls = owners.flatMap((owner) =>
    owner.orderIds.map(async (orderId, index) => {
      const key = owner.keys[Math.floor(index / WAITS_PER_KEY)]!;
      const response = await fetch(`${t.ctx.loopback.origin}/api/v1/orders/${orderId}/code?wait=60`, {
        headers: { authorization: `Bearer ${key}` },
        signal: aborts.signal,
      });
      const body = (await response.json()) as { code?: string | null };
      if (response.status !== 200) throw new Error(`a long-poll answered ${response.status}`);
      heldAt.set(orderId, performance.now());
      return body.code;
    }),
  );
  await until(() => counters.waits.live() - base >= CLIENTS, 'every long-poll to wait');
  await settled(counters.queries);
  const quiet = await quietWindow(counters.queries, counters.upstream);

  const held: Array<{ storedMs: number; injectedMs: number; heldMs: number }> = [];
  const targets = owners.flatMap((owner) => owner.orderIds).slice(0, DELIVERIES);
  for (const [index, orderId] of targets.entries()) {
    const code = String(500_000 + index);
    const injectedMs = await injectSms(t, orderId, code);
    await until(() => heldAt.has(orderId), `the long-poll of order ${orderId}`);
    held.push({ storedMs: storedAt.get(code)!, injectedMs, heldMs: heldAt.get(orderId)! });
  }
  // The clients still waiting hang up; their keys' wait slots free as the product notices.
  aborts.abort();
  await Promise.allSettled(polls);
  await until(() => counters.waits.live() <= base, 'the long-polls to end');
  return figures('long-poll', quiet, held);
}

async function measureStream(
  t: InProcessApp,
  owners: Owner[],
  counters: { queries: { count(): number }; upstream: { count(): number } },
  storedAt: Map<string, number>,
  firstCode: number,
): Promise<PushChannelFigures> {
  /** Per code, the moments each stream held it. */
  const heldAt = new Map<string, number[]>();
  const aborts = new AbortController();
  const readers: Promise<void>[] = [];
  for (const owner of owners)
    for (let stream = 0; stream < owner.orderIds.length; stream += 1) {
      const key = owner.keys[Math.floor(stream / WAITS_PER_KEY)]!;
      const response = await fetch(`${t.ctx.loopback.origin}/api/v1/events`, {
        headers: { authorization: `Bearer ${key}` },
        signal: aborts.signal,
      });
      if (response.status !== 200) throw new Error(`the event stream answered ${response.status}`);
      readers.push(
        (async () => {
          const decoder = response.body!.pipeThrough(new TextDecoderStream());
          for await (const chunk of decoder)
            for (const match of chunk.matchAll(/"code":"(\d+)"/g)) {
              const moments = heldAt.get(match[1]!) ?? [];
              moments.push(performance.now());
              heldAt.set(match[1]!, moments);
            }
        })().catch(() => {}),
      );
    }
  await settled(counters.queries);
  const quiet = await quietWindow(counters.queries, counters.upstream);

  const held: Array<{ storedMs: number; injectedMs: number; heldMs: number }> = [];
  // Orders the long-poll part did not use: still waiting for a code.
  const targets = owners.flatMap((owner) => owner.orderIds).slice(-DELIVERIES);
  for (const [index, orderId] of targets.entries()) {
    const code = String(firstCode + index);
    // Every stream of the order's owner hears of its code: one per order the owner has.
    const streamsOfOwner = owners.find((entry) => entry.orderIds.includes(orderId))!.orderIds.length;
    const injectedMs = await injectSms(t, orderId, code);
    await until(() => (heldAt.get(code)?.length ?? 0) >= streamsOfOwner, `every stream to hold ${code}`);
    for (const heldMs of heldAt.get(code)!) held.push({ storedMs: storedAt.get(code)!, injectedMs, heldMs });
  }
  aborts.abort();
  await Promise.allSettled(readers);
  return figures('stream', quiet, held);
}

export async function runPushDelivery(): Promise<PushDeliveryReport> {
  console.log('\n## 9. Push delivery to API clients');
  const benchDatabase = await createBenchDatabase('push');
  let database: DatabaseHandle | undefined;
  let t: InProcessApp | undefined;
  const upstream = countUpstream();
  let queries: ReturnType<typeof countQueries> | undefined;
  let waits: ReturnType<typeof countSubscriptions> | undefined;
  let stored: ReturnType<typeof storedMoments> | undefined;
  try {
    database = await benchDatabase.open({ poolSize: 20 });
    t = await startInProcessApp(database, {
      // Only the SMS the bench injects arrive.
      SIMULATOR_SMS_DELAY_MIN_MS: ONE_HOUR_MS,
      SIMULATOR_SMS_DELAY_MAX_MS: ONE_HOUR_MS,
      SIMULATOR_NO_SMS_RATE: '0',
      RATE_LIMIT_PURCHASES_PER_MINUTE: '100000',
      RATE_LIMIT_API_KEY_PER_MINUTE: '100000',
      RATE_LIMIT_API_USER_PER_MINUTE: '100000',
      RATE_LIMIT_API_KEY_LOOKUPS_PER_MINUTE: '100000',
      // The clients are many hosts in life; here they all come from 127.0.0.1.
      HTTP_MAX_CONNECTIONS: '10000',
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '10000',
    });
    const owners = await seedClients(t, database);
    console.log(
      `  ${CLIENTS} orders waiting for a code, ${owners.length} users, ${owners.length * KEYS_PER_USER} keys`,
    );
    stored = storedMoments(t, owners);
    queries = countQueries(database);
    waits = countSubscriptions(t);
    const counters = { queries, upstream, waits };
    const longPoll = await measureLongPoll(t, owners, counters, stored.storedAt);
    print(longPoll);
    const stream = await measureStream(t, owners, counters, stored.storedAt, 800_000);
    print(stream);
    return {
      database: benchDatabase.kind,
      deliveries: DELIVERIES,
      channels: [longPoll, stream],
    };
  } finally {
    stored?.stop();
    waits?.restore();
    upstream.restore();
    await t?.close().catch((error: unknown) => console.warn(`  could not close the app: ${String(error)}`));
    queries?.restore();
    await database?.close().catch(() => {});
    await benchDatabase.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runPushDelivery();
