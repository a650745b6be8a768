// 0. Start and memory: how long the product takes from `node` to its first ready answer, and how much
// memory (RSS) it holds idle, run as `npm start` runs it (the compiled JavaScript, plain Node) and, for
// comparison, from its TypeScript sources through tsx's loader (how it ran before issue 19), on the
// embedded database and on PostgreSQL.
//
//   npx tsx bench/startup.ts                                                       # PGlite only
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/startup.ts   # and PostgreSQL

import { type BenchDatabaseKind, createBenchDatabase } from './lib/database';
import { type RunningProcess, residentBytes, startProduct } from './lib/processes';

/** Seconds the product is left alone before its idle memory is read. */
const IDLE_SECONDS = Number(process.env.STARTUP_IDLE_SECONDS ?? 15);
export const IDLE_RSS_TARGET_MB = 250;
const MB = 1024 * 1024;

export interface StartupRow {
  database: BenchDatabaseKind;
  runner: 'built' | 'tsx';
  /** Spawn to the first ready answer on a fresh database (creating it and migrating included). */
  firstStartMs: number;
  /** The same on the database the first start left (what a restart costs). */
  restartMs: number;
  /** RSS after IDLE_SECONDS of the first started process doing nothing but its jobs (a fresh clone). */
  idleRssMb: number;
  /** The same after the restart. */
  restartIdleRssMb: number;
}

export interface StartupReport {
  idleSeconds: number;
  rows: StartupRow[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function measure(kind: BenchDatabaseKind, runner: 'built' | 'tsx'): Promise<StartupRow> {
  const database = await createBenchDatabase(`startup_${runner}`, kind);
  let product: (RunningProcess & { startMs: number }) | undefined;
  try {
    // The product's own log level and settings: only where it keeps its data differs.
    const options = { runner, dataDir: database.dataDir, env: { ...database.env, LOG_LEVEL: 'info' } };
    product = await startProduct(options);
    const firstStartMs = product.startMs;
    await sleep(IDLE_SECONDS * 1000);
    const idleRssMb = residentBytes(product.pid) / MB;
    await product.stop();
    product = await startProduct(options);
    const restartMs = product.startMs;
    await sleep(IDLE_SECONDS * 1000);
    const row: StartupRow = {
      database: kind,
      runner,
      firstStartMs,
      restartMs,
      idleRssMb,
      restartIdleRssMb: residentBytes(product.pid) / MB,
    };
    console.log(
      `${kind}, ${runner === 'built' ? 'compiled (npm start)' : 'tsx loader'}: first start ${(firstStartMs / 1000).toFixed(1)} s (idle RSS ${idleRssMb.toFixed(0)} MB), restart ${(restartMs / 1000).toFixed(1)} s (idle RSS ${row.restartIdleRssMb.toFixed(0)} MB)`,
    );
    return row;
  } finally {
    await product?.stop();
    await database.drop();
  }
}

export async function runStartup(): Promise<StartupReport> {
  console.log('\n## 0. Start and memory');
  const kinds: BenchDatabaseKind[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
  const rows: StartupRow[] = [];
  for (const kind of kinds)
    for (const runner of ['built', 'tsx'] as const) rows.push(await measure(kind, runner));
  return { idleSeconds: IDLE_SECONDS, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) await runStartup();
