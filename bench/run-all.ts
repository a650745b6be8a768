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
import { OVERVIEW_RATIO_TARGET, type OverviewReport, runAdminOverview } from './admin-overview';
import { DELIVERY_P95_TARGET_MS, type DeliveryLatencyReport, runDeliveryLatency } from './delivery-latency';
import type { BenchDatabaseKind } from './lib/database';
import { describeMachine } from './lib/machine';
import { buildWebApp, type WebBuild } from './lib/web';
import { LIST_RATIO_TARGET, type ListScaleReport, runListScale } from './list-scale';
import { RESELLER_RATIO_TARGET, type ResellerApiReport, runResellerApi } from './reseller-api';
import { IDLE_RSS_TARGET_MB, runStartup, type StartupReport } from './startup';
import { runThroughput, type ThroughputReport } from './throughput';
import { runUpstreamCost, type UpstreamCostReport } from './upstream-cost';
import { BUDGETS, LANDING_PAGES, runWebBudgets, type WebBudgetsReport } from './web-budgets';

const RSS_LIMIT_MB = 300;
const RESULTS_FILE = path.join(import.meta.dirname, 'results', 'latest.md');

const mark = (met: boolean) => (met ? '✓' : '✗');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
const rate = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

function table(header: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

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

interface Summary {
  part: string;
  figure: string;
  target: string;
  met: boolean;
}

const databaseName = (kind: BenchDatabaseKind) => (kind === 'postgres' ? 'PostgreSQL' : 'PGlite');
const micros = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(0)} µs`);

function startupSection(report: StartupReport, summary: Summary[]): string {
  const rows = report.rows.map((row) => {
    const built = row.runner === 'built';
    if (built && row.database === 'pglite') {
      summary.push({
        part: '0. Start and memory',
        figure: `PGlite, compiled server: idle RSS ${row.idleRssMb.toFixed(0)} MB after a first start and ${row.restartIdleRssMb.toFixed(0)} MB after a restart`,
        target: `< ${IDLE_RSS_TARGET_MB} MB`,
        met: Math.max(row.idleRssMb, row.restartIdleRssMb) < IDLE_RSS_TARGET_MB,
      });
    }
    return [
      databaseName(row.database),
      built ? 'compiled (`npm start`, plain Node)' : 'TypeScript through tsx (before)',
      `${(row.firstStartMs / 1000).toFixed(1)} s`,
      `${row.idleRssMb.toFixed(0)} MB`,
      `${(row.restartMs / 1000).toFixed(1)} s`,
      `${row.restartIdleRssMb.toFixed(0)} MB`,
    ];
  });
  return [
    '## 0. Start and memory',
    '',
    `The product started as \`npm start\` starts it (its Node flags, the compiled JavaScript) and, for comparison, from its TypeScript sources through tsx's loader, each on a fresh database (first start: the database created and migrated) and then again on that database (restart). Time from spawning Node to the first ready answer of \`/readyz\`; memory (RSS) after ${report.idleSeconds} s idle. The product's default log level; the built-in simulators in process, as on a fresh clone.`,
    '',
    table(['Database', 'Server', 'First start', 'Idle RSS after it', 'Restart', 'Idle RSS after it'], rows),
  ].join('\n');
}

function throughputSection(report: ThroughputReport, summary: Summary[]): string {
  const name = databaseName(report.database);
  const rows = report.rows.map((row) => {
    const errors = row.errors + row.non2xx;
    const met = row.ratio >= row.minRatio && errors === 0;
    summary.push({
      part: `1. Throughput, ${name}`,
      figure: `${row.name}: ${row.ratio.toFixed(2)} of the limit (${(row.ratio / report.fastifyRatio).toFixed(2)} of bare Fastify), ${errors} errors`,
      target: `≥ ${row.minRatio}, 0 errors`,
      met,
    });
    const cpu = row.cpuMicros;
    return [
      row.name,
      row.limitRequestsPerSecond.toFixed(0),
      row.requestsPerSecond.toFixed(0),
      `${row.ratio.toFixed(2)} (${row.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
      (row.ratio / report.fastifyRatio).toFixed(2),
      `≥ ${row.minRatio}`,
      ms(row.p50Ms),
      ms(row.p99Ms),
      errors,
      micros(cpu.limit),
      micros(cpu.product),
      `${micros(cpu.postgres)}${cpu.upstream === undefined ? '' : ` + upstream ${micros(cpu.upstream)}`}`,
      `${row.peakRssMb.toFixed(0)} MB`,
      mark(met),
    ];
  });
  const peak = Math.max(report.peakRssMb, report.purchasePeakRssMb);
  const rssMet = peak < RSS_LIMIT_MB;
  summary.push({
    part: `1. Throughput, ${name}`,
    figure: `server memory (RSS) under load, highest: ${report.peakRssMb.toFixed(0)} MB (reads), ${report.purchasePeakRssMb.toFixed(0)} MB (purchases)`,
    target: `< ${RSS_LIMIT_MB} MB`,
    met: rssMet,
  });
  const limitRates = report.limits.map((limit) => limit.requestsPerSecond);
  return [
    `## 1. API throughput, ${name}`,
    '',
    `autocannon, 100 connections, ${process.env.THROUGHPUT_SECONDS ?? process.env.BENCH_SECONDS ?? 5} s after a 2 s warm-up. **The limit**: a bare \`node:http\` server answering a small JSON body, started the same way as the product, kept running and measured in turn with each endpoint, in ${report.rows[0]?.roundRatios.length ?? 0} rounds per endpoint with the order swapped every other round (this run: ${Math.min(...limitRates).toFixed(0)} to ${Math.max(...limitRates).toFixed(0)} req/s — the machine's speed drifts). Each round's ratio is the endpoint's requests per second over the limit's; the median round is shown (every round's ratio in brackets). **Bare Fastify** (a hello-world JSON route), measured the same way, read **${report.fastifyRatio.toFixed(2)}** of the limit (rounds ${report.fastifyRoundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}; CPU per request ${micros(report.fastifyCpuMicros.product)} against the limit's ${micros(report.fastifyCpuMicros.limit)}); the column "of Fastify" divides by that.`,
    '',
    `The product on ${name}, its default log level (info, one access line per request), seeded with a user holding ${report.listRows.toLocaleString('en-US')} numbers and ${report.listRows.toLocaleString('en-US')} tickets and with 200 buyers. The reads run on the default install (the built-in simulators in the product's process), as a browser asks (\`Accept-Encoding: gzip, deflate, br\`) and, where marked, without \`Accept-Encoding\`. The purchase (from the 200 buyers in turn) runs on the product pointed at the SMS upstream in a process of its own (the built-in simulator of a second product, on a database of its own), as a supplier is another host. **CPU per request** is each process's user and system time over the measured run divided by its requests: the limit's, the product's, PostgreSQL's (every server process of the machine) and the upstream's — where the time goes, independent of how busy the machine was.`,
    '',
    table(
      [
        'Endpoint',
        'Limit req/s',
        'req/s',
        'Ratio to the limit (rounds)',
        'Of Fastify',
        'Target',
        'p50',
        'p99',
        'Errors',
        'CPU/req, limit',
        'CPU/req, product',
        'CPU/req, PostgreSQL',
        'RSS so far',
        'Met',
      ],
      rows,
    ),
    '',
    `Highest server memory (RSS) under load: **${report.peakRssMb.toFixed(0)} MB** serving the reads, **${report.purchasePeakRssMb.toFixed(0)} MB** serving the purchases (target < ${RSS_LIMIT_MB} MB) ${mark(rssMet)}`,
  ].join('\n');
}

function upstreamSection(report: UpstreamCostReport, summary: Summary[]): string {
  const budget = report.budgetPerMinute;
  const rows = report.rows.map((row) => {
    const met = row.syncMaxPerMinute <= budget && row.perMinute.polls === 0;
    summary.push({
      part: '2. Upstream cost',
      figure: `${row.size.toLocaleString('en-US')} orders + ${row.size.toLocaleString('en-US')} rents: ${rate(row.perMinute.sync)} sync requests/min (busiest minute ${row.syncMaxPerMinute}), ${rate(row.perMinute.polls)} from polls`,
      target: `≤ ${budget}/min, 0 from polls`,
      met,
    });
    return [
      `${row.activeOrders.toLocaleString('en-US')} + ${row.activeRents.toLocaleString('en-US')}`,
      rate(row.perMinute.sync),
      row.syncMaxPerMinute,
      rate(row.perMinute.catalog),
      rate(row.perMinute.polls),
      rate(row.perMinute.other),
      rate(row.perMinute.sync + row.perMinute.catalog + row.perMinute.polls + row.perMinute.other),
      row.polls.toLocaleString('en-US'),
      row.pollFailures,
      `sync ≤ ${budget}/min, polls 0`,
      mark(met),
    ];
  });
  const minutes = report.rows.map((row) => [
    `${row.activeOrders.toLocaleString('en-US')} + ${row.activeRents.toLocaleString('en-US')}`,
    row.syncByMinute.join(', '),
    row.totalByMinute.join(', '),
  ]);
  const actions = [...new Set(report.rows.flatMap((row) => Object.keys(row.byAction)))].sort();
  const coverage = report.rows.map((row) => [
    `${row.activeOrders.toLocaleString('en-US')} + ${row.activeRents.toLocaleString('en-US')}`,
    ...actions.map((action) => rate(row.byAction[action] ?? 0)),
    `${rate(row.completeSweepsPerMinute)} (${row.pagesPerSweep} pages each)`,
    `${row.rentsReadBySync.toLocaleString('en-US')} of ${row.activeRents.toLocaleString('en-US')}`,
  ]);
  return [
    '## 2. Upstream cost',
    '',
    `The product in process on a manual clock, its real jobs at their own intervals (sync jobs every 2 s, catalog refresh every ${report.catalogRefreshMs / 1000} s) for 5 simulated minutes; 100 owners each poll the status of every order and rent they own and both lists every 20 s. Requests that reach the simulator's \`handler_api.php\`, per simulated minute, mean of minutes 2–5 (the first minute is the start). Shared sync budget: \`UPSTREAM_SYNC_BUDGET_PER_MINUTE\` = **${budget}**. Counts, not timings: the same on any machine.`,
    '',
    table(
      [
        'Active orders + rents',
        'Sync jobs /min',
        'Busiest minute (sync)',
        'Catalog refresh /min',
        'Client polls /min',
        'Other /min',
        'Total /min',
        'Polls made (min 2–5)',
        'Polls not 200',
        'Target',
        'Met',
      ],
      rows,
    ),
    '',
    'Minute by minute, the first (start) included:',
    '',
    table(['Active orders + rents', 'Sync jobs, minutes 1–5', 'All sources, minutes 1–5'], minutes),
    '',
    'By action (requests per minute, every source), and how far the sync reaches within the budget:',
    '',
    table(
      [
        'Active orders + rents',
        ...actions.map((action) => `\`${action}\``),
        'Complete activation sweeps /min',
        'Rents whose SMS the sync read (min 2–5)',
      ],
      coverage,
    ),
  ].join('\n');
}

function deliverySection(report: DeliveryLatencyReport, summary: Summary[]): string {
  const met = report.p95Ms < DELIVERY_P95_TARGET_MS;
  summary.push({
    part: '3. Code delivery',
    figure: `p95 ${ms(Math.round(report.p95Ms))} over ${report.orders} orders`,
    target: `< ${DELIVERY_P95_TARGET_MS} ms`,
    met,
  });
  return [
    '## 3. Code delivery latency',
    '',
    `The built product and web app on ${report.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, My Numbers open in Chromium with ${report.orders} waiting numbers; one SMS at a time injected at the simulator (pushed through the webhook at once), timed to its code appearing on the page (a MutationObserver's stamp). Page and bench clocks were ${report.clockOffsetMs.toFixed(1)} ± ${report.clockUncertaintyMs.toFixed(1)} ms apart.`,
    '',
    table(
      ['Orders', 'p50', 'p95', 'max', 'Target', 'Met'],
      [
        [
          report.orders,
          ms(Math.round(report.p50Ms)),
          ms(Math.round(report.p95Ms)),
          ms(Math.round(report.maxMs)),
          `p95 < ${DELIVERY_P95_TARGET_MS} ms`,
          mark(met),
        ],
      ],
    ),
    '',
    `Every latency, in order (ms): ${report.latenciesMs.map((value) => value.toFixed(0)).join(', ')}`,
  ].join('\n');
}

function overviewSection(report: OverviewReport, summary: Summary[]): string {
  const rows = report.rows.map((row) => {
    const met = row.ratio < OVERVIEW_RATIO_TARGET;
    summary.push({
      part: '7. Console overview',
      figure: `${row.path}: p99 ratio ${row.ratio.toFixed(2)}`,
      target: `< ${OVERVIEW_RATIO_TARGET}`,
      met,
    });
    return [
      row.path,
      ms(row.small.p99Ms),
      ms(row.large.p99Ms),
      row.ratio.toFixed(2),
      `< ${OVERVIEW_RATIO_TARGET}`,
      mark(met),
      row.small.errors + row.small.non2xx + row.large.errors + row.large.non2xx,
    ];
  });
  return [
    '## 7. Console overview',
    '',
    `10^3, then 10^6 one-time orders over 30 days (with their ledger entries and SMS) in a fresh ${report.database === 'postgres' ? 'PostgreSQL' : 'PGlite'} database, the hourly roll-up computed (${report.rollupMs.map((value) => `${(value / 1000).toFixed(1)} s`).join(' and ')} for the 744 hours); both products side by side, measured in turn for ${report.rounds} rounds (autocannon, 10 connections, 1 s warm-up, ${report.seconds} s); the median round of each.`,
    '',
    table(['Request', 'p99, 10^3 orders', 'p99, 10^6 orders', 'Ratio', 'Target', 'Met', 'Errors'], rows),
  ].join('\n');
}

function listSection(report: ListScaleReport, summary: Summary[]): string {
  const rows = report.rows.map((row) => {
    const met = row.ratio < LIST_RATIO_TARGET;
    summary.push({
      part: '4. Scale of lists',
      figure: `${row.name}: p99 ratio ${row.ratio.toFixed(2)}`,
      target: `< ${LIST_RATIO_TARGET}`,
      met,
    });
    return [
      row.name,
      ms(row.small.p99Ms),
      ms(row.large.p99Ms),
      row.ratio.toFixed(2),
      `< ${LIST_RATIO_TARGET}`,
      mark(met),
      `${ms(row.small.p50Ms)} → ${ms(row.large.p50Ms)}`,
      `${row.small.requestsPerSecond.toFixed(0)} → ${row.large.requestsPerSecond.toFixed(0)}`,
      row.small.errors + row.small.non2xx + row.large.errors + row.large.non2xx,
    ];
  });
  return [
    '## 4. Scale of lists',
    '',
    `One user with 10^3, then 10^5 numbers, rents and tickets (each with a message) in a fresh ${report.database === 'postgres' ? 'PostgreSQL' : 'PGlite'} database, vacuumed and analysed; both products side by side, measured in turn for ${report.rounds} rounds (autocannon, 10 connections, 1 s warm-up, ${report.seconds} s); the median round of each. The ratio is p99 with 10^5 rows over p99 with 10^3 rows, both from this run.`,
    '',
    table(
      ['List', 'p99, 10^3 rows', 'p99, 10^5 rows', 'Ratio', 'Target', 'Met', 'p50', 'req/s', 'Errors'],
      rows,
    ),
  ].join('\n');
}

function resellerSection(report: ResellerApiReport, summary: Summary[]): string {
  const errors = report.web.errors + report.web.non2xx + report.api.errors + report.api.non2xx;
  const met = report.ratio >= RESELLER_RATIO_TARGET && errors === 0;
  summary.push({
    part: '6. Reseller API',
    figure: `getStatus through the API / the web's status: ${report.ratio.toFixed(2)}`,
    target: `≥ ${RESELLER_RATIO_TARGET}`,
    met,
  });
  return [
    '## 6. Reseller API',
    '',
    `One order bought through the SMS-Activate protocol with an API key on ${report.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, then read in turn through \`/stubs/handler_api.php?action=getStatus\` (the key) and \`/api/dashboard/number-status\` (a session token); the median of the rounds' ratios (${report.roundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}).`,
    '',
    table(
      ['Endpoint', 'req/s', 'p50', 'p99', 'Errors'],
      [
        [
          'web number-status',
          rate(report.web.requestsPerSecond),
          ms(report.web.p50Ms),
          ms(report.web.p99Ms),
          report.web.errors + report.web.non2xx,
        ],
        [
          'API getStatus',
          rate(report.api.requestsPerSecond),
          ms(report.api.p50Ms),
          ms(report.api.p99Ms),
          report.api.errors + report.api.non2xx,
        ],
      ],
    ),
    '',
    `A key check in the process: ${report.keyCheck.cachedMicros.toFixed(3)} µs for a known key (a map lookup by the key), plus ${report.keyCheck.hashMicros.toFixed(2)} µs of SHA-256 on a key's first use. Ratio ${report.ratio.toFixed(2)}, target ≥ ${RESELLER_RATIO_TARGET} ${mark(met)}.`,
  ].join('\n');
}

function webSection(report: WebBudgetsReport, summary: Summary[]): string {
  for (const landing of report.publicPages.filter((page) => LANDING_PAGES.has(page.path))) {
    summary.push({
      part: '5. Web',
      figure: `${landing.path} landing JavaScript before interaction ${kb(landing.beforeBytes)} gzip`,
      target: `≤ ${kb(BUDGETS.landingJsGzipBytes)}`,
      met: landing.beforeBytes <= BUDGETS.landingJsGzipBytes,
    });
  }
  for (const page of report.publicPages) {
    summary.push({
      part: '5. Web',
      figure: `${page.path} layout shift (load, start, scroll) ${page.layoutShift.toFixed(3)}`,
      target: `< ${BUDGETS.cumulativeLayoutShift}`,
      met: page.layoutShift < BUDGETS.cumulativeLayoutShift,
    });
  }
  for (const row of report.lighthouse) {
    summary.push({
      part: '5. Web',
      figure: `${row.path} Lighthouse performance ${row.performance.toFixed(2)}, accessibility ${row.accessibility.toFixed(2)}, CLS ${row.cumulativeLayoutShift.toFixed(3)}`,
      target: `≥ ${BUDGETS.performance}, ≥ ${BUDGETS.accessibility}, < ${BUDGETS.cumulativeLayoutShift}`,
      met:
        row.performance >= BUDGETS.performance &&
        row.accessibility >= BUDGETS.accessibility &&
        row.cumulativeLayoutShift < BUDGETS.cumulativeLayoutShift,
    });
  }
  return [
    '## 5. Web',
    '',
    'A production build served by the real server (compression, CSP), system Chromium. JavaScript as gzip bytes of the files the server sends.',
    '',
    'Public pages, on a 390 px phone viewport: the JavaScript loaded before any interaction, and after scrolling through (which starts the app).',
    '',
    table(
      [
        'Page',
        'JS before interaction',
        'Files',
        'JS after scrolling',
        'Files',
        'Layout shift',
        'Budget',
        'Met',
      ],
      report.publicPages.map((page) => {
        const jsMet = !LANDING_PAGES.has(page.path) || page.beforeBytes <= BUDGETS.landingJsGzipBytes;
        const met = jsMet && page.layoutShift < BUDGETS.cumulativeLayoutShift;
        return [
          `\`${page.path}\``,
          kb(page.beforeBytes),
          page.beforeFiles,
          kb(page.afterBytes),
          page.afterFiles,
          page.layoutShift.toFixed(3),
          `${LANDING_PAGES.has(page.path) ? `JS ≤ ${kb(BUDGETS.landingJsGzipBytes)}, ` : ''}shift < ${BUDGETS.cumulativeLayoutShift}`,
          mark(met),
        ];
      }),
    ),
    '',
    'Dashboard routes, signed in, each loaded directly (no budget set; for comparison between runs):',
    '',
    table(
      ['Route', 'JavaScript (gzip)', 'Files'],
      report.dashboardRoutes.map((route) => [`\`${route.path}\``, kb(route.bytes), route.files]),
    ),
    '',
    `Lighthouse 12, mobile preset (simulated slow 4G, 4× CPU slowdown), median of ${report.lighthouseRuns} runs; load average ${report.loadAverage.toFixed(1)} on ${report.cpus} CPUs when it ran (its simulated timings scale with the CPU time it observes).`,
    '',
    table(
      ['Page', 'Performance', 'Accessibility', 'CLS', 'LCP', 'TBT', 'Failed accessibility audits', 'Met'],
      report.lighthouse.map((row) => [
        `\`${row.path}\``,
        row.performance.toFixed(2),
        row.accessibility.toFixed(2),
        row.cumulativeLayoutShift.toFixed(3),
        `${(row.largestContentfulPaintMs / 1000).toFixed(2)} s`,
        `${row.totalBlockingTimeMs.toFixed(0)} ms`,
        row.failedAccessibilityAudits.join(', ') || '—',
        mark(
          row.performance >= BUDGETS.performance &&
            row.accessibility >= BUDGETS.accessibility &&
            row.cumulativeLayoutShift < BUDGETS.cumulativeLayoutShift,
        ),
      ]),
    ),
  ].join('\n');
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
