import 'dotenv/config';
import { type Config, ConfigError, loadConfig } from '../config';
import { type DatabaseHandle, openDatabase, pgliteDirFor } from '../db/client';
import { restrictContents, secureDataDir } from '../db/data-dir';
import { claimPgliteFolder, type FolderLock } from '../db/pglite-lock';

/** Stops a command with a message for the operator, never a stack trace. */
export function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * Runs a console command against the configured database, migrated, and closes it after. With the
 * embedded database it first makes sure no server holds the same folder.
 */
export async function withCommandDatabase(
  work: (database: DatabaseHandle, config: Config) => Promise<void>,
): Promise<void> {
  let config: Config;
  let folderLock: FolderLock | undefined;
  try {
    config = loadConfig();
    for (const warning of secureDataDir(config.DATA_DIR)) console.error(`WARNING: ${warning}`);
    if (!config.DATABASE_URL) folderLock = await claimPgliteFolder(config.DATA_DIR);
  } catch (error) {
    fail(error instanceof ConfigError ? error.message : (error as Error).message);
  }
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    pgliteDir: pgliteDirFor(config.DATA_DIR),
  });
  try {
    await database.migrate();
    restrictContents(config.DATA_DIR);
    await work(database, config);
  } finally {
    await database.close();
    await folderLock?.release();
  }
}
