// 4. Scale of lists: p99 latency of the lists the pages load (one-time numbers, rents, tickets as the user
// and as an administrator) with 10^3 and then 10^5 rows in the database, and the ratio between the two.
// Lists are paged and indexed, so the larger database must not make them slower: the ratio must stay
// under 2. The ratio compares two measurements of the same run, so the machine's speed cancels out.
//
// For each size: a fresh database (PostgreSQL on DATABASE_URL; PGlite with a warning otherwise), seeded in
// bulk with that many numbers, rents and tickets (with their first message) of one user, plus an
// administrator; vacuumed and analysed, as autovacuum leaves a table after a bulk load; then the built
// product. Both products run side by side and are measured in turn, three rounds (LIST_ROUNDS), each list
// with autocannon (10 connections, a 1 s warm-up, then LIST_SECONDS, default 4 s); the median round counts.
//
//   npx tsx bench/list-scale.ts

import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client';
import { createBenchDatabase } from './lib/database';
import { type LoadResult, measureLoad } from './lib/load';
import { type RunningProcess, startProduct } from './lib/processes';
import { BENCH_JWT_SECRET, seedActivations, seedRents, seedTickets, seedUser } from './lib/seed';

const SIZES = [1_000, 100_000] as const;
const CONNECTIONS = 10;
const SECONDS = Number(process.env.LIST_SECONDS ?? process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.LIST_ROUNDS ?? 3);
export const LIST_RATIO_TARGET = 2;

interface ListTarget {
  name: string;
  /** The path, given the size and the ids seeded. */
  path: (context: { deepActivationId: number }) => string;
  as: 'user' | 'admin';
}

const LISTS: ListTarget[] = [
  { name: 'GET /api/dashboard/numbers', path: () => '/api/dashboard/numbers', as: 'user' },
  {
    // The first page is kept in memory between changes; a later page always reads the database.
    name: 'GET /api/dashboard/numbers?before= (a page halfway down, not cached)',
    path: ({ deepActivationId }) => `/api/dashboard/numbers?before=${deepActivationId}`,
    as: 'user',
  },
  { name: 'GET /api/dashboard/rents', path: () => '/api/dashboard/rents', as: 'user' },
  { name: 'GET /api/tickets (user)', path: () => '/api/tickets', as: 'user' },
  {
    name: 'GET /api/tickets/admin/tickets (administrator)',
    path: () => '/api/tickets/admin/tickets',
    as: 'admin',
  },
];

export interface ListScaleRow {
  name: string;
  small: LoadResult;
  large: LoadResult;
  /** p99 with 10^5 rows over p99 with 10^3. */
  ratio: number;
}

export interface ListScaleReport {
  database: 'postgres' | 'pglite';
  sizes: readonly number[];
  seconds: number;
  rounds: number;
  rows: ListScaleRow[];
}

interface Prepared {
  size: number;
  kind: 'postgres' | 'pglite';
  product: RunningProcess;
  headers: Record<'user' | 'admin', Record<string, string>>;
  deepActivationId: number;
  stop(): Promise<void>;
}

/** A fresh database with `size` rows of each list, and the product started on it. */
async function prepare(size: number): Promise<Prepared> {
  const database = await createBenchDatabase(`lists_${size}`);
  let product: RunningProcess | undefined;
  try {
    const seeding = await database.open();
    let user: Awaited<ReturnType<typeof seedUser>>;
    let admin: Awaited<ReturnType<typeof seedUser>>;
    let deepActivationId: number;
    try {
      user = await seedUser(seeding.db, 'bench_lists_user', { balanceCents: 100_000 });
      admin = await seedUser(seeding.db, 'bench_lists_admin', { admin: true });
      await seedActivations(seeding.db, user.id, size);
      await seedRents(seeding.db, user.id, size);
      await seedTickets(seeding.db, user.id, size);
      await seeding.db.execute(sql`vacuum analyze activations, rents, tickets, ticket_messages`);
      const [middle] = await queryRows<{ id: number }>(
        seeding.db,
        sql`select id from activations where user_id = ${user.id} order by id offset ${Math.floor(size / 2)} limit 1`,
      );
      deepActivationId = middle!.id;
    } finally {
      await seeding.close();
    }
    product = await startProduct({
      dataDir: database.dataDir,
      env: { ...database.env, JWT_SECRET: BENCH_JWT_SECRET },
    });
    const running = product;
    const as = (authorization: string) => ({ authorization, 'accept-encoding': 'gzip, deflate, br' });
    return {
      size,
      kind: database.kind,
      product: running,
      headers: { user: as(user.authorization), admin: as(admin.authorization) },
      deepActivationId,
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

export async function runListScale(): Promise<ListScaleReport> {
  console.log('\n## 4. Scale of lists');
  const prepared: Prepared[] = [];
  try {
    for (const size of SIZES) {
      console.log(`Seeding ${size.toLocaleString('en-US')} numbers, rents and tickets…`);
      prepared.push(await prepare(size));
    }
    const [small, large] = prepared as [Prepared, Prepared];
    // Both databases are measured in turn, ROUNDS times, so a change in the machine's load (it is shared)
    // falls on both sizes alike; the median round of each is reported.
    const runs = LISTS.map(() => [[], []] as [LoadResult[], LoadResult[]]);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [listIndex, list] of LISTS.entries()) {
        for (const [sizeIndex, target] of [small, large].entries()) {
          const result = await measureLoad({
            url: `${target.product.url}${list.path({ deepActivationId: target.deepActivationId })}`,
            headers: target.headers[list.as],
            connections: CONNECTIONS,
            warmupSeconds: 1,
            durationSeconds: SECONDS,
          });
          runs[listIndex]![sizeIndex as 0 | 1].push(result);
          console.log(
            `  round ${round + 1}, ${target.size.toLocaleString('en-US').padStart(7)} rows  ${list.name}: p99 ${result.p99Ms} ms, p50 ${result.p50Ms} ms, ${result.requestsPerSecond.toFixed(0)} req/s, errors ${result.errors + result.non2xx}`,
          );
        }
      }
    }
    const median = (results: LoadResult[]) =>
      [...results].sort((a, b) => a.p99Ms - b.p99Ms)[Math.floor(results.length / 2)]!;
    const rows = LISTS.map((list, index) => {
      const smallResult = median(runs[index]![0]);
      const largeResult = median(runs[index]![1]);
      return {
        name: list.name,
        small: smallResult,
        large: largeResult,
        ratio: largeResult.p99Ms / smallResult.p99Ms,
      };
    });
    console.log(
      `p99 with 10^5 rows / p99 with 10^3 rows, median of ${ROUNDS} rounds (target < ${LIST_RATIO_TARGET}):`,
    );
    for (const row of rows)
      console.log(
        `  ${row.name}: ${row.small.p99Ms} ms → ${row.large.p99Ms} ms, ratio ${row.ratio.toFixed(2)}`,
      );
    return { database: large.kind, sizes: SIZES, seconds: SECONDS, rounds: ROUNDS, rows };
  } finally {
    for (const target of prepared) await target.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runListScale();
