// `npm run bench`: the benchmarks in order (start and memory, and throughput, on the embedded database and
// on PostgreSQL; the other parts on DATABASE_URL's), each printing its figures, then bench/results/latest.md
// with the date, the machine, the database and every figure beside its target (✓ met, ✗ missed).
// Benchmarks report; they do not fail builds: the exit code is 0 when targets are missed, and 1 only
// when a part could not run at all.
//
//   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench

import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { runAdminOverview } from './admin-overview';
import { runDeliveryLatency } from './delivery-latency';
import { describeMachine } from './lib/machine';
import {
  deliverySection,
  listSection,
  mark,
  overviewSection,
  pushSection,
  resellerSection,
  type Summary,
  startupSection,
  table,
  throughputSection,
  upstreamSection,
  webSection,
} from './lib/report-sections';
import { buildWebApp, type WebBuild } from './lib/web';
import { runListScale } from './list-scale';
import { runPushDelivery } from './push-delivery';
import { runResellerApi } from './reseller-api';
import { runStartup } from './startup';
import { runThroughput } from './throughput';
import { runUpstreamCost } from './upstream-cost';
import { runWebBudgets } from './web-budgets';

const RESULTS_FILE = path.join(import.meta.dirname, 'results', 'latest.md');

/** What the figures ran on: the PostgreSQL server's version, or PGlite. */
async function describeDatabase(): Promise<string> {
  if (!process.env.DATABASE_URL)
    return 'PGlite (embedded; DATABASE_URL not set — not what production runs on)';
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  try {
    await client.connect();
    const { rows } = await client.query<{ version: string }>('select version()');
    const version = /^PostgreSQL [\d.]+/.exec(rows[0]?.version ?? '')?.[0] ?? 'PostgreSQL';
    const url = new URL(process.env.DATABASE_URL);
    return `${version} at ${url.hostname}:${url.port || 5432} (a fresh database per measurement, dropped after)`;
  } finally {
    await client.end().catch(() => {});
  }
}

const startedAt = new Date();
const machine = describeMachine();
console.log(`# SimCode benchmarks, ${startedAt.toISOString()}\n${machine}`);
const database = await describeDatabase();
console.log(`Database: ${database}`);
const loadAtStart = loadavg()[0] ?? 0;

const sections: string[] = [];
const summary: Summary[] = [];
const failures: string[] = [];

/** Runs one part; a part that cannot run is reported and the others still run. */
async function part<T>(name: string, run: () => Promise<T>, section: (report: T) => string): Promise<void> {
  const partStartedAt = performance.now();
  try {
    const report = await run();
    sections.push(
      `${section(report)}\n\n_Took ${((performance.now() - partStartedAt) / 1000).toFixed(0)} s._`,
    );
  } catch (error) {
    console.error(`\n${name} could not run:`, error);
    failures.push(name);
    sections.push(
      `## ${name}\n\n**Did not complete:** ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

let web: WebBuild | undefined;
try {
  await part('0. Start and memory', runStartup, (report) => startupSection(report, summary));
  // The embedded default (what `npm start` runs on a fresh clone) and PostgreSQL (production).
  await part(
    '1. API throughput, PGlite',
    () => runThroughput('pglite'),
    (report) => throughputSection(report, summary),
  );
  if (process.env.DATABASE_URL)
    await part(
      '1. API throughput, PostgreSQL',
      () => runThroughput('postgres'),
      (report) => throughputSection(report, summary),
    );
  await part('2. Upstream cost', runUpstreamCost, (report) => upstreamSection(report, summary));
  // One production build of the web app for the two parts that serve it.
  await part(
    '3. Code delivery latency',
    () => {
      web ??= buildWebApp();
      return runDeliveryLatency({ distDir: web.distDir });
    },
    (report) => deliverySection(report, summary),
  );
  await part('4. Scale of lists', runListScale, (report) => listSection(report, summary));
  await part(
    '5. Web',
    () => {
      web ??= buildWebApp();
      return runWebBudgets({ distDir: web.distDir });
    },
    (report) => webSection(report, summary),
  );
  await part('6. Reseller API', runResellerApi, (report) => resellerSection(report, summary));
  await part('7. Console overview', runAdminOverview, (report) => overviewSection(report, summary));
  await part('9. Push delivery to API clients', runPushDelivery, (report) => pushSection(report, summary));
} finally {
  web?.cleanUp();
}

const finishedAt = new Date();
const minutes = ((finishedAt.getTime() - startedAt.getTime()) / 60_000).toFixed(0);
const markdown = [
  '# Benchmark results',
  '',
  `- Date: ${startedAt.toISOString()} (${minutes} minutes)`,
  ...machine.split('\n').map((line) => `- ${line}`),
  `- Load average at the start: ${loadAtStart.toFixed(2)} (a shared machine: figures that depend on its speed are ratios to a baseline measured in the same run)`,
  `- Database: ${database}; parts 0 and 1 also on PGlite, the embedded database \`npm start\` runs on by default`,
  `- Command: \`${process.env.DATABASE_URL ? 'DATABASE_URL=… ' : ''}npm run bench\`${process.env.BENCH_SECONDS ? ` with BENCH_SECONDS=${process.env.BENCH_SECONDS}` : ''}`,
  '',
  'What each figure means, how it is measured and how to run one part alone: [bench/README.md](../README.md).',
  '',
  '## Summary',
  '',
  table(
    ['Part', 'Figure', 'Target', 'Met'],
    summary.map((row) => [row.part, row.figure, row.target, mark(row.met)]),
  ),
  '',
  `${summary.filter((row) => row.met).length} of ${summary.length} targets met${failures.length ? `; parts that did not complete: ${failures.join(', ')}` : ''}.`,
  '',
  ...sections.flatMap((section) => [section, '']),
].join('\n');
mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
writeFileSync(RESULTS_FILE, markdown);
console.log(
  `\nWrote ${path.relative(process.cwd(), RESULTS_FILE)}: ${summary.filter((row) => row.met).length} of ${summary.length} targets met.`,
);
// Missed targets are reported, not failed; a part that could not run at all is a failure of the run.
process.exitCode = failures.length > 0 ? 1 : 0;
