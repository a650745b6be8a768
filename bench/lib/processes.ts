import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/**
 * CPU time (user and system) a process has used so far, in milliseconds, read from /proc (Linux); with
 * `reapedChildren`, also the time of its children that have exited and been waited for.
 */
export function cpuMs(pid: number, reapedChildren = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    const children = reapedChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return ((own + children) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** CPU time of every PostgreSQL server process on this machine so far, in milliseconds (0 when none). */
export function postgresCpuMs(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // A backend that ends during a run takes its time out of the sum; the postmaster, which waits for it,
      // then counts it as a reaped child's: with those, the total never goes down (it read -7 µs once).
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres')
        total += cpuMs(Number(entry), true);
    } catch {
      // Gone meanwhile.
    }
  }
  return total;
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

/**
 * The limit: a bare `node:http` server answering a small JSON body, the least any Node HTTP server does per
 * request; started the same way as the product (a Node process).
 */
export function startLimitServer(): Promise<RunningProcess> {
  return startHelloServer('node-hello-server.mjs');
}

/** A second reference: a bare Fastify hello-world JSON server, started the same way as the product. */
export async function startHelloServer(script = 'hello-server.mjs'): Promise<RunningProcess> {
  const port = await freePort();
  const child = spawn('node', [path.join(import.meta.dirname, script), String(port)], {
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
  /** Variables for the product; `undefined` removes one the bench process has. */
  env?: Record<string, string | undefined>;
  /**
   * How the server is run: `built` as `npm start` runs it (the compiled JavaScript, plain Node), `tsx` from
   * its TypeScript sources through tsx's loader (as before the compiled server; for comparison only).
   */
  runner?: 'built' | 'tsx';
  /** Reuse a data folder (PGlite seeded beforehand); a fresh one otherwise. */
  dataDir?: string;
  /** Extra Node flags, e.g. ['--cpu-prof'] to find where the time goes. */
  nodeArgs?: string[];
  /**
   * Another build of the server to run instead (its `main.js`, relative to the repository, inside
   * apps/server so it finds its packages), run as `npm start` runs the current one: compare-builds.ts.
   */
  entry?: string;
}

/**
 * The Node flags of `npm start` (the root package.json's start script, `exec node <flags>
 * scripts/start.mjs`: `exec` so that signals sent to npm reach node), so the product is measured with the
 * heap limit it runs with.
 */
function startScriptNodeFlags(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const [command, ...words] = manifest.scripts.start!.replace(/^exec\s+/, '').split(/\s+/);
  const scriptAt = words.indexOf('scripts/start.mjs');
  if (command !== 'node' || scriptAt < 0)
    throw new Error(`unexpected start script: ${manifest.scripts.start}`);
  return words.slice(0, scriptAt);
}

/** The built product, started as `npm start` starts it. The web app is not needed for API figures. */
export async function startProduct(
  options: ProductOptions = {},
): Promise<
  RunningProcess & { dataDir: string /** From spawn to the first ready answer. */; startMs: number }
> {
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
  const entry = options.entry
    ? [options.entry]
    : options.runner === 'tsx'
      ? ['--import', 'tsx', 'apps/server/src/main.ts']
      : ['scripts/start.mjs'];
  const spawnedAt = performance.now();
  const child = spawn('node', [...startScriptNodeFlags(), ...(options.nodeArgs ?? []), ...entry], {
    cwd: repoRoot,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: Object.fromEntries(
      Object.entries({
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        ...(emptyWebDir ? { WEB_DIST_DIR: emptyWebDir } : {}),
        ...options.env,
      }).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
  });
  const running = track(child, url, cleanUp);
  try {
    await waitUntilReady(`${url}/readyz`, child);
  } catch (error) {
    await running.stop();
    throw error;
  }
  return { ...running, dataDir, startMs: performance.now() - spawnedAt };
}

/** The key the upstream simulator of `startUpstreamSimulator` takes. */
export const UPSTREAM_SIMULATOR_KEY = 'bench-upstream-key';

/**
 * The SMS upstream in a process of its own, as a real supplier is another host: the built product with its
 * built-in simulator (on a database of its own), which the product under test reaches over HTTP as an
 * SMS-Activate-compatible provider. Its SMS come after the run. Returns it with the environment that
 * points a product at it.
 */
export async function startUpstreamSimulator(
  /** Its database: DATABASE_URL of a database of its own, or nothing for PGlite in its data folder. */
  databaseEnv: Record<string, string | undefined> = { DATABASE_URL: undefined },
): Promise<
  RunningProcess & { dataDir: string; productEnv: Record<string, string>; restock(): Promise<void> }
> {
  const upstream = await startProduct({
    env: {
      SMS_PROVIDER: 'simulator',
      SMS_PROVIDER_KEY: UPSTREAM_SIMULATOR_KEY,
      SIMULATOR_SMS_DELAY_MIN_MS: '600000',
      SIMULATOR_SMS_DELAY_MAX_MS: '600000',
      // It stands for a supplier's own servers: no other instance serves its simulator.
      STAND_INS_SHARED: 'false',
      ...databaseEnv,
    },
  });
  const control = async (command: string, body: unknown) => {
    const response = await fetch(`${upstream.url}/simulator/control/${command}`, {
      method: 'POST',
      headers: { 'x-simulator-key': UPSTREAM_SIMULATOR_KEY, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok)
      throw new Error(`upstream control ${command}: ${response.status} ${await response.text()}`);
  };
  return {
    ...upstream,
    /**
     * A fresh account with money to spare: a round of purchases on a fast machine sells more than an
     * offer's stock and spends more than the simulator's starting $1,000, and the rounds after would
     * measure refusals.
     */
    async restock() {
      await control('restock', {});
      await control('balance', { balanceUsd: 1_000_000 });
    },
    productEnv: {
      SMS_PROVIDER: 'smsactivate',
      SMS_PROVIDER_URL: `${upstream.url}/simulator/stubs/handler_api.php`,
      SMS_PROVIDER_KEY: UPSTREAM_SIMULATOR_KEY,
    },
  };
}
