// Where the server's time goes under one throughput target's load: the product runs under `--cpu-prof`
// while autocannon loads the target, then the profile's self time is printed by function and by package.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/profile.ts countries
//   npx tsx bench/profile.ts status apps/server/dist-before/main.js     # another build of the server
//
// The argument picks the first target whose name contains it (see throughput.ts). The .cpuprofile file
// is kept and its path printed, for Chrome DevTools' Performance panel.

import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createBenchDatabase } from './lib/database';
import { measureLoad } from './lib/load';
import { type RunningProcess, startUpstreamSimulator } from './lib/processes';
import { loadOptionsFor, startSeededProduct } from './throughput';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a script belongs: a package under node_modules, Node's internals, or our own file. */
function ownerOf(url: string): string {
  if (!url) return '(native or idle)';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (inPackage) return inPackage[1]!;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(`${path.resolve(import.meta.dirname, '..')}/`, '');
}

function printTop(title: string, totals: Map<string, number>, allMicros: number, count = 20) {
  console.log(`\n${title}`);
  const rows = [...totals].sort((a, b) => b[1] - a[1]).slice(0, count);
  for (const [name, micros] of rows)
    console.log(`${((micros / allMicros) * 100).toFixed(1).padStart(5)}%  ${name}`);
}

function summarize(profile: CpuProfile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let allMicros = 0;
  profile.samples.forEach((nodeId, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const frame = nodes.get(nodeId)!.callFrame;
    allMicros += micros;
    const name = `${frame.functionName || '(anonymous)'}  ${ownerOf(frame.url)}:${frame.lineNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + micros);
    const owner = ownerOf(frame.url);
    byOwner.set(owner, (byOwner.get(owner) ?? 0) + micros);
  });
  printTop('Self time by package or file', byOwner, allMicros);
  printTop('Self time by function', byFunction, allMicros, 30);
  printTop('Total time (with callees) of our own functions', inclusiveOfOwnFunctions(profile), allMicros, 30);
}

/** Time spent in each of the product's own functions including what they call, each sample counted once. */
function inclusiveOfOwnFunctions(profile: CpuProfile): Map<string, number> {
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const totals = new Map<string, number>();
  profile.samples.forEach((nodeId, index) => {
    const micros = profile.timeDeltas[index] ?? 0;
    const seen = new Set<string>();
    for (let id: number | undefined = nodeId; id !== undefined; id = parentOf.get(id)) {
      const frame = nodes.get(id)!.callFrame;
      if (!/\/apps\/server\/(src|dist)\//.test(frame.url)) continue;
      const name = `${frame.functionName || '(anonymous)'}  ${ownerOf(frame.url)}:${frame.lineNumber + 1}`;
      if (seen.has(name)) continue;
      seen.add(name);
      totals.set(name, (totals.get(name) ?? 0) + micros);
    }
  });
  return totals;
}

const wanted = process.argv[2] ?? 'countries';
/** Another build's `main.js` to profile instead of the current sources' (compare-builds.ts makes one). */
const entry = process.argv[3];
const profileDir = mkdtempSync(path.join(tmpdir(), 'simcode-profile-'));
const database = await createBenchDatabase('profile');
// The purchase is measured as part 1 measures it: the SMS upstream in a process of its own (on a database
// of its own), so the profile holds the product's work only.
const buying = 'POST /api/dashboard/buy-number'.includes(wanted);
const upstreamDatabase = buying ? await createBenchDatabase('profile_upstream') : undefined;
let product: RunningProcess | undefined;
let upstream: RunningProcess | undefined;
try {
  const external = upstreamDatabase ? await startUpstreamSimulator(upstreamDatabase.env) : undefined;
  upstream = external;
  const seeded = await startSeededProduct(
    database,
    (started) => {
      product = started;
    },
    {
      nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`],
      entry,
      // The product's default log level, as part 1 runs it.
      env: { LOG_LEVEL: 'info', ...external?.productEnv },
    },
  );
  const target = seeded.targets.find((candidate) => candidate.name.includes(wanted));
  if (!target) throw new Error(`no target named like "${wanted}"`);
  // As part 1 does: a round starts on a restocked upstream, so purchases are not refused for sold-out numbers.
  await external?.restock();
  const result = await measureLoad(loadOptionsFor(seeded, target));
  console.log(
    `${target.name}: ${result.requestsPerSecond.toFixed(0)} req/s under the profiler, p99 ${result.p99Ms} ms, errors ${result.errors + result.non2xx}`,
  );
} finally {
  await product?.stop();
  await upstream?.stop();
  await database.drop();
  await upstreamDatabase?.drop();
}
const file = readdirSync(profileDir).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`the product wrote no profile in ${profileDir}`);
console.log(`Profile: ${path.join(profileDir, file)}`);
summarize(JSON.parse(readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile);
