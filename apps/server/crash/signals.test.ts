// `npm start` as a container's or a process manager's command: SIGTERM sent to npm must stop the server
// (npm does not pass signals on through the shell it runs a script in; the script `exec`s node).
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../bench/lib/processes';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
/** A first start may build the server and the web app. */
const READY_WITHIN_MS = 300_000;
const STOPPED_WITHIN_MS = 20_000;

const answers = (url: string) =>
  fetch(url, { signal: AbortSignal.timeout(2000) }).then(
    (response) => response.ok,
    () => false,
  );

describe('npm start', () => {
  it('stops the server when npm gets SIGTERM', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const npm = spawn('npm', ['start'], {
      cwd: repoRoot,
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'simcode-signals-')),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'ignore', 'pipe'],
      // A group of its own: whatever is left of it afterwards (an orphaned server) is killed with it.
      detached: true,
    });
    let stderr = '';
    npm.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
    try {
      const readyBy = Date.now() + READY_WITHIN_MS;
      while (!(await answers(`${base}/readyz`))) {
        if (npm.exitCode !== null) throw new Error(`npm start exited with ${npm.exitCode}: ${stderr}`);
        if (Date.now() > readyBy) throw new Error(`not ready: ${stderr}`);
        await sleep(500);
      }
      npm.kill('SIGTERM');
      const code = await Promise.race([exited, sleep(STOPPED_WITHIN_MS).then(() => 'still running')]);
      expect(code).toBe(0);
      // No server left behind serving on the port.
      expect(await answers(`${base}/healthz`)).toBe(false);
    } finally {
      try {
        process.kill(-npm.pid!, 'SIGKILL');
      } catch {
        // Nothing left in the group.
      }
    }
  });
});
