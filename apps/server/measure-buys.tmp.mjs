// Scratch: purchases per second through the built-in simulator, real server process, PGlite or PG.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

const port = Number(process.argv[2] ?? 3301);
const seconds = Number(process.argv[3] ?? 15);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-measure-'));
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  NODE_ENV: 'development',
  PORT: String(port),
  HOST: '127.0.0.1',
  PUBLIC_URL: base,
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  ALTCHA_COST: '1',
  ALTCHA_MAX_COUNTER: '8',
  RATE_LIMIT_PURCHASES_PER_MINUTE: '1000000',
  ...(process.env.MEASURE_DATABASE_URL ? { DATABASE_URL: process.env.MEASURE_DATABASE_URL } : {}),
};
const child = spawn(
  process.execPath,
  ['--max-old-space-size=192', '--import', 'tsx', 'apps/server/src/main.ts'],
  { cwd: path.resolve(import.meta.dirname, '../..'), env, stdio: 'ignore', detached: true },
);
for (let i = 0; i < 600; i++) {
  try {
    if ((await fetch(`${base}/readyz`)).ok) break;
  } catch {}
  await sleep(100);
}
const j = async (method, url, token, body) =>
  (
    await fetch(base + url, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    })
  ).json();
const challenge = await j('GET', '/api/captcha/challenge');
const solution = await solveChallenge({ challenge, deriveKey });
const registered = await j('POST', '/api/auth/register', null, {
  email: 'm@m.test',
  username: 'measure1',
  password: 'measure-pass-1',
  repeat_password: 'measure-pass-1',
  'g-recaptcha-response': Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
});
const { token } = registered;
if (!token) console.log(registered);
for (let n = 0; n < 4; n++) {
  const invoice = await j('POST', '/api/topup/cryptomus/create-invoice', token, { amount: 1000 });
  if (!invoice.url) {
    console.log(invoice);
    process.kill(-child.pid, 'SIGKILL');
    process.exit(1);
  }
  await fetch(`${invoice.url}/pay`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'method=usdt-tron',
    redirect: 'manual',
  });
  for (let i = 0; i < 200; i++) {
    if (
      (await j('GET', `/api/topup/cryptomus/status?order_id=${invoice.order_id}`, token)).status ===
      'COMPLETED'
    )
      break;
    await sleep(100);
  }
}
const cpuMs = () => {
  const f = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const cpuBefore = cpuMs();
let ok = 0,
  other = 0;
const end = Date.now() + seconds * 1000;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (Date.now() < end) {
      const r = await fetch(`${base}/api/dashboard/buy-number`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ countryID: 'US', service: 'tg' }),
      });
      await r.text();
      if (r.status === 200) ok++;
      else other++;
    }
  }),
);
console.log(
  JSON.stringify({
    database: env.DATABASE_URL ? 'postgres' : 'pglite',
    seconds,
    purchases: ok,
    perSecond: +(ok / seconds).toFixed(1),
    refused: other,
    serverCpuMsPerPurchase: +((cpuMs() - cpuBefore) / ok).toFixed(2),
  }),
);
process.kill(-child.pid, 'SIGTERM');
await sleep(3000);
try {
  process.kill(-child.pid, 'SIGKILL');
} catch {}
rmSync(dataDir, { recursive: true, force: true });
