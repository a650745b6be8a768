import { readFileSync } from 'node:fs';
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { encodeBackup } from './archive';

function storedSecrets(dataDir: string): Record<string, string> {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, 'secrets.json'), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

/**
 * A consistent snapshot of the running embedded database. PGlite runs one statement at a time; holding its
 * transaction lock as well means no transaction is half done in the copy, and the server keeps serving
 * (requests wait for the copy, a few hundred milliseconds for a small database).
 */
export async function takeSnapshot(pglite: PGlite, dataDir: string, now: Date): Promise<Buffer> {
  const dump = await pglite._runExclusiveTransaction(() => pglite.dumpDataDir('gzip'));
  const pgdata = new Uint8Array(await dump.arrayBuffer());
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
