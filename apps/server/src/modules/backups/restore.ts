import { existsSync, readdirSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pgliteDirFor } from '../../db/client';
import { decodeBackup } from './archive';

/** Restores an embedded-database backup into a new data folder; refuses a folder that holds anything. */
export async function restoreBackup(backupFile: string, dataDir: string): Promise<{ createdAt: string }> {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) {
    throw new Error(`${dataDir} is not empty: restore into a new data folder, then point DATA_DIR at it.`);
  }
  const { header, pgdata } = decodeBackup(await readFile(backupFile));
  await mkdir(dataDir, { recursive: true });
  if (Object.keys(header.secrets).length > 0) {
    await writeFile(path.join(dataDir, 'secrets.json'), `${JSON.stringify(header.secrets, null, 2)}\n`, {
      mode: 0o600,
    });
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create(pgliteDirFor(dataDir), { loadDataDir: new Blob([pgdata]) });
  // Opens and answers: the copy is usable, not only unpacked.
  await pglite.query('select count(*) from users');
  await pglite.close();
  return { createdAt: header.createdAt };
}
