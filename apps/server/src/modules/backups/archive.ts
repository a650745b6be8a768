/**
 * The embedded database's backup file: a line naming the format, a line of JSON (what it is, when it was
 * taken, the generated secrets the data needs: session keys, the built-in upstreams' keys), then PGlite's
 * own gzipped tarball of its data folder. Restoring both gives a data folder that starts as the original.
 */
const MAGIC = 'SIMCODE-BACKUP 1';

export interface BackupHeader {
  database: 'pglite';
  createdAt: string;
  /** The generated secrets of DATA_DIR/secrets.json (absent when they come from the environment). */
  secrets: Record<string, string>;
}

export function encodeBackup(header: BackupHeader, pgdata: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from(`${MAGIC}\n${JSON.stringify(header)}\n`), pgdata]);
}

export function decodeBackup(file: Buffer): { header: BackupHeader; pgdata: Buffer } {
  const firstLineEnd = file.indexOf(0x0a);
  const secondLineEnd = firstLineEnd < 0 ? -1 : file.indexOf(0x0a, firstLineEnd + 1);
  if (secondLineEnd < 0 || file.subarray(0, firstLineEnd).toString() !== MAGIC) {
    throw new Error(
      'This is not a backup of the embedded database taken by `npm run admin -- backup` (a PostgreSQL dump is restored with pg_restore).',
    );
  }
  const header = JSON.parse(file.subarray(firstLineEnd + 1, secondLineEnd).toString()) as BackupHeader;
  return { header, pgdata: file.subarray(secondLineEnd + 1) };
}
