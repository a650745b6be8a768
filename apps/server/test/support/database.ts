import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type DatabaseHandle, openDatabase, queryRows } from '../../src/db/client';

let shared: Promise<DatabaseHandle> | undefined;

/** The real PostgreSQL the suite runs against when TEST_DATABASE_URL is set; PGlite otherwise. */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;

async function createWorkerDatabase(baseUrl: string): Promise<string> {
  const url = new URL(baseUrl);
  const name = `${url.pathname.slice(1) || 'simcode'}_w${process.env.VITEST_POOL_ID ?? '0'}`;
  // The maintenance database exists on every server; the base database need not.
  const adminUrl = new URL(baseUrl);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  url.pathname = `/${name}`;
  return url.toString();
}

async function open(): Promise<DatabaseHandle> {
  const handle = testDatabaseUrl
    ? await openDatabase({ databaseUrl: await createWorkerDatabase(testDatabaseUrl), poolSize: 20 })
    : await openDatabase({ pgliteDir: 'memory://' });
  await handle.migrate();
  return handle;
}

/** One migrated database per test worker: opening PGlite costs seconds and hundreds of MB. */
export function testDatabase(): Promise<DatabaseHandle> {
  shared ??= open();
  return shared;
}

/**
 * Empties every table. The ledger and the audit log refuse TRUNCATE through statement triggers; a test
 * database's superuser switches triggers off for this one transaction (an application role cannot).
 */
export async function resetDatabase(handle: DatabaseHandle): Promise<void> {
  const rows = await queryRows<{ schemaname: string; tablename: string }>(
    handle.db,
    sql`select schemaname, tablename from pg_tables where schemaname in ('public', 'sim', 'sandbox')`,
  );
  const tables = rows.map((row) => `"${row.schemaname}"."${row.tablename}"`);
  if (tables.length > 0) {
    await handle.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql.raw(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`));
    });
  }
}

export function testDatabaseIfOpen(): Promise<DatabaseHandle> | undefined {
  return shared;
}
