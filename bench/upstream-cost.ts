// 2. Upstream cost: the HTTP requests that reach the SMS upstream (the built-in simulator's
// handler_api.php) per minute, with 100, 1,000 and 10,000 active one-time orders and as many active rents,
// while every owner polls the status of each of its orders and rents and both lists every 20 s.
//
// The whole product runs in this process on a manual clock (as the server's tests build it), so five
// simulated minutes take seconds and the counts are exactly repeatable; the orders are bought through the
// real services, so the simulator knows them. The background jobs of `createJobs(ctx)` run at their own
// intervals on the simulated clock; every HTTP request of the process is counted, and attributed (through
// AsyncLocalStorage) to what made it: the sync jobs, the catalog refresh, the client polls, or the setup.
//
//   npx tsx bench/upstream-cost.ts                       (UPSTREAM_SIZES=100,1000 for a shorter run)

import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { parseRentPeriod } from '@simcode/contract';
import { sql } from 'drizzle-orm';
import { createJobs } from '../apps/server/src/app/jobs';
import type { DatabaseHandle } from '../apps/server/src/db/client';
import { queryRows } from '../apps/server/src/db/client';
import { createBenchDatabase } from './lib/database';
import { type InProcessApp, startInProcessApp } from './lib/in-process';
import { type SeededUser, seedUser } from './lib/seed';

const SIZES = (process.env.UPSTREAM_SIZES ?? '100,1000,10000').split(',').map(Number);
/** Users owning the orders and rents (each polls its own). */
const OWNERS = 100;
/** How often an owner's pages poll (spec: every 20 s) and how often the sync jobs wake up (jobs/index.ts). */
const POLL_INTERVAL_MS = 20_000;
const STEP_MS = 2000;
const SIMULATED_MINUTES = 5;
/** The first simulated minute is the start (first sweeps, first catalog refresh): left out of the figures. */
const STEADY_FROM_MINUTE = 1;
const RENT_HOURS = 24;
/** Orders bought at once; purchases of one user queue on that user's account lock. */
const PURCHASE_CONCURRENCY = 50;
const POLL_CONCURRENCY = 16;
const HANDLER_PATH = '/simulator/stubs/handler_api.php';
/** Where undici (the npm package and the one inside Node's `fetch`) announces each request it creates. */
const UNDICI_REQUEST_CHANNEL = 'undici:request:create';
/** No SMS within the run: the orders and rents stay active. */
const ONE_HOUR_MS = '3600000';

type Source = 'sync' | 'catalog' | 'polls' | 'setup' | 'other';
const SOURCES: Source[] = ['sync', 'catalog', 'polls', 'setup', 'other'];
const JOB_SOURCES: Record<string, Source> = {
  'activation-sync': 'sync',
  'rental-sync': 'sync',
  'catalog-refresh': 'catalog',
};

export interface UpstreamCostRow {
  size: number;
  activeOrders: number;
  activeRents: number;
  /** Steady-state upstream requests per simulated minute (mean of minutes 2 to 5), by source. */
  perMinute: Record<Source, number>;
  /** The busiest steady-state minute of the sync jobs. */
  syncMaxPerMinute: number;
  /** Every simulated minute, the first included: requests of the sync jobs, and of every source. */
  syncByMinute: number[];
  totalByMinute: number[];
  /** Steady-state requests per minute by action (every source). */
  byAction: Record<string, number>;
  /** Status and list requests the owners made in the steady state, and how many did not answer 200. */
  polls: number;
  pollFailures: number;
  /** Activation sweeps that read every page of the upstream's active list, per minute, and pages needed. */
  completeSweepsPerMinute: number;
  pagesPerSweep: number;
  /** Rents whose SMS the rental sync read from the upstream in the steady state (the webhook's safety net). */
  rentsReadBySync: number;
  jobFailures: number;
  setupSeconds: number;
  simulationSeconds: number;
}

export interface UpstreamCostReport {
  database: 'postgres' | 'pglite';
  budgetPerMinute: number;
  catalogRefreshMs: number;
  rows: UpstreamCostRow[];
}

/** The phase an upstream request belongs to, carried through every await of that phase. */
const phase = new AsyncLocalStorage<Source>();

interface Recorder {
  minuteOf(): number;
  calls: Array<{ minute: number; source: Source; action: string; url: URL }>;
}
let recorder: Recorder | undefined;

/**
 * Counts every HTTP request of the process to the simulator's handler_api.php where it is made: undici
 * announces each one (the product's supplier calls and `fetch` alike) on its diagnostics channel,
 * synchronously in the caller's context, so the phase that made it is known.
 */
function installUpstreamCounter(): () => void {
  const onRequest = (message: unknown) => {
    const { request } = message as { request: { origin: string; path: string } };
    if (!recorder || !request.path.includes(HANDLER_PATH)) return;
    const url = new URL(request.path, request.origin);
    recorder.calls.push({
      minute: recorder.minuteOf(),
      source: phase.getStore() ?? 'other',
      action: url.searchParams.get('action') ?? '?',
      url,
    });
  };
  diagnosticsChannel.subscribe(UNDICI_REQUEST_CHANNEL, onRequest);
  return () => diagnosticsChannel.unsubscribe(UNDICI_REQUEST_CHANNEL, onRequest);
}

/** Runs `work` over `items`, `concurrency` at a time. */
export async function inPool<T>(
  items: T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}

interface Slot {
  countryId: string;
  /** Activation service code, or rent option key. */
  key: string;
  left: number;
}

/** Takes the next slot with stock left, round-robin, so no single offer runs out. */
export function slotPicker(slots: Slot[]): () => Slot {
  let turn = 0;
  return () => {
    for (let tries = 0; tries < slots.length; tries += 1) {
      const slot = slots[turn++ % slots.length]!;
      if (slot.left > 0) {
        slot.left -= 1;
        return slot;
      }
    }
    throw new Error('the simulator has no stock left for the orders');
  };
}

export function activationSlots(t: InProcessApp, needed: number): Slot[] {
  const slots = t.ctx.catalog
    .countries()
    .flatMap((country) =>
      t.ctx.catalog.services(country.id).map((offer) => ({
        countryId: country.id,
        key: offer.service,
        // Leave a margin: other buyers and the stock's drift.
        left: Math.floor(offer.stock * 0.8),
      })),
    )
    .filter((slot) => slot.left >= 50)
    .sort((a, b) => b.left - a.left);
  const chosen: Slot[] = [];
  let total = 0;
  for (const slot of slots) {
    if (total >= needed * 1.5 && chosen.length >= 10) break;
    chosen.push(slot);
    total += slot.left;
  }
  return chosen;
}

async function rentSlots(t: InProcessApp, needed: number): Promise<Slot[]> {
  const { catalog } = t.ctx.rentals;
  const chosen: Slot[] = [];
  let total = 0;
  // The largest countries first (the simulator holds hundreds of rent numbers per service there).
  const countries = [...(await catalog.countries('purchase'))].sort(
    (a, b) =>
      Number(['US', 'GB', 'IN', 'ID', 'BR'].includes(b)) - Number(['US', 'GB', 'IN', 'ID', 'BR'].includes(a)),
  );
  for (const countryId of countries) {
    if (total >= needed * 1.3) break;
    const seen = new Set<string>();
    for (const offer of await catalog.offers(countryId, RENT_HOURS, 'purchase')) {
      // Several options rent the same upstream service and share its stock.
      if (seen.has(offer.service) || offer.stock < 5) continue;
      seen.add(offer.service);
      const left = Math.floor(offer.stock * 0.8);
      chosen.push({ countryId, key: offer.key, left });
      total += left;
    }
  }
  return chosen;
}

interface Owned {
  owner: SeededUser;
  numberIds: string[];
  rentIds: string[];
}

async function createOrders(t: InProcessApp, owners: SeededUser[], size: number): Promise<Owned[]> {
  const owned: Owned[] = owners.map((owner) => ({ owner, numberIds: [], rentIds: [] }));
  const period = parseRentPeriod(`${RENT_HOURS} hours`)!;
  const nextActivation = slotPicker(activationSlots(t, size));
  const nextRent = slotPicker(await rentSlots(t, size));
  const jobs = Array.from({ length: size }, (_, index) => index);
  let refused = 0;
  await inPool(jobs, PURCHASE_CONCURRENCY, async (index) => {
    const entry = owned[index % owned.length]!;
    for (let attempt = 0; ; attempt += 1) {
      const slot = nextActivation();
      try {
        const order = await t.ctx.activations.buy(entry.owner.id, {
          countryId: slot.countryId,
          operator: 'any',
          service: slot.key,
        });
        // The id the pages poll: ours, not the supplier's.
        entry.numberIds.push(String(order.id));
        return;
      } catch (error) {
        // Out of stock at the simulator: another offer. Anything else is a fault of the setup.
        refused += 1;
        slot.left = 0;
        if (attempt >= 5) throw error;
      }
    }
  });
  await inPool(jobs, PURCHASE_CONCURRENCY, async (index) => {
    const entry = owned[index % owned.length]!;
    for (let attempt = 0; ; attempt += 1) {
      const slot = nextRent();
      try {
        const rent = await t.ctx.rentals.rent(entry.owner.id, {
          countryId: slot.countryId,
          serviceKey: slot.key,
          period,
        });
        entry.rentIds.push(String(rent.id));
        return;
      } catch (error) {
        refused += 1;
        slot.left = 0;
        if (attempt >= 5) throw error;
      }
    }
  });
  if (refused > 0) console.log(`  (${refused} purchases refused for stock and bought elsewhere)`);
  return owned;
}

async function countLive(database: DatabaseHandle): Promise<{ orders: number; rents: number }> {
  const [row] = await queryRows<{ orders: number; rents: number }>(
    database.db,
    sql`select (select count(*)::int from activations where status = 'waiting') as orders,
               (select count(*)::int from rents where status in ('active', 'renewed')) as rents`,
  );
  return row!;
}

async function measureSize(size: number): Promise<UpstreamCostRow & { budget: number; catalogMs: number }> {
  const setupStartedAt = performance.now();
  const benchDatabase = await createBenchDatabase(`upstream_${size}`);
  let database: DatabaseHandle | undefined;
  let t: InProcessApp | undefined;
  try {
    database = await benchDatabase.open({ poolSize: 20 });
    t = await phase.run('setup', () =>
      startInProcessApp(database!, {
        SIMULATOR_SMS_DELAY_MIN_MS: ONE_HOUR_MS,
        SIMULATOR_SMS_DELAY_MAX_MS: ONE_HOUR_MS,
        SIMULATOR_NO_SMS_RATE: '1',
        ...(process.env.UPSTREAM_SYNC_BUDGET_PER_MINUTE
          ? { UPSTREAM_SYNC_BUDGET_PER_MINUTE: process.env.UPSTREAM_SYNC_BUDGET_PER_MINUTE }
          : {}),
      }),
    );
    const app = t;
    // 10,000 orders and as many rents cost the simulator's account more than its starting $1,000; a
    // supplier out of balance leaves routing, and the setup would run out of offers.
    const topUp = await app.app.inject({
      method: 'POST',
      url: '/simulator/control/balance',
      headers: { 'x-simulator-key': app.config.smsProviders[0]!.key! },
      payload: { balanceUsd: 1_000_000 },
    });
    if (topUp.statusCode !== 200) throw new Error(`the simulator's balance was not set: ${topUp.body}`);
    const owners: SeededUser[] = [];
    for (let index = 0; index < OWNERS; index += 1)
      owners.push(await seedUser(database.db, `owner_${index}`, { balanceCents: 10_000_000 }));
    const owned = await phase.run('setup', () => createOrders(app, owners, size));
    const live = await countLive(database);
    const setupSeconds = (performance.now() - setupStartedAt) / 1000;

    // The simulated run: every job of the product at its own interval, the owners' polls spread over the
    // 20 s (a tenth of them in each 2 s step), the clock moved in steps of the sync jobs' tick.
    const simulationStartedAt = performance.now();
    const startMs = app.clock.now().getTime();
    const calls: Recorder['calls'] = [];
    recorder = { minuteOf: () => Math.floor((app.clock.now().getTime() - startMs) / 60_000), calls };
    const jobs = createJobs(app.ctx).map((job) => ({ job, nextAtMs: startMs }));
    let polls = 0;
    let pollFailures = 0;
    let jobFailures = 0;
    const slots = POLL_INTERVAL_MS / STEP_MS;
    const steps = (SIMULATED_MINUTES * 60_000) / STEP_MS;
    for (let step = 0; step < steps; step += 1) {
      const nowMs = app.clock.now().getTime();
      for (const entry of jobs) {
        if (entry.nextAtMs > nowMs) continue;
        try {
          await phase.run(JOB_SOURCES[entry.job.name] ?? 'other', () => entry.job.run());
        } catch (error) {
          jobFailures += 1;
          console.warn(`  job ${entry.job.name} failed: ${String(error)}`);
        }
        // The scheduler waits intervalMs after a run ends; runs take no simulated time.
        entry.nextAtMs = nowMs + entry.job.intervalMs;
      }
      const due = owned.filter((_, index) => index % slots === step % slots);
      const requests = due.flatMap(({ owner, numberIds, rentIds }) =>
        [
          '/api/dashboard/numbers',
          '/api/dashboard/rents',
          ...numberIds.map((id) => `/api/dashboard/number-status/${id}`),
          ...rentIds.map((id) => `/api/dashboard/rent-status/${id}`),
        ].map((url) => ({ url, authorization: owner.authorization })),
      );
      const steady = step * STEP_MS >= STEADY_FROM_MINUTE * 60_000;
      await phase.run('polls', () =>
        inPool(requests, POLL_CONCURRENCY, async ({ url, authorization }) => {
          const response = await app.app.inject({ method: 'GET', url, headers: { authorization } });
          if (!steady) return;
          polls += 1;
          if (response.statusCode !== 200) pollFailures += 1;
        }),
      );
      app.clock.advance(STEP_MS);
      app.ctx.simulators.inProcess[0]?.simulator.tick();
    }
    recorder = undefined;
    const simulationSeconds = (performance.now() - simulationStartedAt) / 1000;

    const steadyCalls = calls.filter(
      (call) => call.minute >= STEADY_FROM_MINUTE && call.minute < SIMULATED_MINUTES,
    );
    const minutes = SIMULATED_MINUTES - STEADY_FROM_MINUTE;
    const perMinute = Object.fromEntries(
      SOURCES.map((source) => [
        source,
        steadyCalls.filter((call) => call.source === source).length / minutes,
      ]),
    ) as Record<Source, number>;
    let syncMaxPerMinute = 0;
    for (let minute = STEADY_FROM_MINUTE; minute < SIMULATED_MINUTES; minute += 1) {
      const count = steadyCalls.filter((call) => call.minute === minute && call.source === 'sync').length;
      syncMaxPerMinute = Math.max(syncMaxPerMinute, count);
    }
    const minuteList = Array.from({ length: SIMULATED_MINUTES }, (_, minute) => minute);
    const syncByMinute = minuteList.map(
      (minute) => calls.filter((call) => call.minute === minute && call.source === 'sync').length,
    );
    const totalByMinute = minuteList.map(
      (minute) => calls.filter((call) => call.minute === minute && call.source !== 'setup').length,
    );
    const byAction: Record<string, number> = {};
    for (const call of steadyCalls) byAction[call.action] = (byAction[call.action] ?? 0) + 1 / minutes;
    // A sweep is complete when it reads the page after the last full one (the adapter's page size is 100).
    const pagesPerSweep = Math.floor(live.orders / 100) + 1;
    const lastStart = String((pagesPerSweep - 1) * 100);
    const completeSweeps = steadyCalls.filter(
      (call) => call.action === 'getActiveActivations' && call.url.searchParams.get('start') === lastStart,
    ).length;
    const rentsReadBySync = new Set(
      steadyCalls
        .filter((call) => call.source === 'sync' && call.action === 'getRentStatus')
        .map((call) => call.url.searchParams.get('id')),
    ).size;

    return {
      size,
      activeOrders: live.orders,
      activeRents: live.rents,
      perMinute,
      syncMaxPerMinute,
      syncByMinute,
      totalByMinute,
      byAction,
      polls,
      pollFailures,
      completeSweepsPerMinute: completeSweeps / minutes,
      pagesPerSweep,
      rentsReadBySync,
      jobFailures,
      setupSeconds,
      simulationSeconds,
      budget: app.ctx.config.UPSTREAM_SYNC_BUDGET_PER_MINUTE,
      catalogMs: app.ctx.config.CATALOG_REFRESH_MS,
    };
  } finally {
    recorder = undefined;
    await t?.close().catch((error: unknown) => console.warn(`  could not close the app: ${String(error)}`));
    await database?.close().catch(() => {});
    await benchDatabase.drop();
  }
}

function formatRate(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

export async function runUpstreamCost(): Promise<UpstreamCostReport> {
  console.log('\n## 2. Upstream cost');
  const stopCounting = installUpstreamCounter();
  const rows: UpstreamCostRow[] = [];
  let budgetPerMinute = 0;
  let catalogRefreshMs = 0;
  try {
    for (const size of SIZES) {
      console.log(`${size} active orders and ${size} active rents, ${OWNERS} owners polling every 20 s…`);
      const { budget, catalogMs, ...row } = await measureSize(size);
      budgetPerMinute = budget;
      catalogRefreshMs = catalogMs;
      rows.push(row);
      const actions = Object.entries(row.byAction)
        .sort((a, b) => b[1] - a[1])
        .map(([action, rate]) => `${action} ${formatRate(rate)}`)
        .join(', ');
      console.log(
        `  upstream requests per minute: sync jobs ${formatRate(row.perMinute.sync)} (busiest minute ${row.syncMaxPerMinute}; budget ${budget}), catalog refresh ${formatRate(row.perMinute.catalog)}, client polls ${formatRate(row.perMinute.polls)} (${row.polls} polls made, ${row.pollFailures} not 200), other ${formatRate(row.perMinute.other)}`,
      );
      console.log(
        `  minute by minute (1 to 5): sync jobs ${row.syncByMinute.join(', ')}; all sources ${row.totalByMinute.join(', ')}`,
      );
      console.log(`  by action, per minute: ${actions || 'none'}`);
      console.log(
        `  complete activation sweeps per minute: ${formatRate(row.completeSweepsPerMinute)} (${row.pagesPerSweep} pages each); rents whose SMS the sync read in 4 minutes: ${row.rentsReadBySync} of ${row.activeRents}`,
      );
      console.log(
        `  (set-up ${row.setupSeconds.toFixed(0)} s, 5 simulated minutes in ${row.simulationSeconds.toFixed(0)} s${row.jobFailures ? `, ${row.jobFailures} job runs failed` : ''})`,
      );
    }
  } finally {
    stopCounting();
  }
  const database = process.env.DATABASE_URL ? 'postgres' : 'pglite';
  return { database, budgetPerMinute, catalogRefreshMs, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) await runUpstreamCost();
