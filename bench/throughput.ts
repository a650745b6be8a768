// 1. API throughput: autocannon (100 connections, 10 s after a 2 s warm-up) against a bare Fastify
// hello-world, then against the product on PostgreSQL (DATABASE_URL) with seeded data. Figures are printed
// as ratios to the baseline taken in the same run, since absolute numbers depend on the machine's moment.

import { type BenchDatabase, createBenchDatabase } from './lib/database';
import { type LoadOptions, type LoadResult, measureLoad } from './lib/load';
import { type RunningProcess, startHelloServer, startProduct } from './lib/processes';
import { BENCH_JWT_SECRET, seedActivations, seedTickets, seedUser } from './lib/seed';

export interface Target {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** One user per request, in turn (the purchase). */
  manyUsers?: boolean;
  /** Minimum share of the baseline's requests per second. */
  minRatio: number;
}

export interface ThroughputRow extends LoadResult {
  name: string;
  /** The baseline measured right before this endpoint, which the ratio divides by. */
  baselineRequestsPerSecond: number;
  /** The median of `roundRatios`. */
  ratio: number;
  roundRatios: number[];
  minRatio: number;
  peakRssMb: number;
}

export interface ThroughputReport {
  database: string;
  /** Every baseline measurement of the part, in order. */
  baselines: LoadResult[];
  rows: ThroughputRow[];
  peakRssMb: number;
}

const MB = 1024 * 1024;
/** Baseline-and-endpoint pairs per endpoint (THROUGHPUT_ROUNDS); an odd number, for a median. */
const ROUNDS = Number(process.env.THROUGHPUT_ROUNDS ?? 3);

export async function runThroughput(): Promise<ThroughputReport> {
  console.log('\n## 1. API throughput');
  // The baseline stays up, idle, and is measured again right before each endpoint: on a shared machine
  // its speed drifts by half within minutes, so one figure at the start would skew every later ratio.
  const hello = await startHelloServer();
  const baseline = async () => {
    const result = await measureLoad({ url: `${hello.url}/` });
    console.log(
      `baseline (Fastify hello world): ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99Ms} ms`,
    );
    return result;
  };
  const database = await createBenchDatabase('throughput');
  let product: RunningProcess | undefined;
  try {
    return await measureProduct(database, baseline, (started) => {
      product = started;
    });
  } finally {
    // Also when a measurement fails: no server left running, no database left behind.
    await product?.stop();
    await hello.stop();
    await database.drop();
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

/**
 * The built product on `database`, seeded with a user who has numbers and tickets and with 200 buyers,
 * and the endpoints to measure. `started` sees the process as soon as it runs, so a failure later still
 * stops it.
 */
export async function startSeededProduct(
  database: BenchDatabase,
  started: (product: RunningProcess) => void,
  options: { nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<SeededProduct> {
  const seeding = await database.open();
  const user = await seedUser(seeding.db, 'bench_user', { balanceCents: 100_000_000 });
  // Buyers: one user's purchases queue on that user's account lock by design, so the purchase figure is
  // taken the way a busy service sees purchases, from many users at once.
  const buyers = [];
  for (let index = 0; index < 200; index += 1)
    buyers.push(await seedUser(seeding.db, `bench_buyer_${index}`, { balanceCents: 10_000_000 }));
  await seedActivations(seeding.db, user.id, 30);
  await seedTickets(seeding.db, user.id, 20);
  await seeding.close();

  const product = await startProduct({
    dataDir: database.dataDir,
    nodeArgs: options.nodeArgs,
    env: {
      ...database.env,
      JWT_SECRET: BENCH_JWT_SECRET,
      RATE_LIMIT_PURCHASES_PER_MINUTE: '100000000',
      // The simulator answers at once; its SMS would arrive after the run (the buy path is what is measured).
      SIMULATOR_SMS_DELAY_MIN_MS: '600000',
      SIMULATOR_SMS_DELAY_MAX_MS: '600000',
      ...options.env,
    },
  });
  started(product);
  // As a browser sends them: compressed answers where the server compresses.
  const headers = { authorization: user.authorization, 'accept-encoding': 'gzip, deflate, br' };
  const api = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${product.url}${path}`, {
      ...init,
      headers: { ...headers, 'content-type': 'application/json', ...init.headers },
    });
    return { status: response.status, body: await response.json() };
  };
  // The catalog loads from the simulator right after start.
  let services: Array<{ id: string; stock: number }> = [];
  for (let attempt = 0; attempt < 100 && services.length === 0; attempt += 1) {
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

  const targets: Target[] = [
    {
      name: 'GET /api/dashboard/number-status/{id}',
      path: `/api/dashboard/number-status/${bought.body.number.number_id}`,
      minRatio: 0.5,
    },
    { name: 'GET /api/dashboard/summary', path: '/api/dashboard/summary', minRatio: 0.5 },
    { name: 'GET /api/dashboard/numbers', path: '/api/dashboard/numbers', minRatio: 0 },
    { name: 'GET /api/dashboard/countries', path: '/api/dashboard/countries', minRatio: 0.6 },
    {
      name: 'GET /api/dashboard/services',
      path: '/api/dashboard/services?countryID=US&operator=any',
      minRatio: 0.6,
    },
    { name: 'GET /api/tickets', path: '/api/tickets', minRatio: 0 },
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
    buyerHeaders: buyers.map((buyer) => ({ authorization: buyer.authorization })),
  };
}

/** The load options of one target: many-user targets take the buyers' tokens in turn. */
export function loadOptionsFor(seeded: SeededProduct, target: Target): LoadOptions {
  return {
    url: `${seeded.product.url}${target.path}`,
    method: target.method,
    body: target.body,
    headers: seeded.headers,
    rotatingHeaders: target.manyUsers ? seeded.buyerHeaders : undefined,
  };
}

async function measureProduct(
  database: BenchDatabase,
  measureBaseline: () => Promise<LoadResult>,
  started: (product: RunningProcess) => void,
): Promise<ThroughputReport> {
  const seeded = await startSeededProduct(database, started);
  const rows: ThroughputRow[] = [];
  const baselines: LoadResult[] = [];
  for (const target of seeded.targets) {
    // Rounds of a baseline and an endpoint run, the order swapped every other round so that neither always
    // runs on a machine still busy from the other; the round with the median ratio is reported.
    const rounds: Array<{ baseline: LoadResult; result: LoadResult }> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const measureTarget = () => measureLoad(loadOptionsFor(seeded, target));
      if (round % 2 === 0) {
        const baseline = await measureBaseline();
        rounds.push({ baseline, result: await measureTarget() });
      } else {
        const result = await measureTarget();
        rounds.push({ baseline: await measureBaseline(), result });
      }
    }
    const ratioOf = (entry: (typeof rounds)[number]) =>
      entry.result.requestsPerSecond / entry.baseline.requestsPerSecond;
    const median = [...rounds].sort((left, right) => ratioOf(left) - ratioOf(right))[Math.floor(ROUNDS / 2)]!;
    baselines.push(...rounds.map((entry) => entry.baseline));
    const row = {
      ...median.result,
      // Every round's failures count, not only the median round's.
      errors: rounds.reduce((sum, entry) => sum + entry.result.errors, 0),
      non2xx: rounds.reduce((sum, entry) => sum + entry.result.non2xx, 0),
      name: target.name,
      baselineRequestsPerSecond: median.baseline.requestsPerSecond,
      ratio: ratioOf(median),
      roundRatios: rounds.map(ratioOf),
      minRatio: target.minRatio,
      peakRssMb: seeded.product.peakRssBytes() / MB,
    };
    rows.push(row);
    console.log(
      `${target.name}: ${row.requestsPerSecond.toFixed(0)} req/s (${row.ratio.toFixed(2)} of baseline, median of ${row.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}; target ≥ ${target.minRatio}), p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, errors ${row.errors + row.non2xx}, RSS ≤ ${row.peakRssMb.toFixed(0)} MB`,
    );
  }
  const peakRssMb = seeded.product.peakRssBytes() / MB;
  return { database: database.kind, baselines, rows, peakRssMb };
}

if (import.meta.url === `file://${process.argv[1]}`) await runThroughput();
