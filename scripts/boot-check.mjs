// Starts the built server as production does (`node apps/server/dist/main.js`, embedded defaults, a fresh
// data folder), checks that it becomes ready and serves its pages and public API, then stops it with
// SIGTERM and expects a clean exit. CI runs it on Node 24, where the server tests ran too: what is left to
// show there is that the compiled product starts, serves and stops.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Caps, not measurements: a first start migrates a new database on a busy machine. */
const READY_WITHIN_MS = 180_000;
const STOPPED_WITHIN_MS = 20_000;

const port = await new Promise((resolve) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address();
    probe.close(() => resolve(free));
  });
});
const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-boot-'));
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const exited = new Promise((resolve) => server.on('exit', (code, signal) => resolve({ code, signal })));
const base = `http://127.0.0.1:${port}`;

function fail(message) {
  console.error(`boot check on Node ${process.version}: ${message}`);
  server.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  process.exit(1);
}

const deadline = Date.now() + READY_WITHIN_MS;
for (;;) {
  const ready = await fetch(`${base}/readyz`).catch(() => undefined);
  if (ready?.ok) break;
  if (Date.now() > deadline) fail(`not ready within ${READY_WITHIN_MS / 1000} s`);
  await new Promise((resolve) => setTimeout(resolve, 500));
}

const checks = [
  ['/', 'text/html', '<h1'],
  ['/login', 'text/html', '<form'],
  ['/stats', 'text/html', '<h1'],
  ['/status', 'text/html', '<h1'],
  ['/api/v1/stats?window=7d', 'application/json', '"window"'],
  ['/api/v1/status', 'application/json', '"components"'],
];
for (const [route, type, content] of checks) {
  const response = await fetch(`${base}${route}`).catch((error) => fail(`${route}: ${error}`));
  const body = await response.text();
  if (!response.ok) fail(`${route} answered ${response.status}`);
  if (!response.headers.get('content-type')?.startsWith(type)) fail(`${route} is not ${type}`);
  if (!body.includes(content)) fail(`${route} lacks ${content}`);
}
// A script the pages load is served too: the web build is the one the server was built with.
const home = await (await fetch(`${base}/`)).text();
const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(home)?.[1];
if (!script || !(await fetch(`${base}${script}`)).ok) fail(`the home page's script ${script} is not served`);

server.kill('SIGTERM');
const stopped = await Promise.race([
  exited,
  new Promise((resolve) => setTimeout(() => resolve(undefined), STOPPED_WITHIN_MS)),
]);
if (!stopped) fail(`still running ${STOPPED_WITHIN_MS / 1000} s after SIGTERM`);
if (stopped.code !== 0) fail(`exited with ${stopped.code ?? stopped.signal} after SIGTERM`);
rmSync(dataDir, { recursive: true, force: true });
console.log(
  `boot check on Node ${process.version}: ready, ${checks.length + 1} answers right, stopped cleanly`,
);
