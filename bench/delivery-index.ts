// 9. The public SMS Delivery Index at scale (issue 30): p99 latency of GET /api/v1/stats (90 days and 24
// hours) and of the /stats page, with 10^3 and then 10^6 settled one-time orders spread over the last 90
// days (20 services × 10 countries; two in three with a code, after 1–120 s), and the ratio between the two
// (target: within 2×). Beside it, the cost of the nightly freeze: the time to freeze the 89 closed days from
// scratch and per day, and the time of a window's first (uncached) count.
//
// For each size: a fresh database (PostgreSQL on DATABASE_URL; PGlite with a warning otherwise), seeded in
// bulk, vacuumed and analysed, the closed days frozen; then the built product. Both products run side by
// side and are measured in turn, INDEX_ROUNDS rounds (default 3), each with autocannon (10 connections,
// 1 s warm-up, then INDEX_SECONDS, default 4 s); the median round counts.
//
//   npm run build && npx tsx bench/delivery-index.ts              (INDEX_SIZES=1000,100000 for a smaller large size)

import { sql } from 'drizzle-orm';
import { systemClock } from '../apps/server/src/lib/clock';
import { daysToFreeze, freezeDay } from '../apps/server/src/modules/stats/days';
import { createDeliveryIndex } from '../apps/server/src/modules/stats/delivery-index';
import { webOutDir } from '../apps/web/scripts/out-dir';
import { createBenchDatabase } from './lib/database';
import { type LoadResult, measureLoad } from './lib/load';
import { type RunningProcess, startProduct } from './lib/processes';
import { BENCH_JWT_SECRET, seedUser } from './lib/seed';

const SIZES = (process.env.INDEX_SIZES ?? '1000,1000000').split(',').map(Number) as [number, number];
const CONNECTIONS = 10;
const SECONDS = Number(process.env.INDEX_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.INDEX_ROUNDS ?? 3);
export const INDEX_RATIO_TARGET = 2;
const PATHS = ['/api/v1/stats?window=90d', '/api/v1/stats?window=24h', '/stats'] as const;
const SERVICES = [
  'tg',
  'wa',
  'go',
  'fb',
  'ig',
  'tw',
  'vk',
  'ok',
  'vi',
  'mm',
  'ub',
  'am',
  'oi',
  'wb',
  'sn',
  'mg',
  'qw',
  'uk',
  'mb',
  'ds',
];
const COUNTRIES = ['US', 'GB', 'DE', 'FR', 'NL', 'PL', 'ID', 'BR', 'IN', 'KZ'];

interface Prepared {
  size: number;
  kind: 'postgres' | 'pglite';
  product: RunningProcess;
  freezeMs: number;
  frozenDays: number;
  coldCountMs: Record<string, number>;
  stop(): Promise<void>;
}

async function prepare(size: number): Promise<Prepared> {
  const database = await createBenchDatabase(`delivery_index_${size}`);
  let product: RunningProcess | undefined;
  try {
    const seeding = await database.open();
    let freezeMs: number;
    let frozenDays: number;
    const coldCountMs: Record<string, number> = {};
    try {
      const buyer = await seedUser(seeding.db, 'bench_index_buyer');
      const windowSeconds = 90 * 24 * 3600;
      const services = sql.raw(`array[${SERVICES.map((code) => `'${code}'`).join(',')}]`);
      const countries = sql.raw(`array[${COUNTRIES.map((code) => `'${code}'`).join(',')}]`);
      await seeding.db.execute(sql`
        insert into activations (user_id, provider, provider_activation_id, country_id, operator, service,
          phone_number, price_cents, upstream_max_price, status, created_at, expires_at, updated_at)
        select ${buyer.id}, 'sim-a', 'seed-' || n, (${countries})[1 + n % ${COUNTRIES.length}], 'any',
          (${services})[1 + (n / ${COUNTRIES.length}) % ${SERVICES.length}],
          '1555' || lpad(n::text, 7, '0'), 50, 0.3, case when n % 3 = 0 then 'expired' else 'completed' end,
          now() - ((n::bigint * ${windowSeconds} / ${size}) || ' seconds')::interval,
          now() - ((n::bigint * ${windowSeconds} / ${size}) || ' seconds')::interval + interval '20 minutes', now()
        from generate_series(1, ${size}) as n`);
      await seeding.db.execute(sql`
        insert into activation_messages (activation_id, code, text, received_at, dedupe_key)
        select id, '12345', 'Your code is 12345', created_at + ((1 + id % 120) || ' seconds')::interval, 'code:12345'
        from activations where status = 'completed'`);
      await seeding.db.execute(sql`vacuum analyze activations, activation_messages`);
      const now = new Date();
      const days = await daysToFreeze(seeding.db, now);
      const startedAt = performance.now();
      for (const day of days) await freezeDay(seeding.db, day, now);
      freezeMs = performance.now() - startedAt;
      frozenDays = days.length;
      const index = createDeliveryIndex({ db: seeding.db, clock: systemClock });
      for (const window of ['24h', '7d', '90d'] as const) {
        const countStartedAt = performance.now();
        await index.window(window);
        coldCountMs[window] = performance.now() - countStartedAt;
      }
    } finally {
      await seeding.close();
    }
    product = await startProduct({
      dataDir: database.dataDir,
      // The page is measured too: the web app as `npm run build` left it.
      env: { ...database.env, JWT_SECRET: BENCH_JWT_SECRET, WEB_DIST_DIR: webOutDir() },
    });
    const running = product;
    return {
      size,
      kind: database.kind,
      product: running,
      freezeMs,
      frozenDays,
      coldCountMs,
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

export interface DeliveryIndexReport {
  database: 'postgres' | 'pglite';
  sizes: readonly number[];
  freeze: {
    size: number;
    days: number;
    totalMs: number;
    perDayMs: number;
    coldCountMs: Record<string, number>;
  }[];
  rows: { path: string; small: LoadResult; large: LoadResult; ratio: number }[];
}

export async function runDeliveryIndex(): Promise<DeliveryIndexReport> {
  console.log('\n## 9. The SMS Delivery Index at scale');
  const prepared: Prepared[] = [];
  try {
    for (const size of SIZES) {
      console.log(`Seeding ${size.toLocaleString('en-US')} settled orders over 90 days…`);
      prepared.push(await prepare(size));
      const last = prepared.at(-1)!;
      console.log(
        `  froze ${last.frozenDays} days in ${last.freezeMs.toFixed(0)} ms (${(last.freezeMs / Math.max(1, last.frozenDays)).toFixed(0)} ms a day); first counts: ${Object.entries(
          last.coldCountMs,
        )
          .map(([window, ms]) => `${window} ${ms.toFixed(0)} ms`)
          .join(', ')}`,
      );
    }
    const [small, large] = prepared as [Prepared, Prepared];
    const runs = PATHS.map(() => [[], []] as [LoadResult[], LoadResult[]]);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [pathIndex, path] of PATHS.entries()) {
        for (const [sizeIndex, target] of [small, large].entries()) {
          const result = await measureLoad({
            url: `${target.product.url}${path}`,
            headers: { 'accept-encoding': 'gzip, deflate, br' },
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
      // A p99 of 0 ms (autocannon's resolution) would make any ratio infinite: count it as 1 ms.
      return {
        path,
        small: smallResult,
        large: largeResult,
        ratio: Math.max(1, largeResult.p99Ms) / Math.max(1, smallResult.p99Ms),
      };
    });
    console.log(
      `p99 with ${SIZES[1]} orders / p99 with ${SIZES[0]}, median of ${ROUNDS} rounds (target ≤ ${INDEX_RATIO_TARGET}):`,
    );
    for (const row of rows)
      console.log(
        `  ${row.path}: ${row.small.p99Ms} ms → ${row.large.p99Ms} ms, ratio ${row.ratio.toFixed(2)}`,
      );
    return {
      database: large.kind,
      sizes: SIZES,
      freeze: prepared.map((target) => ({
        size: target.size,
        days: target.frozenDays,
        totalMs: target.freezeMs,
        perDayMs: target.freezeMs / Math.max(1, target.frozenDays),
        coldCountMs: target.coldCountMs,
      })),
      rows,
    };
  } finally {
    for (const target of prepared) await target.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDeliveryIndex();
