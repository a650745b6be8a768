import { request } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { controlSocketPath, type FolderLock } from '../../db/pglite-lock';

/**
 * The running server's local control channel: the Unix socket in DATA_DIR that also holds the embedded
 * database for this process (db/pglite-lock.ts), readable by the data folder's owner only. Only one process
 * may open the data folder, so the admin command asks the running server, through this socket, for the
 * snapshot it cannot take itself.
 */
export function serveControlSocket(
  lock: FolderLock,
  takeBackup: () => Promise<Buffer>,
  log: FastifyBaseLogger,
): void {
  lock.serve((incoming, answer) => {
    if (incoming.method !== 'POST' || incoming.url !== '/backup') {
      answer.writeHead(404).end('Unknown command');
      return;
    }
    takeBackup().then(
      (backup) => answer.writeHead(200, { 'content-type': 'application/octet-stream' }).end(backup),
      (error: unknown) => {
        log.error({ err: error }, 'backup failed');
        answer.writeHead(500).end(`The backup failed: ${(error as Error).message}`);
      },
    );
  });
}

/** Asks the server running on `dataDir` for a backup. */
export function requestBackup(dataDir: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const call = request(
      { socketPath: controlSocketPath(dataDir), method: 'POST', path: '/backup' },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          const body = Buffer.concat(chunks);
          if (answer.statusCode === 200) resolve(body);
          else reject(new Error(body.toString() || `the server answered ${answer.statusCode}`));
        });
        answer.on('error', reject);
      },
    );
    call.on('error', reject);
    call.end();
  });
}
