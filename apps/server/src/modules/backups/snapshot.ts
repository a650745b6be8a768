import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { PGlite } from '@electric-sql/pglite';
import { encodeBackup } from './archive';

const gzipAsync = promisify(gzip);
/** zlib's default: the one PGlite used when it compressed its own dump. */
const BACKUP_GZIP_LEVEL = 6;

function storedSecrets(dataDir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * A consistent snapshot of the running embedded database. PGlite runs one statement at a time; holding its
 * transaction lock as well means no transaction is half done in the copy. Only the copy happens under the
 * lock (requests wait for it: tens of milliseconds for a small database); the compression, seconds of work,
 * runs after it on libuv's thread pool, so the server keeps answering meanwhile.
 */
export async function takeSnapshot(pglite: PGlite, dataDir: string, now: Date): Promise<Buffer> {
  const tarball = await pglite._runExclusiveTransaction(async () => {
    const dump = await pglite.dumpDataDir('none');
    return new Uint8Array(await dump.arrayBuffer());
  });
  // Gzipped, as PGlite's own `dumpDataDir('gzip')` writes it: restores read either.
  const pgdata = await gzipAsync(tarball, { level: BACKUP_GZIP_LEVEL });
  return encodeBackup(
    { database: 'pglite', createdAt: now.toISOString(), secrets: storedSecrets(dataDir) },
    pgdata,
  );
}

/** Writes through a temporary file and a rename, so a crash never leaves half a backup under the final name. */
export async function writeFileAtomically(file: string, content: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.partial`;
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, file);
}

const SCHEDULED_PREFIX = 'simcode-';
const SCHEDULED_SUFFIX = '.backup';

/** A scheduled snapshot into `dir`, named by its time so they sort oldest first; keeps the newest `keep`. */
export async function writeScheduledSnapshot(
  snapshot: Buffer,
  dir: string,
  keep: number,
  now: Date,
): Promise<string> {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const file = path.join(dir, `${SCHEDULED_PREFIX}${stamp}${SCHEDULED_SUFFIX}`);
  await writeFileAtomically(file, snapshot);
  const scheduled = (await readdir(dir))
    .filter((name) => name.startsWith(SCHEDULED_PREFIX) && name.endsWith(SCHEDULED_SUFFIX))
    .sort();
  for (const old of scheduled.slice(0, Math.max(0, scheduled.length - keep))) {
    await rm(path.join(dir, old), { force: true });
  }
  return file;
}
