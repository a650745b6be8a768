import { chmodSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { secureDataDir } from './data-dir';

const umaskBefore = process.umask();
afterEach(() => {
  process.umask(umaskBefore);
});

const modeOf = (file: string) => statSync(file).mode & 0o777;

describe('the data folder', () => {
  it('gives what an earlier version left to its owner alone, and everything written after too', () => {
    process.umask(0);
    const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-data-'));
    chmodSync(dataDir, 0o755);
    mkdirSync(path.join(dataDir, 'pglite', 'base'), { recursive: true, mode: 0o777 });
    writeFileSync(path.join(dataDir, 'pglite', 'base', '1249'), 'rows', { mode: 0o666 });
    writeFileSync(path.join(dataDir, 'secrets.json'), '{}', { mode: 0o644 });

    const warnings = secureDataDir(dataDir);
    expect(modeOf(path.join(dataDir, 'pglite'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'pglite', 'base'))).toBe(0o700);
    expect(modeOf(path.join(dataDir, 'pglite', 'base', '1249'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'secrets.json'))).toBe(0o600);
    // The folder itself is the operator's: told, not changed.
    expect(modeOf(dataDir)).toBe(0o755);
    expect(warnings.join('\n')).toContain('can be read by other users');

    writeFileSync(path.join(dataDir, 'later.eml'), 'mail');
    mkdirSync(path.join(dataDir, 'backups'));
    expect(modeOf(path.join(dataDir, 'later.eml'))).toBe(0o600);
    expect(modeOf(path.join(dataDir, 'backups'))).toBe(0o700);
  });

  it('creates a missing folder 0700 and has nothing to say about it', () => {
    process.umask(0);
    const dataDir = path.join(mkdtempSync(path.join(tmpdir(), 'simcode-data-')), 'new');
    expect(secureDataDir(dataDir)).toEqual([]);
    expect(modeOf(dataDir)).toBe(0o700);
  });
});
