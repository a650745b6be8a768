// 1. API throughput: autocannon (100 connections) against a bare `node:http` JSON server (the limit) and
// against the built product on a database (PostgreSQL at DATABASE_URL, or the embedded default) with
// seeded data. Figures are ratios to the limit measured in the same run, since absolute numbers depend on
// the machine's moment; a bare Fastify server is measured against the same limit as a second reference.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/throughput.ts          # PostgreSQL
//   npx tsx bench/throughput.ts                                                                    # PGlite

import {
  type BenchDatabase,
  type BenchDatabaseKind,
  createBenchDatabase,
  defaultDatabaseKind,
} from './lib/database';
import { type LoadOptions, type LoadResult, measureLoad } from './lib/load';
import {
  cpuMs,
  postgresCpuMs,
  type RunningProcess,
  startHelloServer,
  startLimitServer,
  startProduct,
  startUpstreamSimulator,
} from './lib/processes';
import {
  BENCH_JWT_SECRET,
  BENCH_PASSWORD,
  type SeededUser,
  seedActivations,
  seedTickets,
  seedUser,
} from './lib/seed';

export interface Target {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** One user per request, in turn (the purchase). */
  manyUsers?: boolean;
  /** Asked without `Accept-Encoding`: a client that wants no compression. */
  identity?: boolean;
  /** Minimum share of the limit's requests per second. */
  minRatio: number;
}

export interface ThroughputRow extends LoadResult {
  name: string;
  /** The limit measured beside this endpoint in the median round, which the ratio divides by. */
  limitRequestsPerSecond: number;
  /** The median of `roundRatios`. */
  ratio: number;
  roundRatios: number[];
  minRatio: number;
  peakRssMb: number;
  /** Where the time went in the median round: CPU per request of each process. */
  cpuMicros: CpuPerRequest;
  /** The limit's answer on the wire, beside this endpoint's `bytesPerRequest`. */
  limitBytesPerRequest: number;
}

export interface ThroughputReport {
  database: BenchDatabaseKind;
  /** Every measurement of the limit of the part, in order. */
  limits: LoadResult[];
  /** Bare Fastify's requests per second over the limit's, each round, and their median. */
  fastifyRoundRatios: number[];
  fastifyRatio: number;
  /** CPU per request of the limit and of bare Fastify in the reference's median round. */
  fastifyCpuMicros: CpuPerRequest;
  rows: ThroughputRow[];
  /** Highest memory of the product that served the reads. */
  peakRssMb: number;
  /** Highest memory of the product that bought from the upstream in its own process. */
  purchasePeakRssMb: number;
  /** Rows in the lists of the polling user (numbers and tickets). */
  listRows: number;
  /** The reads' product's CPU at rest, in milliseconds per second (its jobs and built-in simulators). */
  idleCpuMsPerSecond: number;
}

const MB = 1024 * 1024;
/** Limit-and-endpoint pairs per endpoint (THROUGHPUT_ROUNDS); an odd number, for a median. */
const ROUNDS = Number(process.env.THROUGHPUT_ROUNDS ?? 3);
/** Seconds of each run after its 2 s warm-up. */
const SECONDS = Number(process.env.THROUGHPUT_SECONDS ?? process.env.BENCH_SECONDS ?? 5);
/** Only the targets whose name contains this (THROUGHPUT_ONLY), for trying one out; every target by default. */
const ONLY = process.env.THROUGHPUT_ONLY ?? '';
const wanted = (target: Target) => target.name.includes(ONLY);
/** The lists' targets hold at 10^5 rows (issue 19). */
const LIST_ROWS = Number(process.env.THROUGHPUT_LIST_ROWS ?? 100_000);

export interface BenchUsers {
  user: SeededUser;
  buyers: SeededUser[];
}

/** A user with `rows` numbers and tickets and a large balance, and 200 buyers, in `database`. */
export async function seedBenchUsers(database: BenchDatabase, rows = 30): Promise<BenchUsers> {
  const seeding = await database.open();
  try {
    const user = await seedUser(seeding.db, 'bench_user', { balanceCents: 100_000_000 });
    // Buyers: one user's purchases queue on that user's account lock by design, so the purchase figure is
    // taken the way a busy service sees purchases, from many users at once.
    const buyers = [];
    for (let index = 0; index < 200; index += 1)
      buyers.push(await seedUser(seeding.db, `bench_buyer_${index}`, { balanceCents: 10_000_000 }));
    await seedActivations(seeding.db, user.id, rows);
    await seedTickets(seeding.db, user.id, Math.max(20, Math.round(rows)));
    return { user, buyers };
  } finally {
    await seeding.close();
  }
}

export interface SeededProduct {
  product: RunningProcess;
  /** A signed-in user's headers, asking for compressed answers as a browser does. */
  headers: Record<string, string>;
  /** The 200 buyers' headers, for the purchase. */
  buyerHeaders: Array<Record<string, string>>;
  targets: Target[];
}

interface StartOptions {
  nodeArgs?: string[];
  env?: Record<string, string | undefined>;
  /** Another build's `main.js` (ProductOptions.entry). */
  entry?: string;
}

/**
 * The built product on `database` (seeded with `users` beforehand), and the endpoints to measure. `started`
 * sees the process as soon as it runs, so a failure later still stops it.
 */
export async function startProductFor(
  database: BenchDatabase,
  users: BenchUsers,
  started: (product: RunningProcess) => void,
  options: StartOptions = {},
): Promise<SeededProduct> {
  const product = await startProduct({
    dataDir: database.dataDir,
    nodeArgs: options.nodeArgs,
    entry: options.entry,
    env: {
      ...database.env,
      JWT_SECRET: BENCH_JWT_SECRET,
      RATE_LIMIT_PURCHASES_PER_MINUTE: '100000000',
      // One key polls as fast as the machine lets it: the reseller API's limits would refuse most of it.
      RATE_LIMIT_API_KEY_PER_MINUTE: '100000000',
      RATE_LIMIT_API_USER_PER_MINUTE: '100000000',
      // autocannon is one address playing 100 clients (and its warm-up's 100 closing as the run's open):
      // the per-address cap of a slow client (100) would refuse some of them.
      HTTP_MAX_CONNECTIONS_PER_ADDRESS: '1000',
      // The simulator answers at once; its SMS would arrive after the run (the buy path is what is measured).
      SIMULATOR_SMS_DELAY_MIN_MS: '600000',
      SIMULATOR_SMS_DELAY_MAX_MS: '600000',
      ...options.env,
    },
  });
  started(product);
  // As a browser sends them: compressed answers where the server compresses.
  const headers = { authorization: users.user.authorization, 'accept-encoding': 'gzip, deflate, br' };
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${product.url}${path}`, {
      ...init,
      headers: { ...headers, 'content-type': 'application/json', ...init.headers },
    });
    return { status: response.status, body: await response.json() };
  };
  // The catalog loads from the upstream right after start.
  let services: Array<{ id: string; stock: number }> = [];
  for (let attempt = 0; attempt < 150 && services.length === 0; attempt += 1) {
    const answer = await api('/api/dashboard/services?countryID=US&operator=any');
    if (answer.status === 200) services = answer.body.services;
    else await new Promise((resolve) => setTimeout(resolve, 200));
  }
  if (services.length === 0) throw new Error('the catalog did not load');
  const service = services.reduce((best, entry) => (entry.stock > best.stock ? entry : best));
  const bought = await api('/api/dashboard/buy-number', {
    method: 'POST',
    body: JSON.stringify({ countryID: 'US', service: service.id }),
  });
  if (bought.status !== 200)
    throw new Error(`could not buy the number to poll: ${JSON.stringify(bought.body)}`);

  const status = `/api/dashboard/number-status/${bought.body.number.number_id}`;
  // The same order as a bot polls it: getStatus of the SMS-Activate protocol, with an API key in the URL.
  const key = await api('/api/dashboard/api-keys', {
    method: 'POST',
    body: JSON.stringify({ name: 'bench', current_password: BENCH_PASSWORD }),
  });
  if (typeof key.body.secret !== 'string')
    throw new Error(`could not create an API key: ${JSON.stringify(key.body)}`);
  const targets: Target[] = [
    { name: 'GET /api/dashboard/number-status/{id}', path: status, minRatio: 0.5 },
    {
      name: 'GET /api/dashboard/number-status/{id}, no compression',
      path: status,
      identity: true,
      minRatio: 0.5,
    },
    {
      name: 'GET /stubs/handler_api.php?action=getStatus (reseller API)',
      path: `/stubs/handler_api.php?api_key=${key.body.secret}&action=getStatus&id=${bought.body.number.id}`,
      minRatio: 0.5,
    },
    { name: 'GET /api/dashboard/summary', path: '/api/dashboard/summary', minRatio: 0.5 },
    {
      name: 'GET /api/dashboard/summary, no compression',
      path: '/api/dashboard/summary',
      identity: true,
      minRatio: 0.5,
    },
    { name: 'GET /api/dashboard/countries', path: '/api/dashboard/countries', minRatio: 0.5 },
    {
      name: 'GET /api/dashboard/countries, no compression',
      path: '/api/dashboard/countries',
      identity: true,
      minRatio: 0.5,
    },
    {
      name: 'GET /api/dashboard/services',
      path: '/api/dashboard/services?countryID=US&operator=any',
      minRatio: 0.5,
    },
    { name: 'GET /api/dashboard/numbers', path: '/api/dashboard/numbers', minRatio: 0.2 },
    { name: 'GET /api/tickets', path: '/api/tickets', minRatio: 0.2 },
    {
      name: 'POST /api/dashboard/buy-number',
      path: '/api/dashboard/buy-number',
      method: 'POST',
      body: JSON.stringify({ countryID: 'US', operator: 'any', service: service.id }),
      minRatio: 0.05,
      manyUsers: true,
    },
  ];
  return {
    product,
    headers,
    targets,
    buyerHeaders: users.buyers.map((buyer) => ({ authorization: buyer.authorization })),
  };
}

/** Seeds `database` (30 numbers and tickets) and starts the product on it: parts 6 and the profile. */
export async function startSeededProduct(
  database: BenchDatabase,
  started: (product: RunningProcess) => void,
  options: StartOptions & { rows?: number } = {},
): Promise<SeededProduct> {
  const users = await seedBenchUsers(database, options.rows);
  return startProductFor(database, users, started, options);
}

/** The load options of one target: many-user targets take the buyers' tokens in turn. */
export function loadOptionsFor(seeded: SeededProduct, target: Target): LoadOptions {
  const { 'accept-encoding': _encoding, ...withoutEncoding } = seeded.headers;
  return {
    url: `${seeded.product.url}${target.path}`,
    method: target.method,
    body: target.body,
    headers: target.identity ? withoutEncoding : seeded.headers,
    rotatingHeaders: target.manyUsers ? seeded.buyerHeaders : undefined,
  };
}

/** CPU time per request, in microseconds, of the processes a measurement watched. */
export interface CpuPerRequest {
  limit?: number;
  product?: number;
  /** The SMS upstream in its own process (the purchase). */
  upstream?: number;
  /** Every PostgreSQL server process of the machine together. */
  postgres?: number;
  /**
   * Of the product's: its work at rest (jobs, the built-in simulators), measured idle before the reads and
   * spread over this run's requests. It does not depend on the requests, and weighs more the fewer the
   * machine lets through.
   */
  background?: number;
}

interface Watched {
  product?: number;
  upstream?: number;
  postgres?: boolean;
  /** Before each of the target's runs (not measured): the purchase gives the upstream back what it sold. */
  beforeRun?: () => Promise<void>;
}

/** Notes the CPU time of `pids` at the start of a run and hands the milliseconds used to `done` at its end. */
function cpuWatch(
  pids: Array<[keyof CpuPerRequest, number | 'postgres']>,
  done: (used: CpuPerRequest) => void,
): () => () => void {
  const read = (pid: number | 'postgres') => (pid === 'postgres' ? postgresCpuMs() : cpuMs(pid));
  return () => {
    const before = pids.map(([, pid]) => read(pid));
    return () =>
      done(Object.fromEntries(pids.map(([name, pid], index) => [name, read(pid) - before[index]!])));
  };
}

/** Milliseconds used over the run → microseconds per request of the run. */
function perRequest(
  cpu: CpuPerRequest,
  result: LoadResult,
  names: Array<keyof CpuPerRequest>,
): CpuPerRequest {
  const requests = Math.max(1, result.totalRequests);
  const converted = { ...cpu };
  for (const name of names) if (cpu[name] !== undefined) converted[name] = (cpu[name]! * 1000) / requests;
  return converted;
}

/** Seconds the product is watched at rest before the reads. */
const IDLE_SECONDS = 5;

/** The CPU `pid` uses at rest, in milliseconds per second, over IDLE_SECONDS. */
async function idleCpu(pid: number): Promise<number> {
  const before = cpuMs(pid);
  const startedAt = performance.now();
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  return (cpuMs(pid) - before) / ((performance.now() - startedAt) / 1000);
}

/** `limit 18 µs, product 65 µs, …`: the CPU per request of a run, as the console line shows it. */
function cpuText(cpu: CpuPerRequest): string {
  const parts = Object.entries(cpu)
    .filter(([, micros]) => micros !== undefined)
    .map(([name, micros]) => `${name} ${micros!.toFixed(0)} µs`);
  return parts.length > 0 ? `CPU per request: ${parts.join(', ')}` : 'CPU per request not read';
}

/** The statuses of every round's non-2xx answers, e.g. ` (409 × 120, 503 × 3)`; nothing when there were none. */
function refusalText(results: LoadResult[]): string {
  const counts = new Map<string, number>();
  for (const result of results) {
    for (const [status, count] of Object.entries(result.refusals))
      counts.set(status, (counts.get(status) ?? 0) + count);
  }
  if (counts.size === 0) return '';
  return ` (${[...counts].map(([status, count]) => `${status} × ${count}`).join(', ')})`;
}

/**
 * Rounds of a limit run and a target run, the order swapped every other round so that neither always
 * runs on a machine still busy from the other; the round with the median ratio is returned with all ratios.
 */
async function measureAgainstLimit(limit: RunningProcess, target: LoadOptions, watched: Watched = {}) {
  const rounds: Array<{ limit: LoadResult; result: LoadResult; cpu: CpuPerRequest }> = [];
  let cpu: CpuPerRequest = {};
  const limitRun = async () => {
    const result = await measureLoad({
      url: `${limit.url}/`,
      durationSeconds: SECONDS,
      onMeasuredRun: cpuWatch([['limit', limit.pid]], (used) => {
        cpu = { ...cpu, ...used };
      }),
    });
    cpu = perRequest(cpu, result, ['limit']);
    return result;
  };
  const targetRun = async () => {
    const pids: Array<[keyof CpuPerRequest, number | 'postgres']> = [];
    if (watched.product) pids.push(['product', watched.product]);
    if (watched.upstream) pids.push(['upstream', watched.upstream]);
    if (watched.postgres) pids.push(['postgres', 'postgres']);
    await watched.beforeRun?.();
    const result = await measureLoad({
      ...target,
      durationSeconds: SECONDS,
      onMeasuredRun: cpuWatch(pids, (used) => {
        cpu = { ...cpu, ...used };
      }),
    });
    cpu = perRequest(cpu, result, ['product', 'upstream', 'postgres']);
    return result;
  };
  const round = (entry: { limit: LoadResult; result: LoadResult }) => {
    rounds.push({ ...entry, cpu });
    cpu = {};
  };
  for (let index = 0; index < ROUNDS; index += 1) {
    if (index % 2 === 0) {
      const limit = await limitRun();
      round({ limit, result: await targetRun() });
    } else {
      const result = await targetRun();
      round({ limit: await limitRun(), result });
    }
  }
  const ratioOf = (entry: (typeof rounds)[number]) =>
    entry.result.requestsPerSecond / entry.limit.requestsPerSecond;
  const median = [...rounds].sort((left, right) => ratioOf(left) - ratioOf(right))[Math.floor(ROUNDS / 2)]!;
  return { rounds, median, ratio: ratioOf(median), roundRatios: rounds.map(ratioOf), cpu: median.cpu };
}

export async function runThroughput(
  kind: BenchDatabaseKind = defaultDatabaseKind(),
): Promise<ThroughputReport> {
  console.log(`\n## 1. API throughput (${kind === 'postgres' ? 'PostgreSQL' : 'PGlite'})`);
  // The limit stays up, idle, and is measured again beside each endpoint: on a shared machine its speed
  // drifts by half within minutes, so one figure at the start would skew every later ratio.
  const limit = await startLimitServer();
  let fastify: RunningProcess | undefined;
  let product: RunningProcess | undefined;
  let upstream: RunningProcess | undefined;
  let upstreamDatabase: BenchDatabase | undefined;
  const database = await createBenchDatabase('throughput', kind);
  try {
    const limits: LoadResult[] = [];
    fastify = await startHelloServer();
    const reference = await measureAgainstLimit(limit, { url: `${fastify.url}/` }, { product: fastify.pid });
    limits.push(...reference.rounds.map((round) => round.limit));
    console.log(
      `bare Fastify: ${reference.median.result.requestsPerSecond.toFixed(0)} req/s, ${reference.ratio.toFixed(2)} of the node:http limit (rounds ${reference.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}); ${cpuText(reference.cpu)}`,
    );
    await fastify.stop();
    fastify = undefined;

    const users = await seedBenchUsers(database, LIST_ROWS);
    const rows: ThroughputRow[] = [];
    const measure = async (seeded: SeededProduct, target: Target, watched: Watched, idleMsPerSecond = 0) => {
      const measured = await measureAgainstLimit(limit, loadOptionsFor(seeded, target), watched);
      const cpuMicros: CpuPerRequest = {
        ...measured.cpu,
        background: (idleMsPerSecond * 1000) / Math.max(1, measured.median.result.requestsPerSecond),
      };
      limits.push(...measured.rounds.map((round) => round.limit));
      const row: ThroughputRow = {
        ...measured.median.result,
        // Every round's failures count, not only the median round's.
        errors: measured.rounds.reduce((sum, entry) => sum + entry.result.errors, 0),
        non2xx: measured.rounds.reduce((sum, entry) => sum + entry.result.non2xx, 0),
        name: target.name,
        limitRequestsPerSecond: measured.median.limit.requestsPerSecond,
        ratio: measured.ratio,
        roundRatios: measured.roundRatios,
        minRatio: target.minRatio,
        peakRssMb: seeded.product.peakRssBytes() / MB,
        cpuMicros,
        limitBytesPerRequest: measured.median.limit.bytesPerRequest,
      };
      rows.push(row);
      console.log(
        `${target.name}: ${row.requestsPerSecond.toFixed(0)} req/s (${row.ratio.toFixed(2)} of the limit, median of ${row.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}; target ≥ ${target.minRatio}), p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, errors ${row.errors + row.non2xx}${refusalText(measured.rounds.map((entry) => entry.result))}, RSS ≤ ${row.peakRssMb.toFixed(0)} MB, ${row.bytesPerRequest.toFixed(0)} B per answer (the limit's ${row.limitBytesPerRequest.toFixed(0)}); ${cpuText(row.cpuMicros)}`,
      );
    };

    // The reads, on the default install: the built-in simulators in their worker thread of the product's
    // process (ADR 0037), the product's own log level (info).
    const reads = await startProductFor(
      database,
      users,
      (started) => {
        product = started;
      },
      { env: { LOG_LEVEL: 'info' } },
    );
    const onPostgres = database.kind === 'postgres';
    const idleCpuMsPerSecond = await idleCpu(reads.product.pid);
    console.log(
      `the product at rest: ${idleCpuMsPerSecond.toFixed(1)} ms of CPU per second (its jobs and built-in simulators)`,
    );
    for (const target of reads.targets.filter((candidate) => !candidate.manyUsers && wanted(candidate)))
      await measure(reads, target, { product: reads.product.pid, postgres: onPostgres }, idleCpuMsPerSecond);
    const peakRssMb = reads.product.peakRssBytes() / MB;
    await reads.product.stop();
    product = undefined;

    // The purchase, with the SMS upstream in a process of its own (a supplier is another host): the
    // upstream's work is not the product's. It keeps its state in a database of its own: on PostgreSQL
    // when there is one (its own speed is not what is measured), else in its own PGlite folder.
    upstreamDatabase = await createBenchDatabase('throughput_upstream');
    const started = await startUpstreamSimulator(upstreamDatabase.env);
    upstream = started;
    const buying = await startProductFor(
      database,
      users,
      (running) => {
        product = running;
      },
      { env: { ...started.productEnv, LOG_LEVEL: 'info' } },
    );
    for (const target of buying.targets.filter((candidate) => candidate.manyUsers && wanted(candidate)))
      await measure(buying, target, {
        product: buying.product.pid,
        upstream: started.pid,
        postgres: onPostgres || upstreamDatabase.kind === 'postgres',
        beforeRun: started.restock,
      });
    const purchasePeakRssMb = buying.product.peakRssBytes() / MB;
    return {
      database: database.kind,
      limits,
      fastifyRoundRatios: reference.roundRatios,
      fastifyRatio: reference.ratio,
      fastifyCpuMicros: reference.cpu,
      rows,
      peakRssMb,
      purchasePeakRssMb,
      listRows: LIST_ROWS,
      idleCpuMsPerSecond,
    };
  } finally {
    // Also when a measurement fails: no server left running, no database left behind.
    await product?.stop();
    await upstream?.stop();
    await fastify?.stop();
    await limit.stop();
    await database.drop();
    await upstreamDatabase?.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runThroughput();
