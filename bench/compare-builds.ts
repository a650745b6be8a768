// Two builds of the server side by side, the CPU each spends per request on the same reads: the figure of
// a change (before/after) that a shared machine's drifting speed cannot hide, since both builds are
// measured in turn, within seconds of each other, the order swapped every other round.
//
//   git stash && npm run build -w @simcode/server && cp -r apps/server/dist apps/server/dist-before && git stash pop
//   npx tsx bench/compare-builds.ts apps/server/dist-before/main.js          # against the current sources
//
// Each build runs on a fresh PGlite database of its own (or PostgreSQL at DATABASE_URL), seeded alike.
// While one is loaded the other idles: its CPU over that run is its work at rest (jobs, the built-in
// simulators), which is subtracted from the per-request figure in the "net" one. COMPARE_ONLY picks the
// targets whose name contains one of its comma-separated parts; COMPARE_ROUNDS, COMPARE_SECONDS and
// COMPARE_CONNECTIONS change the rounds (11), their length (2 s) and autocannon's connections (20).

import { type BenchDatabase, createBenchDatabase } from './lib/database';
import { measureLoad } from './lib/load';
import { cpuMs, type RunningProcess } from './lib/processes';
import { loadOptionsFor, type SeededProduct, seedBenchUsers, startProductFor } from './throughput';

/**
 * Many short rounds rather than a few long ones: a stall of the machine spoils the round it falls in, and
 * the median of the rounds' ratios leaves it out.
 */
const ROUNDS = Number(process.env.COMPARE_ROUNDS ?? 11);
const SECONDS = Number(process.env.COMPARE_SECONDS ?? 2);
const CONNECTIONS = Number(process.env.COMPARE_CONNECTIONS ?? 20);
/** Targets whose name contains one of these (COMPARE_ONLY, comma-separated); every read by default. */
const ONLY = (process.env.COMPARE_ONLY ?? '').split(',');

interface Sample {
  /** CPU per request over the loaded run, in microseconds. */
  grossMicros: number;
  /** The same less the build's idle CPU rate (read while the other build was loaded) over the run. */
  netMicros: number;
  requestsPerSecond: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const beforeEntry = process.argv[2];
  if (!beforeEntry) throw new Error('usage: npx tsx bench/compare-builds.ts <path of the other main.js>');
  const databases: BenchDatabase[] = [];
  const running: RunningProcess[] = [];
  try {
    const builds: Array<{ name: string; seeded: SeededProduct }> = [];
    for (const [name, entry] of [
      ['before', beforeEntry],
      ['after', undefined],
    ] as const) {
      const database = await createBenchDatabase(`compare_${name}`);
      databases.push(database);
      const users = await seedBenchUsers(database, 1000);
      const seeded = await startProductFor(database, users, (product) => running.push(product), {
        entry,
        env: { LOG_LEVEL: 'info' },
      });
      builds.push({ name, seeded });
    }
    const [before, after] = builds as [(typeof builds)[number], (typeof builds)[number]];
    const targets = before.seeded.targets.filter(
      (target) =>
        !target.manyUsers &&
        ONLY.some((part) => target.name.includes(part)) &&
        !target.name.includes('/numbers'),
    );
    console.log(
      `${ROUNDS} rounds of ${SECONDS} s (${CONNECTIONS} connections, 1 s warm-up) per build and target; CPU per request in µs`,
    );
    for (const target of targets) {
      const samples = new Map<string, Sample[]>([
        ['before', []],
        ['after', []],
      ]);
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? [before, after] : [after, before];
        for (const build of order) {
          const other = build === before ? after : before;
          const sameTarget = build.seeded.targets.find((candidate) => candidate.name === target.name)!;
          let usedMs = 0;
          let idleMsPerSecond = 0;
          const result = await measureLoad({
            ...loadOptionsFor(build.seeded, sameTarget),
            durationSeconds: SECONDS,
            warmupSeconds: 1,
            connections: CONNECTIONS,
            onMeasuredRun: () => {
              const startedAt = performance.now();
              const mine = cpuMs(build.seeded.product.pid);
              const theirs = cpuMs(other.seeded.product.pid);
              return () => {
                usedMs = cpuMs(build.seeded.product.pid) - mine;
                idleMsPerSecond =
                  (cpuMs(other.seeded.product.pid) - theirs) / ((performance.now() - startedAt) / 1000);
              };
            },
          });
          const requests = Math.max(1, result.totalRequests);
          samples.get(build.name)!.push({
            grossMicros: (usedMs * 1000) / requests,
            netMicros: ((usedMs - idleMsPerSecond * SECONDS) * 1000) / requests,
            requestsPerSecond: result.requestsPerSecond,
          });
        }
      }
      const figure = (name: string) => {
        const list = samples.get(name)!;
        return {
          gross: median(list.map((sample) => sample.grossMicros)),
          net: median(list.map((sample) => sample.netMicros)),
          rate: median(list.map((sample) => sample.requestsPerSecond)),
        };
      };
      const old = figure('before');
      const now = figure('after');
      // Each round's two runs are seconds apart, on the same machine's moment: their ratio is the steadier figure.
      const roundRatios = samples
        .get('after')!
        .map((sample, round) => sample.grossMicros / samples.get('before')![round]!.grossMicros);
      console.log(
        `${target.name}: before ${old.gross.toFixed(0)} µs (net of its work at rest ${old.net.toFixed(0)}, ${old.rate.toFixed(0)} req/s), after ${now.gross.toFixed(0)} µs (net ${now.net.toFixed(0)}, ${now.rate.toFixed(0)} req/s); after/before, median round ${median(roundRatios).toFixed(2)} (rounds ${roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
      );
    }
  } finally {
    for (const product of running) await product.stop();
    for (const database of databases) await database.drop();
  }
}

await main();
