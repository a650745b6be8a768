import { chmodSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The running server's local control channel: a Unix socket in DATA_DIR, readable by the data folder's
 * owner only. With the embedded database only one process may open the data folder, so the admin command
 * asks the running server, through this socket, for the snapshot it cannot take itself.
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control.sock');
}

export function startControlSocket(
  dataDir: string,
  takeBackup: () => Promise<Buffer>,
  log: FastifyBaseLogger,
): Promise<Server> {
  const socketPath = controlSocketPath(dataDir);
  // A socket file left by a killed process; this process holds the data folder, so it is nobody's.
  rmSync(socketPath, { force: true });
  const server = createServer((incoming, answer) => {
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
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      chmodSync(socketPath, 0o600);
      resolve(server);
    });
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
