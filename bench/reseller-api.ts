// 6. Reseller API: getStatus through the SMS-Activate protocol (an API key) against the web's status endpoint
// (a session token), in the same run and on the same order, as a ratio (goal ≥ 0.9); and what checking a
// key costs per call (hash and lookup) measured in this process.

import { createHash, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createBenchDatabase } from './lib/database';
import { type LoadResult, measureLoad } from './lib/load';
import type { RunningProcess } from './lib/processes';
import { BENCH_PASSWORD } from './lib/seed';
import { startSeededProduct } from './throughput';

export const RESELLER_RATIO_TARGET = 0.9;
const ROUNDS = Number(process.env.THROUGHPUT_ROUNDS ?? 3);
const KEY_CHECKS = 200_000;

export interface ResellerApiReport {
  database: string;
  web: LoadResult;
  api: LoadResult;
  /** The median round's API / web requests per second. */
  ratio: number;
  roundRatios: number[];
  /** Microseconds of a key check in process: a known key's lookup, and the hash a first use adds. */
  keyCheck: { cachedMicros: number; hashMicros: number };
}

/** Microseconds per call of `work`, over KEY_CHECKS calls. */
function microsPerCall(work: () => boolean): number {
  const started = performance.now();
  for (let index = 0; index < KEY_CHECKS; index += 1) if (!work()) throw new Error('key lookup failed');
  return ((performance.now() - started) * 1000) / KEY_CHECKS;
}

/**
 * The in-process parts of a key check, as the server does them: a known key is a map lookup by the key
 * itself; a key's first use (or its first after a change) also hashes it before reading the database.
 */
function measureKeyCheck(): { cachedMicros: number; hashMicros: number } {
  const key = `sc_${randomBytes(32).toString('base64url')}`;
  const cache = new Map([[key, { id: 1 }]]);
  return {
    cachedMicros: microsPerCall(() => cache.get(key) !== undefined),
    hashMicros: microsPerCall(() => createHash('sha256').update(key).digest('hex').length === 64),
  };
}

export async function runResellerApi(): Promise<ResellerApiReport> {
  console.log('\n## 6. Reseller API');
  const database = await createBenchDatabase('reseller');
  let product: RunningProcess | undefined;
  try {
    const seeded = await startSeededProduct(
      database,
      (started) => {
        product = started;
      },
      { env: { RATE_LIMIT_API_KEY_PER_MINUTE: '100000000', RATE_LIMIT_API_USER_PER_MINUTE: '100000000' } },
    );
    const origin = seeded.product.url;
    const created = await fetch(`${origin}/api/dashboard/api-keys`, {
      method: 'POST',
      headers: { ...seeded.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench', current_password: BENCH_PASSWORD }),
    });
    const { secret } = (await created.json()) as { secret: string };
    const countries = (await (
      await fetch(`${origin}/stubs/handler_api.php?api_key=${secret}&action=getPrices&country=187`)
    ).json()) as Record<string, Record<string, { count: number }>>;
    const [service] =
      Object.entries(countries['187'] ?? {}).sort((left, right) => right[1].count - left[1].count)[0] ?? [];
    const bought = await (
      await fetch(
        `${origin}/stubs/handler_api.php?api_key=${secret}&action=getNumber&service=${service}&country=187`,
      )
    ).text();
    if (!bought.startsWith('ACCESS_NUMBER:')) throw new Error(`could not buy through the API: ${bought}`);
    const [, orderId] = bought.split(':');
    // The same order, read both ways: by the web's status route and by the API.
    const numbers = (await (
      await fetch(`${origin}/api/dashboard/numbers`, {
        headers: { authorization: seeded.headers.authorization! },
      })
    ).json()) as {
      numbers: Array<{ id: number; number_id: string }>;
    };
    const numberId = numbers.numbers.find((entry) => entry.id === Number(orderId))!.number_id;
    const web = () =>
      measureLoad({ url: `${origin}/api/dashboard/number-status/${numberId}`, headers: seeded.headers });
    const api = () =>
      measureLoad({
        url: `${origin}/stubs/handler_api.php?api_key=${secret}&action=getStatus&id=${orderId}`,
      });
    const rounds: Array<{ web: LoadResult; api: LoadResult }> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      if (round % 2 === 0) rounds.push({ web: await web(), api: await api() });
      else {
        const apiResult = await api();
        rounds.push({ api: apiResult, web: await web() });
      }
    }
    const ratioOf = (entry: (typeof rounds)[number]) =>
      entry.api.requestsPerSecond / entry.web.requestsPerSecond;
    const median = [...rounds].sort((left, right) => ratioOf(left) - ratioOf(right))[Math.floor(ROUNDS / 2)]!;
    const keyCheck = measureKeyCheck();
    const report = {
      database: database.kind,
      web: median.web,
      api: median.api,
      ratio: ratioOf(median),
      roundRatios: rounds.map(ratioOf),
      keyCheck,
    };
    console.log(
      `web GET /api/dashboard/number-status: ${report.web.requestsPerSecond.toFixed(0)} req/s, p50 ${report.web.p50Ms} ms, p99 ${report.web.p99Ms} ms, errors ${report.web.errors + report.web.non2xx}`,
    );
    console.log(
      `API getStatus: ${report.api.requestsPerSecond.toFixed(0)} req/s, p50 ${report.api.p50Ms} ms, p99 ${report.api.p99Ms} ms, errors ${report.api.errors + report.api.non2xx}`,
    );
    console.log(
      `ratio API / web ${report.ratio.toFixed(2)} (median of ${report.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}; target ≥ ${RESELLER_RATIO_TARGET}); key check in process: ${keyCheck.cachedMicros.toFixed(3)} µs for a known key, plus ${keyCheck.hashMicros.toFixed(2)} µs of hashing on a first use`,
    );
    return report;
  } finally {
    await product?.stop();
    await database.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runResellerApi();
