import { randomUUID } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';

/**
 * PGlite keeps its files for one process at a time: a second process opening the same folder (the admin
 * command while the server runs, a second server) could corrupt them. The holder listens on a Unix socket
 * in the data folder. The kernel closes a listening socket with its process however the process ends, so a
 * killed holder leaves a socket file that refuses connections, and the next start takes it over: no pid to
 * outlive its process and name another one.
 *
 * The same socket is the running server's control channel (modules/backups/control-socket.ts): the admin
 * command asks the holder for a backup it cannot take itself.
 */
export function controlSocketPath(dataDir: string): string {
  return path.join(dataDir, 'control.sock');
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface FolderLock {
  /** What the control socket answers; until set, every request is told that the folder is busy. */
  serve(handler: Handler): void;
  release(): Promise<void>;
}

export class FolderHeldError extends Error {
  constructor(dataDir: string) {
    super(
      `Another process is using the embedded database in ${dataDir}. Stop the server first, or run on PostgreSQL (DATABASE_URL).`,
    );
    this.name = 'FolderHeldError';
  }
}

/** Whether a live process listens on the socket: false when there is no socket or nobody accepts. */
function answers(socketPath: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const socket = connect({ path: socketPath });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') resolve(false);
      else reject(error);
    });
  });
}

function listen(server: Server, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once('error', fail);
    server.listen(socketPath, () => {
      server.off('error', fail);
      resolve();
    });
  });
}

/**
 * Removes a dead holder's socket file, and only a dead one: the file is moved aside (atomic) and asked
 * again there, so a process that took the folder over in between keeps its socket (put back, and this
 * claim fails). An inode number would not do: a new socket may get the dead one's.
 */
async function removeDeadSocket(socketPath: string): Promise<boolean> {
  const aside = `${socketPath}.${randomUUID()}.dead`;
  try {
    renameSync(socketPath, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  if (!(await answers(aside))) {
    rmSync(aside, { force: true });
    return true;
  }
  try {
    linkSync(aside, socketPath);
  } catch {
    // Yet another process holds the path now: the folder is taken either way.
  }
  rmSync(aside, { force: true });
  return false;
}

/** Takes the data folder for this process, or fails with FolderHeldError when a live process holds it. */
export async function claimPgliteFolder(dataDir: string): Promise<FolderLock> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const socketPath = controlSocketPath(dataDir);
  let handler: Handler = (_request, response) => {
    response.writeHead(503).end('A command holds the data folder; try again when it has finished.');
  };
  const server = createServer((request, response) => handler(request, response));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await listen(server, socketPath);
      chmodSync(socketPath, 0o600);
      // The pid file of earlier versions: nothing reads it any more.
      rmSync(path.join(dataDir, 'pglite.pid'), { force: true });
      return {
        serve(next) {
          handler = next;
        },
        release: () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
    if (await answers(socketPath)) break;
    if (!(await removeDeadSocket(socketPath))) break;
  }
  throw new FolderHeldError(dataDir);
}

/** Whether a live process holds the embedded database in `dataDir` (and answers on its control socket). */
export function pgliteFolderHeld(dataDir: string): Promise<boolean> {
  return answers(controlSocketPath(dataDir));
}
