import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { TestApp } from '../test/support/app';
import { createUser } from '../test/support/users';
import { loadConfig } from './config';
import { pgliteFolderHeld } from './db/pglite-lock';
import { startServer } from './server';

/** A GET on a kept-alive socket: the status, the Connection header and the body. */
function get(url: string, agent: Agent): Promise<{ status: number; connection?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const call = request(url, { agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode!, connection: response.headers.connection, body }),
      );
    });
    call.on('error', reject);
    call.end();
  });
}

describe('graceful shutdown', () => {
  it('with live-update streams open: drains (readiness 503, connections closed), ends the streams and releases everything', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-shutdown-'));
    const config = loadConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      PORT: '0',
      SMS_PROVIDERS: 'sim-a',
      SHUTDOWN_DELAY_MS: '400',
    });
    const server = await startServer(config);
    const origin = server.ctx.loopback.origin;
    const user = await createUser({ ctx: server.ctx } as TestApp);
    const streams = await Promise.all(
      [1, 2].map(async () => {
        const response = await fetch(`${origin}/api/dashboard/events`, { headers: user.headers });
        expect(response.status).toBe(200);
        const reader = response.body!.getReader();
        await reader.read();
        return reader;
      }),
    );
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const ready = await get(`${origin}/readyz`, agent);
    expect(ready).toMatchObject({ status: 200, connection: 'keep-alive' });
    expect(JSON.parse(ready.body)).toEqual({ status: 'ready', database: 'pglite', stuckJobs: [] });

    const closing = server.close();
    // During the drain delay: still answering, but not ready, and not keeping the connection.
    const draining = await get(`${origin}/readyz`, agent);
    expect(draining).toMatchObject({ status: 503, connection: 'close' });
    expect(JSON.parse(draining.body)).toMatchObject({ status: 'draining' });

    // Bounded well below close-with-grace's 10 s: before, the open streams held the close until then.
    const outcome = await Promise.race([closing.then(() => 'closed'), sleep(8000).then(() => 'hung')]);
    expect(outcome).toBe('closed');
    for (const reader of streams) {
      const ended = await reader.read().then(
        (chunk) => chunk.done,
        () => true,
      );
      expect(ended).toBe(true);
    }
    // The database is closed and its folder lock released: another process could open it now.
    expect(await pgliteFolderHeld(dataDir)).toBe(false);
    agent.destroy();
  });

  it('writes a log line within a second, not when 4 KB have gathered', async () => {
    // A production logger in a process that stays alive after one line: the line must arrive anyway.
    const script = `
      import { createLogger } from './apps/server/src/server.ts';
      const log = createLogger({ isProduction: true, LOG_LEVEL: 'info', SMS_WEBHOOK_SECRET: 'x'.repeat(32) });
      log.info('one quiet line');
      setInterval(() => {}, 1000);
    `;
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()));
        child.once('exit', (code) => reject(new Error(`exited with ${code} before logging`)));
        setTimeout(() => reject(new Error('no line within 10 s')), 10_000).unref();
      });
      expect(JSON.parse(line)).toMatchObject({ msg: 'one quiet line' });
    } finally {
      child.kill();
    }
  });
});
