import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { testDatabase, testDatabaseUrl } from '../../../test/support/database';
import { decodeBackup, encodeBackup } from './archive';
import { restoreBackup } from './restore';
import { takeSnapshot, writeFileAtomically, writeScheduledSnapshot } from './snapshot';

describe('backup files', () => {
  it('keeps the newest scheduled snapshots only', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simcode-backups-'));
    writeFileSync(path.join(dir, 'unrelated.txt'), 'kept');
    for (let minute = 0; minute < 5; minute++) {
      await writeScheduledSnapshot(
        Buffer.from(`snapshot ${minute}`),
        dir,
        3,
        new Date(Date.UTC(2026, 0, 1, 12, minute)),
      );
    }
    expect(readdirSync(dir).sort()).toEqual([
      'simcode-20260101T120200Z.backup',
      'simcode-20260101T120300Z.backup',
      'simcode-20260101T120400Z.backup',
      'unrelated.txt',
    ]);
  });

  it('round-trips its header and refuses a file that is not one', () => {
    const header = {
      database: 'pglite' as const,
      createdAt: '2026-01-01T12:00:00.000Z',
      secrets: { JWT_SECRET: 'x' },
    };
    const payload = Buffer.from([0x1f, 0x8b, 0x0a, 0x00]);
    const decoded = decodeBackup(encodeBackup(header, payload));
    expect(decoded.header).toEqual(header);
    expect(decoded.pgdata.equals(payload)).toBe(true);
    expect(() => decodeBackup(Buffer.from('PGDMP custom dump'))).toThrow(/pg_restore/);
  });

  it('refuses to restore into a folder that holds anything', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simcode-restore-'));
    writeFileSync(path.join(dir, 'secrets.json'), '{}');
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'simcode-file-')), 'x.backup');
    writeFileSync(file, encodeBackup({ database: 'pglite', createdAt: '', secrets: {} }, Buffer.alloc(0)));
    await expect(restoreBackup(file, dir)).rejects.toThrow(/not empty/);
    expect(readdirSync(dir)).toEqual(['secrets.json']);
  });

  it.skipIf(!!testDatabaseUrl)(
    'snapshots the embedded database while it serves, without stalling queries, into a file that restores',
    async () => {
      // A database of its own: the worker's shared one grows with every test before it, and a snapshot of it
      // would measure the suite's history rather than the snapshot.
      const pglite = await PGlite.create();
      await pglite.exec(
        "create table users (id serial primary key, name text); insert into users (name) select 'user ' || n from generate_series(1, 1000) n",
      );
      const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-live-'));
      let queries = 0;
      let done = false;
      const snapshot = takeSnapshot(pglite, dataDir, new Date()).finally(() => {
        done = true;
      });
      // Requests keep coming while the snapshot is taken: each waits at most for the copy, not the compression.
      while (!done) {
        await pglite.query('select count(*) from users');
        queries += 1;
        // A request every 50 ms, as traffic does: a tight loop of queries would keep the snapshot's
        // exclusive transaction waiting for its turn.
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const file = path.join(mkdtempSync(path.join(tmpdir(), 'simcode-file-')), 'live.backup');
      await writeFileAtomically(file, await snapshot);
      // Queries answered while the snapshot was being made: the lock is held for the copy only. (How long the
      // copy takes depends on the machine's load, so it is no assertion here.)
      expect(queries).toBeGreaterThan(1);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const restored = path.join(mkdtempSync(path.join(tmpdir(), 'simcode-restored-')), 'data');
      await restoreBackup(file, restored);
      await pglite.close();
    },
    // A cap, not an assertion: the whole embedded database is copied and compressed on a busy machine.
    120_000,
  );

  it.skipIf(!testDatabaseUrl)(
    "writes PostgreSQL's dump for its owner alone (0600), whatever the caller's umask",
    async () => {
      const { pool } = await testDatabase();
      const out = path.join(mkdtempSync(path.join(tmpdir(), 'simcode-dump-')), 'simcode.dump');
      const adminCommand = fileURLToPath(new URL('../../cli/admin.ts', import.meta.url));
      const run = spawnSync(process.execPath, ['--import', 'tsx', adminCommand, 'backup', '--out', out], {
        env: {
          ...process.env,
          DATABASE_URL: pool!.options.connectionString,
          DATA_DIR: mkdtempSync(path.join(tmpdir(), 'simcode-data-')),
        },
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).toBe(0);
      expect(statSync(out).mode & 0o777).toBe(0o600);
    },
  );
});
