import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * PGlite keeps its files for one process at a time: a second process opening the same folder (the admin
 * command while the server runs) could corrupt them. The server leaves its pid here; the commands check it.
 */
function lockFile(dataDir: string): string {
  return path.join(dataDir, 'pglite.pid');
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process (other than this one) that holds the embedded database in `dataDir`, if any. */
export function pgliteHolder(dataDir: string): number | undefined {
  const file = lockFile(dataDir);
  if (!existsSync(file)) return undefined;
  const pid = Number(readFileSync(file, 'utf8'));
  return pid !== process.pid && Number.isInteger(pid) && isAlive(pid) ? pid : undefined;
}

export function claimPgliteFolder(dataDir: string): void {
  const pid = pgliteHolder(dataDir);
  if (pid !== undefined) {
    throw new Error(
      `Another process (pid ${pid}) is using the embedded database in ${dataDir}. Stop the server first, or run on PostgreSQL (DATABASE_URL).`,
    );
  }
  writeFileSync(lockFile(dataDir), String(process.pid));
}

export function releasePgliteFolder(dataDir: string): void {
  const file = lockFile(dataDir);
  if (existsSync(file) && Number(readFileSync(file, 'utf8')) === process.pid) rmSync(file);
}
