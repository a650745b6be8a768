import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port')),
      );
    });
  });
}

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the process exited with ${child.exitCode} before it was ready`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

/** Resident memory of a process in bytes, read from /proc (Linux). */
export function residentBytes(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

export interface RunningProcess {
  url: string;
  pid: number;
  /** Highest resident memory seen since start (sampled every 250 ms). */
  peakRssBytes(): number;
  stop(): Promise<void>;
}

function track(child: ChildProcess, url: string, cleanUp: () => void): RunningProcess {
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, residentBytes(child.pid!));
  }, 250);
  return {
    url,
    pid: child.pid!,
    peakRssBytes: () => Math.max(peak, residentBytes(child.pid!)),
    async stop() {
      clearInterval(sampler);
      const running = () => child.exitCode === null && child.signalCode === null;
      if (running()) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
        if (running()) child.kill('SIGKILL');
      }
      cleanUp();
    },
  };
}

/** The baseline: a bare Fastify hello-world JSON server, started the same way as the product (a Node process). */
export async function startHelloServer(): Promise<RunningProcess> {
  const port = await freePort();
  const child = spawn('node', [path.join(import.meta.dirname, 'hello-server.mjs'), String(port)], {
    cwd: repoRoot,
    stdio: 'inherit',
  });
  const url = `http://127.0.0.1:${port}`;
  const running = track(child, url, () => {});
  try {
    await waitUntilReady(`${url}/`, child);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return running;
}

export interface ProductOptions {
  env?: Record<string, string>;
  /** Reuse a data folder (PGlite seeded beforehand); a fresh one otherwise. */
  dataDir?: string;
  /** Extra Node flags, e.g. ['--cpu-prof'] to find where the time goes. */
  nodeArgs?: string[];
}

/**
 * The Node flags of `npm start` (the root package.json's start script, `node <flags> scripts/start.mjs`),
 * so the product is measured with the heap limit it runs with.
 */
function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...words] = manifest.scripts.start!.split(/\s+/);
  const scriptAt = words.indexOf('scripts/start.mjs');
  if (command !== 'node' || scriptAt < 0)
    throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return words.slice(0, scriptAt);
}

/** The built product, started as `npm start` starts it. The web app is not needed for API figures. */
export async function startProduct(
  options: ProductOptions = {},
): Promise<RunningProcess & { dataDir: string }> {
  const port = await freePort();
  const ownDataDir = !options.dataDir;
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'simcode-bench-data-'));
  const url = `http://127.0.0.1:${port}`;
  // An empty web folder unless one is given: API figures do not need the web app, and the start must not
  // build it.
  const emptyWebDir = options.env?.WEB_DIST_DIR
    ? undefined
    : mkdtempSync(path.join(tmpdir(), 'simcode-bench-noweb-'));
  const cleanUp = () => {
    if (emptyWebDir) rmSync(emptyWebDir, { recursive: true, force: true });
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  const child = spawn('node', [...startScriptNodeFlags(), ...(options.nodeArgs ?? []), 'scripts/start.mjs'], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(emptyWebDir ? { WEB_DIST_DIR: emptyWebDir } : {}),
      ...options.env,
    },
  });
  const running = track(child, url, cleanUp);
  try {
    await waitUntilReady(`${url}/readyz`, child);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return { ...running, dataDir };
}
