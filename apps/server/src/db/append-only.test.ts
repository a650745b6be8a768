import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/support/database';
import type { DatabaseHandle } from './client';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await testDatabase();
});

describe('the ledger and the audit log are append-only', () => {
  it.each(['ledger_entries', 'audit_log'])('%s refuses TRUNCATE, whoever asks', async (table) => {
    await expect(database.db.execute(sql.raw(`TRUNCATE ${table}`))).rejects.toThrow();
    await expect(database.db.execute(sql.raw(`TRUNCATE ${table} CASCADE`))).rejects.toThrow();
  });
});
