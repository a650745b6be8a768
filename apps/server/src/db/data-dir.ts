import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

const OWNER_ONLY_FOLDER = 0o700;
const OWNER_ONLY_FILE = 0o600;
/** Group and others' bits. */
const SHARED_BITS = 0o077;

/**
 * Gives the folder's contents to its owner alone: folders 0700, files 0600, wherever they came from. PGlite
 * sets 0666 on the files it creates, whatever the umask: the server runs this again once the database is
 * open (and a file PGlite makes later lives in its 0700 folders, out of others' reach).
 */
export function restrictContents(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isSymbolicLink()) continue;
    const { mode } = lstatSync(entryPath);
    if (entry.isDirectory()) {
      if ((mode & 0o777) !== OWNER_ONLY_FOLDER) chmodSync(entryPath, OWNER_ONLY_FOLDER);
      restrictContents(entryPath);
    } else if ((mode & SHARED_BITS) !== 0) {
      chmodSync(entryPath, mode & OWNER_ONLY_FILE);
    }
  }
}

/**
 * Makes DATA_DIR its owner's alone before anything is opened in it (the embedded database, secrets,
 * outbox, backups): every file this process creates from now on is 0600 and every folder 0700 (the umask),
 * and what an earlier version left (PGlite wrote its files 0666) is fixed. The folder itself may be a mount
 * point the operator set up: it is left as it is, and returned as a warning when others can read it.
 */
export function secureDataDir(dataDir: string): string[] {
  process.umask(SHARED_BITS);
  mkdirSync(dataDir, { recursive: true, mode: OWNER_ONLY_FOLDER });
  restrictContents(dataDir);
  const { mode } = lstatSync(dataDir);
  return (mode & SHARED_BITS) === 0
    ? []
    : [
        `DATA_DIR (${dataDir}) can be read by other users of this machine (mode ${(mode & 0o777).toString(8)}): it holds the database and the secrets; chmod 700 it.`,
      ];
}
