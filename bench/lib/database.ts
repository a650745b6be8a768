import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase, pgliteDirFor } from '../../apps/server/src/db/client';

/**
 * Where the product under test keeps its data. With DATABASE_URL: a fresh database on that server for
 * this run (dropped after). Without: PGlite in a fresh data folder, with a warning, since the figures
 * then say little about production.
 */
export interface BenchDatabase {
  /** Environment for the product: DATABASE_URL, or its removal (PGlite under dataDir). */
  env: Record<string, string | undefined>;
  dataDir: string;
  kind: 'postgres' | 'pglite';
  /**
   * Opens it from the bench process (migrated) for seeding, or to run the app in process. Close it before
   * starting a PGlite product. `poolSize`: PostgreSQL connections (4 by default, enough for seeding).
   */
  open(options?: { poolSize?: number }): Promise<DatabaseHandle>;
  /** Drops the database (PostgreSQL) and removes the data folder. */
  drop(): Promise<void>;
}

/** Which database a part runs on: PostgreSQL at DATABASE_URL, or the embedded default (`npm start`'s). */
export type BenchDatabaseKind = 'postgres' | 'pglite';

/** The kind DATABASE_URL makes the default: PostgreSQL when set. */
export function defaultDatabaseKind(): BenchDatabaseKind {
  return process.env.DATABASE_URL ? 'postgres' : 'pglite';
}

export async function createBenchDatabase(
  label: string,
  kind: BenchDatabaseKind = defaultDatabaseKind(),
): Promise<BenchDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), `simcode-bench-${label}-`));
  const serverUrl = kind === 'postgres' ? process.env.DATABASE_URL : undefined;
  if (kind === 'postgres' && !serverUrl) throw new Error('PostgreSQL asked for, but DATABASE_URL is not set');
  if (!serverUrl) {
    // Asked for (the embedded default measured on purpose), or the only database there is.
    if (process.env.DATABASE_URL === undefined)
      console.warn(
        `! DATABASE_URL is not set: ${label} runs on PGlite, which is not what production runs on.`,
      );
    return {
      env: { DATABASE_URL: undefined },
      dataDir,
      kind: 'pglite',
      async open() {
        const handle = await openDatabase({ pgliteDir: pgliteDirFor(dataDir) });
        await handle.migrate();
        return handle;
      },
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `simcode_bench_${label.replace(/\W/g, '_')}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    dataDir,
    kind: 'postgres',
    async open(options = {}) {
      const handle = await openDatabase({ databaseUrl: url.toString(), poolSize: options.poolSize ?? 4 });
      await handle.migrate();
      return handle;
    },
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}
