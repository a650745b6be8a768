// 7. The console's overview at scale: p99 latency of GET /api/admin/overview?days=30 (and days=1) with 10^3
// and then 10^6 one-time orders (each with its purchase in the ledger, a third of them refunded, the rest
// with a code) spread over the last 30 days, and the ratio between the two. The overview reads the hourly
// roll-up, not the orders, so the larger database must not make it slower: the ratio must stay under 3.
// The time the roll-up job takes to compute the 744 hours of the window from scratch is reported beside it
// (the job does it in steps of 48 hours on a first start, and 3 hours a minute afterwards).
//
// For each size: a fresh database (PostgreSQL on DATABASE_URL; PGlite with a warning otherwise), seeded in
// bulk, vacuumed and analysed, the roll-up computed; then the built product. Both products run side by side
// and are measured in turn, OVERVIEW_ROUNDS rounds (default 3), each with autocannon (10 connections, 1 s
// warm-up, then OVERVIEW_SECONDS, default 4 s); the median round counts.
//
//   npx tsx bench/admin-overview.ts

import { sql } from 'drizzle-orm';
import { systemClock } from '../apps/server/src/lib/clock';
import {
  computeBusinessHours,
  HOUR_MS,
  hourOf,
  ROLLUP_WINDOW_HOURS,
} from '../apps/server/src/modules/admin/overview/rollup';
import { ProviderHealth } from '../apps/server/src/providers/sms/health';
import { ProviderPool } from '../apps/server/src/providers/sms/pool';
import { createBenchDatabase } from './lib/database';
import { type LoadResult, measureLoad } from './lib/load';
import { type RunningProcess, startProduct } from './lib/processes';
import { BENCH_JWT_SECRET, seedUser } from './lib/seed';

const SIZES = [1_000, 1_000_000] as const;
const CONNECTIONS = 10;
const SECONDS = Number(process.env.OVERVIEW_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.OVERVIEW_ROUNDS ?? 3);
export const OVERVIEW_RATIO_TARGET = 3;
const PATHS = ['/api/admin/overview?days=30', '/api/admin/overview?days=1'] as const;

export interface OverviewRow {
  path: string;
  small: LoadResult;
  large: LoadResult;
  ratio: number;
}

export interface OverviewReport {
  database: 'postgres' | 'pglite';
  sizes: readonly number[];
  seconds: number;
  rounds: number;
  /** How long computing the 30-day roll-up from scratch took, per size. */
  rollupMs: number[];
  rows: OverviewRow[];
}

interface Prepared {
  size: number;
  kind: 'postgres' | 'pglite';
  product: RunningProcess;
  headers: Record<string, string>;
  rollupMs: number;
  stop(): Promise<void>;
}

/** A pool like the product's default one, enough for the roll-up's dollar rates. */
function ratesOnlyPool(): ProviderPool {
  const health = new ProviderHealth({ clock: systemClock, failuresToCool: 3, cooldownMs: 60_000 });
  const member = (name: string) => ({
    name,
    kind: 'simulator' as const,
    provider: {} as never,
    usdRate: 1,
    earlyCancelMs: () => 0,
  });
  return new ProviderPool([member('sim-a'), member('sim-b')], health, new Map());
}

async function prepare(size: number): Promise<Prepared> {
  const database = await createBenchDatabase(`overview_${size}`);
  let product: RunningProcess | undefined;
  try {
    const seeding = await database.open();
    let admin: Awaited<ReturnType<typeof seedUser>>;
    let rollupMs: number;
    try {
      admin = await seedUser(seeding.db, 'bench_overview_admin', { admin: true });
      const buyers = [];
      for (let index = 0; index < 100; index += 1)
        buyers.push(await seedUser(seeding.db, `bench_overview_buyer_${index}`));
      // Seeded one after another, so their ids run on from the smallest.
      const firstBuyer = Math.min(...buyers.map((buyer) => buyer.id));
      const windowSeconds = 30 * 24 * 3600;
      // Orders spread evenly over 30 days, a hundred buyers in turn; two in three got a code.
      await seeding.db.execute(sql`
        insert into activations (user_id, provider, provider_activation_id, country_id, operator, service,
          phone_number, price_cents, upstream_max_price, status, created_at, expires_at, updated_at)
        select ${firstBuyer} + n % 100, case when n % 2 = 0 then 'sim-a' else 'sim-b' end, 'seed-' || n, 'US', 'any', 'tg',
          '1555' || lpad(n::text, 7, '0'), 50, 0.3, case when n % 3 = 0 then 'expired' else 'completed' end,
          now() - ((n::bigint * ${windowSeconds} / ${size}) || ' seconds')::interval,
          now() - ((n::bigint * ${windowSeconds} / ${size}) || ' seconds')::interval + interval '20 minutes', now()
        from generate_series(1, ${size}) as n`);
      await seeding.db.execute(sql`
        insert into activation_messages (activation_id, code, text, received_at, dedupe_key)
        select id, '12345', 'Your code is 12345', created_at + ((id % 120) || ' seconds')::interval, 'code:12345'
        from activations where status = 'completed'`);
      // The ledger as the product writes it: a purchase per order, a refund per expired one. Inserted in bulk
      // (the balance is not what is measured here).
      await seeding.db.execute(sql`
        insert into ledger_entries (user_id, kind, amount_cents, balance_after_cents, reference_type, reference_id,
          idempotency_key, created_at)
        select user_id, 'purchase', -50, 0, 'activation', id::text, 'purchase:activation:' || id, created_at
        from activations`);
      await seeding.db.execute(sql`
        insert into ledger_entries (user_id, kind, amount_cents, balance_after_cents, reference_type, reference_id,
          idempotency_key, created_at)
        select user_id, 'refund', 50, 0, 'activation', id::text, 'refund:activation:' || id, created_at + interval '20 minutes'
        from activations where status = 'expired'`);
      await seeding.db.execute(sql`vacuum analyze activations, activation_messages, ledger_entries`);
      const now = new Date();
      const end = new Date(hourOf(now).getTime() + HOUR_MS);
      const startedAt = performance.now();
      await computeBusinessHours(
        seeding.db,
        ratesOnlyPool(),
        new Date(end.getTime() - ROLLUP_WINDOW_HOURS * HOUR_MS),
        end,
        now,
      );
      rollupMs = performance.now() - startedAt;
    } finally {
      await seeding.close();
    }
    product = await startProduct({
      dataDir: database.dataDir,
      env: { ...database.env, JWT_SECRET: BENCH_JWT_SECRET },
    });
    const running = product;
    return {
      size,
      kind: database.kind,
      product: running,
      headers: { authorization: admin.authorization, 'accept-encoding': 'gzip, deflate, br' },
      rollupMs,
      async stop() {
        await running.stop();
        await database.drop();
      },
    };
  } catch (error) {
    await product?.stop();
    await database.drop();
    throw error;
  }
}

export async function runAdminOverview(): Promise<OverviewReport> {
  console.log('\n## 7. The console overview at scale');
  const prepared: Prepared[] = [];
  try {
    for (const size of SIZES) {
      console.log(`Seeding ${size.toLocaleString('en-US')} orders over 30 days…`);
      prepared.push(await prepare(size));
      console.log(`  roll-up of 744 hours computed in ${prepared.at(-1)!.rollupMs.toFixed(0)} ms`);
    }
    const [small, large] = prepared as [Prepared, Prepared];
    const runs = PATHS.map(() => [[], []] as [LoadResult[], LoadResult[]]);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [pathIndex, path] of PATHS.entries()) {
        for (const [sizeIndex, target] of [small, large].entries()) {
          const result = await measureLoad({
            url: `${target.product.url}${path}`,
            headers: target.headers,
            connections: CONNECTIONS,
            warmupSeconds: 1,
            durationSeconds: SECONDS,
          });
          runs[pathIndex]![sizeIndex as 0 | 1].push(result);
          console.log(
            `  round ${round + 1}, ${target.size.toLocaleString('en-US').padStart(9)} orders  ${path}: p99 ${result.p99Ms} ms, p50 ${result.p50Ms} ms, ${result.requestsPerSecond.toFixed(0)} req/s, errors ${result.errors + result.non2xx}`,
          );
        }
      }
    }
    const median = (results: LoadResult[]) =>
      [...results].sort((a, b) => a.p99Ms - b.p99Ms)[Math.floor(results.length / 2)]!;
    const rows = PATHS.map((path, index) => {
      const smallResult = median(runs[index]![0]);
      const largeResult = median(runs[index]![1]);
      return { path, small: smallResult, large: largeResult, ratio: largeResult.p99Ms / smallResult.p99Ms };
    });
    console.log(
      `p99 with 10^6 orders / p99 with 10^3, median of ${ROUNDS} rounds (target < ${OVERVIEW_RATIO_TARGET}):`,
    );
    for (const row of rows)
      console.log(
        `  ${row.path}: ${row.small.p99Ms} ms → ${row.large.p99Ms} ms, ratio ${row.ratio.toFixed(2)}`,
      );
    return {
      database: large.kind,
      sizes: SIZES,
      seconds: SECONDS,
      rounds: ROUNDS,
      rollupMs: prepared.map((target) => target.rollupMs),
      rows,
    };
  } finally {
    for (const target of prepared) await target.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runAdminOverview();
