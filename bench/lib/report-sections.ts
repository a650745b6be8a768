import { OVERVIEW_RATIO_TARGET, type OverviewReport } from '../admin-overview';
import { DELIVERY_P95_TARGET_MS, type DeliveryLatencyReport } from '../delivery-latency';
import { LIST_RATIO_TARGET, type ListScaleReport } from '../list-scale';
import { PUSH_P95_TARGET_MS, type PushDeliveryReport } from '../push-delivery';
import { RESELLER_RATIO_TARGET, type ResellerApiReport } from '../reseller-api';
import { IDLE_RSS_TARGET_MB, type StartupReport } from '../startup';
import type { ThroughputReport } from '../throughput';
import type { UpstreamCostReport } from '../upstream-cost';
import { BUDGETS, LANDING_PAGES, type WebBudgetsReport } from '../web-budgets';
import type { BenchDatabaseKind } from './database';

const RSS_LIMIT_MB = 300;
/** Issue 35: the product's own CPU per poll, and per purchase (the upstream's and the database's aside). */
const POLL_CPU_TARGET_MICROS = 35;
const PURCHASE_CPU_TARGET_MICROS = 1000;

export const mark = (met: boolean) => (met ? '✓' : '✗');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${Number.isInteger(value) ? value : value.toFixed(1)} ms`;
const rate = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

export function table(header: string[], rows: Array<Array<string | number>>): string {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

export interface Summary {
  part: string;
  figure: string;
  target: string;
  met: boolean;
}

const databaseName = (kind: BenchDatabaseKind) => (kind === 'postgres' ? 'PostgreSQL' : 'PGlite');
const micros = (value: number | undefined) => (value === undefined ? '—' : `${value.toFixed(0)} µs`);

export function startupSection(report: StartupReport, summary: Summary[]): string {
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
    `The product started as \`npm start\` starts it (its Node flags, the compiled JavaScript) and, for comparison, from its TypeScript sources through tsx's loader, each on a fresh database (first start: the database created and migrated) and then again on that database (restart). Time from spawning Node to the first ready answer of \`/readyz\`; memory (RSS) after ${report.idleSeconds} s idle. The product's default log level; the built-in simulators in their worker thread of the product's process, as on a fresh clone.`,
    '',
    table(['Database', 'Server', 'First start', 'Idle RSS after it', 'Restart', 'Idle RSS after it'], rows),
  ].join('\n');
}

export function throughputSection(report: ThroughputReport, summary: Summary[]): string {
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
      `${micros(cpu.product)}${cpu.background === undefined ? '' : ` (at rest ${micros(cpu.background)})`}`,
      `${kb(row.bytesPerRequest)} (${kb(row.limitBytesPerRequest)})`,
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
  // The product's own CPU against issue 35's goals: what a ratio cannot show when the load generator,
  // the database and the product share two cores.
  const poll = report.rows.find((row) => row.name === 'GET /api/dashboard/number-status/{id}');
  if (poll?.cpuMicros.product !== undefined) {
    const own = poll.cpuMicros.product - (poll.cpuMicros.background ?? 0);
    summary.push({
      part: `1. Throughput, ${name}`,
      figure: `the product's CPU per number-status poll: ${micros(own)} (${micros(poll.cpuMicros.product)} with its work at rest)`,
      target: `≤ ${POLL_CPU_TARGET_MICROS} µs`,
      met: own <= POLL_CPU_TARGET_MICROS,
    });
  }
  const purchase = report.rows.find((row) => row.name.startsWith('POST /api/dashboard/buy-number'));
  if (purchase?.cpuMicros.product !== undefined) {
    const { product, postgres, upstream } = purchase.cpuMicros;
    summary.push({
      part: `1. Throughput, ${name}`,
      figure: `the product's CPU per purchase: ${(product / 1000).toFixed(1)} ms (PostgreSQL ${micros(postgres)}, the upstream ${micros(upstream)})`,
      target: `≤ ${PURCHASE_CPU_TARGET_MICROS / 1000} ms`,
      met: product <= PURCHASE_CPU_TARGET_MICROS,
    });
  }
  const limitRates = report.limits.map((limit) => limit.requestsPerSecond);
  return [
    `## 1. API throughput, ${name}`,
    '',
    `autocannon, 100 connections, ${process.env.THROUGHPUT_SECONDS ?? process.env.BENCH_SECONDS ?? 5} s after a 2 s warm-up. **The limit**: a bare \`node:http\` server answering a small JSON body, started the same way as the product, kept running and measured in turn with each endpoint, in ${report.rows[0]?.roundRatios.length ?? 0} rounds per endpoint with the order swapped every other round (this run: ${Math.min(...limitRates).toFixed(0)} to ${Math.max(...limitRates).toFixed(0)} req/s — the machine's speed drifts). Each round's ratio is the endpoint's requests per second over the limit's; the median round is shown (every round's ratio in brackets). **Bare Fastify** (a hello-world JSON route), measured the same way, read **${report.fastifyRatio.toFixed(2)}** of the limit (rounds ${report.fastifyRoundRatios.map((ratio) => ratio.toFixed(2)).join(', ')}; CPU per request ${micros(report.fastifyCpuMicros.product)} against the limit's ${micros(report.fastifyCpuMicros.limit)}); the column "of Fastify" divides by that.`,
    '',
    `The product on ${name}, its default log level (info, one access line per request), seeded with a user holding ${report.listRows.toLocaleString('en-US')} numbers and ${report.listRows.toLocaleString('en-US')} tickets and with 200 buyers. The reads run on the default install (the built-in simulators in a worker thread of the product's process, ADR 0037), as a browser asks (\`Accept-Encoding: gzip, deflate, br\`) and, where marked, without \`Accept-Encoding\`. The purchase (from the 200 buyers in turn) runs on the product pointed at the SMS upstream in a process of its own (the built-in simulator of a second product, on a database of its own), as a supplier is another host. **CPU per request** is each process's user and system time over the measured run divided by its requests: the limit's, the product's, PostgreSQL's (every server process of the machine) and the upstream's — where the time goes, independent of how busy the machine was. The product's includes its work at rest (its jobs and built-in simulators: ${report.idleCpuMsPerSecond.toFixed(1)} ms of CPU per second, measured idle before the reads), spread over each run's requests and shown in brackets: it weighs more the fewer requests the machine lets through. **The answer on the wire** (status line, headers and body, compressed where it was) beside the limit's: a ratio to the limit compares a catalog of kilobytes with a body of a few bytes, so for the catalog the product's CPU per request is the figure that says what it costs.`,
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
        'CPU/req, product (of it, at rest)',
        'Answer on the wire (the limit’s)',
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

export function upstreamSection(report: UpstreamCostReport, summary: Summary[]): string {
  const budget = report.budgetPerMinute;
  const rows = report.rows.map((row) => {
    // A run that counted no sync at all, or whose polls were refused, measured nothing: not a pass.
    const met =
      row.syncMaxPerMinute <= budget &&
      row.perMinute.sync > 0 &&
      row.perMinute.polls === 0 &&
      row.pollFailures === 0;
    summary.push({
      part: '2. Upstream cost',
      figure: `${row.size.toLocaleString('en-US')} orders + ${row.size.toLocaleString('en-US')} rents: ${rate(row.perMinute.sync)} sync requests/min (busiest minute ${row.syncMaxPerMinute}), ${rate(row.perMinute.polls)} from polls`,
      target: `≤ ${budget}/min and > 0, 0 from polls, every poll 200`,
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
      `sync ≤ ${budget}/min and > 0, polls 0, every poll 200`,
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

export function deliverySection(report: DeliveryLatencyReport, summary: Summary[]): string {
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

export function overviewSection(report: OverviewReport, summary: Summary[]): string {
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

export function listSection(report: ListScaleReport, summary: Summary[]): string {
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

export function resellerSection(report: ResellerApiReport, summary: Summary[]): string {
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

export function pushSection(report: PushDeliveryReport, summary: Summary[]): string {
  for (const row of report.channels) {
    summary.push({
      part: '9. Push delivery',
      figure: `${row.channel}, ${row.clients} waiting: SMS stored → client holds the code, p95 ${ms(row.p95Ms)}`,
      target: `< ${PUSH_P95_TARGET_MS} ms`,
      met: row.p95Ms < PUSH_P95_TARGET_MS,
    });
    summary.push({
      part: '9. Push delivery',
      figure: `${row.channel}: database queries and upstream requests per waiting client while nothing arrives: ${(row.queriesWhileQuiet / row.clients).toFixed(3)} and ${(row.upstreamWhileQuiet / row.clients).toFixed(3)}`,
      target: 'none',
      met: row.queriesWhileQuiet === 0 && row.upstreamWhileQuiet === 0,
    });
  }
  return [
    '## 9. Push delivery to API clients',
    '',
    `The product in the bench's process on ${report.database === 'postgres' ? 'PostgreSQL' : 'PGlite'}, no background job running; clients of the JSON API over real HTTP from the same process, each with its own account, key and order waiting for a code: first on the long-poll \`GET /api/v1/orders/{id}/code?wait=60\`, then on the event stream \`GET /api/v1/events\`. Queries are counted at the database driver and upstream requests at \`fetch\` over a quiet window with every client waiting. Then ${report.deliveries} SMS, one at a time, are injected at the simulator: the latency runs from the product announcing the stored code (after its transaction) to the client holding it (on the stream, every stream of the order's owner).`,
    '',
    table(
      [
        'Channel',
        'Waiting',
        'Quiet window',
        'Queries',
        'Upstream',
        'Held codes',
        'p50',
        'p95',
        'max',
        'Injected → held p95',
      ],
      report.channels.map((row) => [
        row.channel,
        row.clients,
        `${row.quietSeconds} s`,
        row.queriesWhileQuiet,
        row.upstreamWhileQuiet,
        row.latenciesMs.length,
        ms(row.p50Ms),
        ms(row.p95Ms),
        ms(row.maxMs),
        ms(row.fromInjectionP95Ms),
      ]),
    ),
  ].join('\n');
}

export function webSection(report: WebBudgetsReport, summary: Summary[]): string {
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
