import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { PGlite } from '@electric-sql/pglite';
import type { ExtractTablesWithRelations, SQL } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { serverRoot } from '../lib/paths';
import * as schema from './schema';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Repositories accept either, so a service can run several of them in one transaction. */
export type Executor = Database | Transaction;

/** Plain SQL files, read at run time from the sources (the compiled server has no copy of its own). */
export const migrationsFolder = path.join(serverRoot, 'src/db/migrations');

/**
 * PostgreSQL's default 128 MB of shared buffers is allocated inside PGlite's WebAssembly memory, which
 * never shrinks: it was a quarter of the idle server's memory. A small install's whole database fits in
 * 32 MB (a fresh one is about 10 MB of tables); reads beyond it come from the OS's file cache.
 */
const PGLITE_SETTINGS = ['shared_buffers = 16MB', 'wal_buffers = 1MB'];

/**
 * V8 compiles PGlite's WebAssembly (PostgreSQL, about 9 MB of it) with its baseline compiler, Liftoff, and
 * then recompiles the functions that run often with its optimizing compiler, TurboFan, on background
 * threads. Those recompilations kept about 60 MB of the idle server's memory (compiler memory the allocator
 * keeps, and the second copy of the code) and took seconds of CPU after every start, while a query ran at
 * about the same CPU time either way (ADR 0034). Liftoff alone compiles each function once, quickly.
 * V8 reads these when it compiles a module: set before PGlite compiles its own. (`--liftoff-only` says the
 * same on a command line, but set at run time Node 24's V8 leaves the two it implies unset.)
 */
const WASM_COMPILER_FLAGS = ['--liftoff', '--no-wasm-tier-up', '--no-wasm-dynamic-tiering'];

/** A held lock id for migrations, so two instances starting together do not both migrate. */
const MIGRATION_LOCK_ID = 72_011_001;

export interface DatabaseHandle {
  db: Database;
  kind: 'postgres' | 'pglite';
  /** The underlying clients, for LISTEN/NOTIFY and for tests that need raw access. */
  pool?: pg.Pool;
  pglite?: PGlite;
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** postgres://... ; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Folder for PGlite's files; `memory://` keeps it in memory (tests). */
  pgliteDir?: string;
  poolSize?: number;
}

export async function openDatabase(options: OpenDatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: options.poolSize ?? 20,
      // Names this product's connections in pg_stat_activity; an application_name in the URL wins.
      application_name: 'simcode',
    });
    // A dropped idle connection must not crash the process; the pool replaces it.
    pool.on('error', () => {});
    const db = drizzleNodePg({ client: pool, schema, casing: 'snake_case' }) as unknown as Database;
    return {
      db,
      kind: 'postgres',
      pool,
      async migrate() {
        const client = await pool.connect();
        try {
          await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
          await migrateNodePg(db as never, { migrationsFolder });
        } finally {
          await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
          client.release();
        }
      },
      close: () => pool.end(),
    };
  }

  const dir = options.pgliteDir ?? 'memory://';
  if (!dir.startsWith('memory://')) {
    mkdirSync(dir, { recursive: true });
    await createPgliteFolderApart(dir);
  }
  setFlagsFromString(WASM_COMPILER_FLAGS.join(' '));
  // Loaded only when used: the embedded database's code weighs tens of megabytes a server on PostgreSQL
  // does not need.
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('drizzle-orm/pglite'),
    import('drizzle-orm/pglite/migrator'),
  ]);
  const pglite = await PGlite.create(dir, { postgresqlconf: PGLITE_SETTINGS });
  const db = drizzlePglite({ client: pglite, schema, casing: 'snake_case' }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    pglite,
    migrate: () => migratePglite(db as never, { migrationsFolder }),
    close: () => pglite.close(),
  };
}

/**
 * Creates a new PGlite data folder (PostgreSQL's initdb) and gives it the schema (the migrations) in a
 * short-lived process of its own. Creating one grows PGlite's WebAssembly memory to about 750 MB, and
 * WebAssembly memory never shrinks: in the server's own process that memory stayed for its whole life (a
 * fresh clone's idle server held 500 MB and more), while opening an existing folder needs about 180 MB. The
 * schema's DDL grew it by some 10 MB more (ADR 0036); the server's own migrate then finds nothing to do. A
 * folder that exists already is left alone.
 */
async function createPgliteFolderApart(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'PG_VERSION'))) return;
  const script = [
    'const [pgliteUrl, dir, settings, drizzleUrl, migratorUrl, migrationsFolder] = process.argv.slice(1);',
    'const [{ PGlite }, { drizzle }, { migrate }] = await Promise.all([pgliteUrl, drizzleUrl, migratorUrl].map((url) => import(url)));',
    'const client = await PGlite.create(dir, { postgresqlconf: JSON.parse(settings) });',
    'await migrate(drizzle({ client }), { migrationsFolder });',
    'await client.close();',
  ].join('\n');
  await new Promise<void>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        ...WASM_COMPILER_FLAGS,
        '--input-type=module',
        '-e',
        script,
        import.meta.resolve('@electric-sql/pglite'),
        dir,
        JSON.stringify(PGLITE_SETTINGS),
        import.meta.resolve('drizzle-orm/pglite'),
        import.meta.resolve('drizzle-orm/pglite/migrator'),
        migrationsFolder,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    );
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0
        ? resolve()
        : reject(
            new Error(`could not create the embedded database in ${dir} (${signal ?? `exit code ${code}`})`),
          ),
    );
  });
}

export function pgliteDirFor(dataDir: string): string {
  return path.join(dataDir, 'pglite');
}

/** Rows of a raw query. Both drivers answer `{ rows }`; the shared Drizzle type cannot say so. */
export async function queryRows<Row>(db: Executor, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}
