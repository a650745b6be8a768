// Kills the real server process (its whole process group, with SIGKILL, as a power cut or the out-of-memory
// killer would) at random moments of money traffic, restarts it on the same data, and checks that nothing
// it acknowledged was lost and that the money adds up. Loopback only; every loop and wait is bounded.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CAPTCHA_FIELD } from '@simcode/contract';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
// The benchmarks' helper: a port nobody listens on.
import { freePort } from '../../../bench/lib/processes';
import { type DatabaseHandle, openDatabase, pgliteDirFor, queryRows } from '../src/db/client';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const KILLS = 3;
const USERS = 3;
const WORKERS_PER_USER = 2;
const SIMULATOR_KEY = 'crash-test-simulator-key';
const READY_WITHIN_MS = 90_000;
const SETTLED_WITHIN_MS = 45_000;
const MIN_PURCHASES_PER_ROUND = 3;
const POSTGRES_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

/** What the product acknowledged to its clients: each must survive every kill. */
interface Acknowledged {
  /** Orders whose purchase answered 200, by id. */
  orders: Map<number, { numberId: string; token: string }>;
  /** Orders whose cancel answered 200. */
  cancels: Set<number>;
  /** Top-ups whose Pay on the sandbox page answered, by our order id. */
  paid: Map<string, string>;
  /** Purchases refused because the simulator issued an id again (it must never, even after a kill). */
  reissuedIds: number;
}

function postgresListens(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (listens: boolean) => {
      socket.destroy();
      resolve(listens);
    };
    socket.setTimeout(1000);
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.once('timeout', () => done(false));
    socket.connect(5432, '127.0.0.1');
  });
}

interface Product {
  base: string;
  env: Record<string, string>;
  child?: ChildProcess;
  stderr: string;
}

/** Starts the server as `npm start` does (main.ts through tsx, its heap cap), in a process group of its own. */
async function start(product: Product): Promise<void> {
  product.stderr = '';
  const child = spawn(
    process.execPath,
    ['--max-old-space-size=192', '--import', 'tsx', 'apps/server/src/main.ts'],
    { cwd: repoRoot, env: product.env, detached: true, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  child.stderr!.on('data', (chunk: Buffer) => {
    product.stderr = (product.stderr + chunk.toString()).slice(-4000);
  });
  product.child = child;
  const deadline = Date.now() + READY_WITHIN_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the server exited with ${child.exitCode}: ${product.stderr}`);
    const ready = await fetch(`${product.base}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return;
    await sleep(100);
  }
  throw new Error(`the server was not ready within ${READY_WITHIN_MS} ms: ${product.stderr}`);
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function kill(product: Product): Promise<void> {
  const child = product.child!;
  process.kill(-child.pid!, 'SIGKILL');
  await exited(child);
}

async function api(product: Product, token: string | null, method: string, url: string, body?: unknown) {
  const response = await fetch(`${product.base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  // biome-ignore lint/suspicious/noExplicitAny: the test reads whatever JSON the API answers.
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    // A page or a redirect.
  }
  return { status: response.status, json };
}

async function register(product: Product, index: number): Promise<string> {
  const challenge = (await api(product, null, 'GET', '/api/captcha/challenge')).json as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const username = `crash_${index}_${Date.now().toString(36)}`.slice(0, 19);
  const password = 'crash-password-1';
  const answer = await api(product, null, 'POST', '/api/auth/register', {
    email: `${username}@crash.test`,
    username,
    password,
    repeat_password: password,
    [CAPTCHA_FIELD]: Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'),
  });
  expect(answer.status, JSON.stringify(answer.json)).toBe(200);
  return answer.json.token as string;
}

const pick = <T>(items: T[]): T | undefined => items[Math.floor(Math.random() * items.length)];

/** One client: buys, cancels, asks for SMS and tops up until told to stop; errors (the kill) are ignored. */
async function client(product: Product, token: string, acknowledged: Acknowledged, stop: () => boolean) {
  let topups = 0;
  while (!stop()) {
    const roll = Math.random();
    try {
      if (roll < 0.4) {
        const bought = await api(product, token, 'POST', '/api/dashboard/buy-number', {
          countryID: 'US',
          service: 'tg',
        });
        if (bought.status === 200) {
          const number = bought.json.number;
          acknowledged.orders.set(number.id, { numberId: number.number_id, token });
        } else if (bought.status === 502) {
          acknowledged.reissuedIds += 1;
        }
      } else if (roll < 0.65) {
        const mine = [...acknowledged.orders].filter(
          ([id, order]) => order.token === token && !acknowledged.cancels.has(id),
        );
        const target = pick(mine);
        if (!target) continue;
        const canceled = await api(product, token, 'POST', `/api/dashboard/numbers/${target[0]}/cancel`);
        if (canceled.status === 200) acknowledged.cancels.add(target[0]);
      } else if (roll < 0.85) {
        const target = pick([...acknowledged.orders.values()]);
        if (!target) continue;
        await fetch(`${product.base}/simulator/control/sms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-simulator-key': SIMULATOR_KEY },
          body: JSON.stringify({ activationId: target.numberId }),
          signal: AbortSignal.timeout(15_000),
        }).then((response) => response.body?.cancel());
      } else if (topups < 3) {
        // The create-invoice limit is 10 a minute per user and per process.
        topups += 1;
        const invoice = await api(product, token, 'POST', '/api/topup/cryptomus/create-invoice', {
          amount: 5,
        });
        if (invoice.status !== 200) continue;
        const pay = await fetch(`${invoice.json.url}/pay`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'method=usdt-tron',
          redirect: 'manual',
          signal: AbortSignal.timeout(15_000),
        });
        await pay.body?.cancel();
        if (pay.status === 303) acknowledged.paid.set(invoice.json.order_id, token);
      }
    } catch {
      // Refused or cut by the kill: not acknowledged, so nothing to check.
    }
  }
}

/** Waits until the clients have this many acknowledged purchases (bounded: the test then fails below). */
async function untilPurchases(acknowledged: Acknowledged, count: number): Promise<void> {
  const deadline = Date.now() + READY_WITHIN_MS;
  while (acknowledged.orders.size < count && Date.now() < deadline) await sleep(50);
}

/** Runs clients until some purchases went through, then kills the server under them at a random moment. */
async function trafficThenKill(product: Product, tokens: string[], acknowledged: Acknowledged) {
  let stopped = false;
  const clients = tokens.flatMap((token) =>
    Array.from({ length: WORKERS_PER_USER }, () => client(product, token, acknowledged, () => stopped)),
  );
  // On outcomes, not time: a few purchases acknowledged in this round (however busy the machine), then a
  // random moment later.
  await untilPurchases(acknowledged, acknowledged.orders.size + MIN_PURCHASES_PER_ROUND);
  await sleep(Math.random() * 1500);
  await kill(product);
  stopped = true;
  await Promise.all(clients);
}

/** The ledger and order invariants, read straight from the database the killed server left. */
async function checkInvariants(database: DatabaseHandle, acknowledged: Acknowledged, label: string) {
  const { db } = database;
  const balances = await queryRows<{ id: number; balance: string; ledger: string }>(
    db,
    sql`select u.id, u.balance_cents::text as balance, coalesce(sum(l.amount_cents), 0)::text as ledger
        from users u left join ledger_entries l on l.user_id = u.id group by u.id`,
  );
  for (const row of balances)
    expect(row.balance, `${label}: user ${row.id} balance = ledger`).toBe(row.ledger);

  const twice = await queryRows<{ reference_id: string; kind: string; entries: number }>(
    db,
    sql`select reference_id, kind, count(*)::int as entries from ledger_entries
        where reference_type = 'activation' group by reference_id, kind having count(*) > 1`,
  );
  expect(twice, `${label}: no order debited or refunded twice`).toEqual([]);

  const orders = await queryRows<{ id: number; status: string; purchases: number; refunds: number }>(
    db,
    sql`select a.id, a.status,
          count(*) filter (where l.kind = 'purchase')::int as purchases,
          count(*) filter (where l.kind = 'refund')::int as refunds
        from activations a left join ledger_entries l
          on l.reference_type = 'activation' and l.reference_id = a.id::text
        group by a.id`,
  );
  const byId = new Map(orders.map((order) => [order.id, order]));
  for (const id of acknowledged.orders.keys()) {
    expect(byId.has(id), `${label}: acknowledged order ${id} is there`).toBe(true);
  }
  for (const id of acknowledged.cancels) {
    expect(byId.get(id)?.status, `${label}: acknowledged cancel of ${id} holds`).toBe('canceled');
  }
  for (const order of orders) {
    const refunded = ['canceled', 'expired', 'failed'].includes(order.status);
    expect(order.purchases, `${label}: order ${order.id} debited once`).toBe(1);
    expect(order.refunds, `${label}: order ${order.id} (${order.status}) refunded iff closed unserved`).toBe(
      refunded ? 1 : 0,
    );
  }

  const shown = await queryRows<{ id: number }>(
    db,
    sql`select distinct a.id from activations a join activation_messages m on m.activation_id = a.id
        where a.status in ('canceled', 'expired', 'failed') and not m.late`,
  );
  expect(shown, `${label}: no refunded order shows a code`).toEqual([]);
  // The built-in supplier never delivers on an activation whose cancel it acknowledged (a real one may).
  const late = await queryRows<{ late: number }>(
    db,
    sql`select count(*)::int as late from activation_messages where late`,
  );
  expect(late[0]!.late, `${label}: SMS after a cancel the simulator acknowledged`).toBe(0);
}

async function withDatabase<T>(
  product: Product,
  dataDir: string,
  use: (database: DatabaseHandle) => Promise<T>,
) {
  const database = await openDatabase({
    databaseUrl: product.env.DATABASE_URL,
    pgliteDir: pgliteDirFor(dataDir),
    poolSize: 2,
  });
  try {
    return await use(database);
  } finally {
    await database.close();
  }
}

/**
 * After a (re)start: every payment the sandbox confirmed gets credited and no purchase stays between hold
 * and settle (the first job runs after the start see to both, not a timer minutes later); then SIGTERM
 * drains and stops the server, and the database it leaves passes every check.
 */
async function settleStopAndCheck(
  product: Product,
  dataDir: string,
  tokens: string[],
  acknowledged: Acknowledged,
) {
  const deadline = Date.now() + SETTLED_WITHIN_MS;
  const uncredited = new Set(acknowledged.paid.keys());
  let pending = Number.POSITIVE_INFINITY;
  while (Date.now() < deadline && (uncredited.size > 0 || pending > 0)) {
    for (const orderId of uncredited) {
      const status = await api(
        product,
        acknowledged.paid.get(orderId)!,
        'GET',
        `/api/topup/cryptomus/status?order_id=${orderId}`,
      );
      if (status.json?.status === 'COMPLETED') uncredited.delete(orderId);
    }
    pending = 0;
    for (const token of new Set(tokens)) {
      const list = await api(product, token, 'GET', '/api/dashboard/numbers?limit=100');
      pending += (list.json?.numbers ?? []).filter(
        (number: { status: string }) => number.status === 'pending',
      ).length;
    }
    if (uncredited.size > 0 || pending > 0) await sleep(250);
  }
  expect([...uncredited], 'every payment the sandbox confirmed is credited').toEqual([]);
  expect(pending, 'no purchase left between hold and settle').toBe(0);

  // SIGTERM: requests drain, jobs stop, the database closes, and the process ends by itself.
  process.kill(product.child!.pid!, 'SIGTERM');
  expect(await exited(product.child!), product.stderr).toBe(0);

  await withDatabase(product, dataDir, async (database) => {
    await checkInvariants(database, acknowledged, 'at the end');
    const credits = await queryRows<{ order_id: string; credits: number }>(
      database.db,
      sql`select p.order_id, count(l.id)::int as credits from payments p
          left join ledger_entries l on l.kind = 'topup'
            and l.idempotency_key = 'topup:' || p.provider || ':' || p.provider_payment_id
          group by p.order_id`,
    );
    const creditsByOrder = new Map(credits.map((row) => [row.order_id, row.credits]));
    for (const orderId of acknowledged.paid.keys()) {
      expect(creditsByOrder.get(orderId), `payment ${orderId} credited exactly once`).toBe(1);
    }
  });
}

/** The product's environment on a data folder (and PostgreSQL when given), with fast-moving stand-ins. */
function productOn(dataDir: string, port: number, databaseUrl?: string): Product {
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    stderr: '',
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: base,
      DATA_DIR: dataDir,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      LOG_LEVEL: 'error',
      ALTCHA_COST: '1',
      ALTCHA_MAX_COUNTER: '8',
      RATE_LIMIT_AUTH_PER_MINUTE: '1000',
      RATE_LIMIT_PURCHASES_PER_MINUTE: '100000',
      SMS_PROVIDER_KEY: SIMULATOR_KEY,
      // The SMS it injects go to the one simulator it knows.
      SMS_PROVIDERS: 'sim-a',
      SIMULATOR_EARLY_CANCEL_MS: '0',
      SIMULATOR_SMS_DELAY_MIN_MS: '300',
      SIMULATOR_SMS_DELAY_MAX_MS: '3000',
      SIMULATOR_NO_SMS_RATE: '0.5',
    },
  };
}

const emptyAcknowledged = (): Acknowledged => ({
  orders: new Map(),
  cancels: new Set(),
  paid: new Map(),
  reissuedIds: 0,
});

function stopIfRunning(product: Product): Promise<void> | undefined {
  const child = product.child;
  if (child && child.exitCode === null && child.signalCode === null) return kill(product);
}

/** `npm run admin -- <args>` against the product's environment. */
async function admin(product: Product, args: string[]): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/admin.ts', ...args], {
    cwd: repoRoot,
    env: product.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  expect(await exited(child), `admin ${args[0]}: ${output}`).toBe(0);
}

async function crashRun(databaseUrl?: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-crash-'));
  const product = productOn(dataDir, await freePort(), databaseUrl);
  const acknowledged = emptyAcknowledged();
  try {
    await start(product);
    const tokens: string[] = [];
    for (let index = 0; index < USERS; index++) tokens.push(await register(product, index));
    for (let round = 1; round <= KILLS; round++) {
      await trafficThenKill(product, tokens, acknowledged);
      await withDatabase(product, dataDir, (database) =>
        checkInvariants(database, acknowledged, `after kill ${round}`),
      );
      await start(product);
    }
    console.info(
      `crash test (${databaseUrl ? 'PostgreSQL' : 'PGlite'}): ${KILLS} kills; acknowledged ${acknowledged.orders.size} purchases, ${acknowledged.cancels.size} cancels, ${acknowledged.paid.size} payments`,
    );
    expect(acknowledged.orders.size, 'the traffic bought numbers').toBeGreaterThan(0);
    expect(acknowledged.reissuedIds, 'activation ids the simulator issued twice').toBe(0);
    expect(acknowledged.paid.size, 'the traffic paid top-ups').toBeGreaterThan(0);

    await settleStopAndCheck(product, dataDir, tokens, acknowledged);
  } finally {
    await stopIfRunning(product);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * A backup taken by the admin command while clients buy, cancel and pay, restored into a new data folder:
 * the restored product starts, and holds every write acknowledged before the backup began.
 */
async function backupRun() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'simcode-backup-'));
  const restoredDir = path.join(mkdtempSync(path.join(tmpdir(), 'simcode-restored-')), 'data');
  const backupFile = path.join(dataDir, '..', `${path.basename(dataDir)}.backup`);
  const product = productOn(dataDir, await freePort());
  const acknowledged = emptyAcknowledged();
  try {
    await start(product);
    const tokens: string[] = [];
    for (let index = 0; index < USERS; index++) tokens.push(await register(product, index));
    let stopped = false;
    const clients = tokens.flatMap((token) =>
      Array.from({ length: WORKERS_PER_USER }, () => client(product, token, acknowledged, () => stopped)),
    );
    await untilPurchases(acknowledged, MIN_PURCHASES_PER_ROUND);
    const beforeBackup: Acknowledged = {
      orders: new Map(acknowledged.orders),
      cancels: new Set(acknowledged.cancels),
      paid: new Map(acknowledged.paid),
      reissuedIds: 0,
    };
    await admin(product, ['backup', '--out', backupFile]);
    stopped = true;
    await Promise.all(clients);
    process.kill(product.child!.pid!, 'SIGTERM');
    expect(await exited(product.child!)).toBe(0);
    expect(beforeBackup.orders.size, 'purchases acknowledged before the backup').toBeGreaterThan(0);

    await admin(product, ['restore', '--from', backupFile, '--data-dir', restoredDir]);
    // Same port: the restored invoices' webhooks point at it.
    const restored = productOn(restoredDir, Number(product.env.PORT));
    await start(restored);
    await settleStopAndCheck(restored, restoredDir, tokens, beforeBackup);
  } finally {
    await stopIfRunning(product);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(path.dirname(restoredDir), { recursive: true, force: true });
    rmSync(backupFile, { force: true });
  }
}

describe('backups', () => {
  it('restores a backup taken during money traffic into a new data folder that holds every earlier write', async () => {
    await backupRun();
  });
});

describe('killing the server mid-traffic', () => {
  it('loses nothing it acknowledged on the embedded database', async () => {
    await crashRun();
  });

  const databases: string[] = [];
  afterAll(async () => {
    if (databases.length === 0) return;
    const admin = new pg.Client({ connectionString: POSTGRES_SERVER });
    await admin.connect();
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  });

  it('loses nothing it acknowledged on PostgreSQL', async (context) => {
    if (!(await postgresListens())) context.skip();
    const name = `simcode_crash_${Date.now().toString(36)}_${process.pid}`;
    const admin = new pg.Client({ connectionString: POSTGRES_SERVER });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    databases.push(name);
    const url = new URL(POSTGRES_SERVER);
    url.pathname = `/${name}`;
    await crashRun(url.toString());
  });
});
