import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testDatabase, testDatabaseUrl } from '../../../test/support/database';
import { decodeBackup, encodeBackup } from './archive';
import { restoreBackup } from './restore';
import { writeScheduledSnapshot } from './snapshot';

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
