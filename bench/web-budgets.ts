// The public site's performance budgets, measured on a production build served by the real server:
//   npm run web-budgets -w @simcode/bench          (builds the web app into a temporary folder first)
//   WEB_DIST_DIR=/path/to/build npm run web-budgets -w @simcode/bench   (measures an existing build)
// Prints, per public page: the JavaScript loaded before any interaction and after the first one (gzip, as
// the server's .gz files), Lighthouse's mobile performance and accessibility scores, and the layout shift
// of loading, starting the app and scrolling through; per dashboard route, the JavaScript it loads signed
// in. Exits with 1 when a budget is missed. `runWebBudgets()` returns the figures (the `npm run bench` runner).
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import { type LaunchedChrome, launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { createBenchDatabase } from './lib/database';
import { BENCH_JWT_SECRET, seedUser } from './lib/seed';
import { buildWebApp, gzipBytes } from './lib/web';

export const BUDGETS = {
  landingJsGzipBytes: 90 * 1024,
  performance: 0.95,
  accessibility: 0.95,
  cumulativeLayoutShift: 0.05,
};
/** The public pages, the landing page in each language too (its budget holds in every language). */
const PAGES = ['/', '/faq', '/login', '/register', '/ru/', '/zh/'];
export const LANDING_PAGES = new Set(['/', '/ru/', '/zh/']);
/** Lighthouse runs per page; the median run is reported, as Lighthouse's own guidance recommends. */
const LIGHTHOUSE_RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** Lighthouse pages (the spec of the budget); /register is measured for its JavaScript only. */
const LIGHTHOUSE_PAGES = ['/', '/faq', '/login'];
/** The dashboard's routes, loaded signed in: measured for their JavaScript (no budget in the spec). */
const DASHBOARD_ROUTES = [
  '/dashboard',
  '/dashboard/numbers',
  '/dashboard/longterm',
  '/dashboard/longterm/numbers',
  '/dashboard/renewable',
  '/dashboard/topup',
  '/dashboard/tickets',
];
const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const root = path.resolve(import.meta.dirname, '..');

function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * The server on the build, with a database of its own (`env`: a fresh PostgreSQL database or PGlite in
 * `dataDir`) and the bench's token key, so a seeded user's token opens the dashboard.
 */
async function startServer(
  distDir: string,
  port: number,
  dataDir: string,
  env: Record<string, string | undefined>,
): Promise<ChildProcess> {
  const server = spawn('node', ['scripts/start.mjs'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      WEB_DIST_DIR: distDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      JWT_SECRET: BENCH_JWT_SECRET,
      ...env,
    },
  });
  for (let attempt = 0; attempt < 120; attempt += 1) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/readyz`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stopServer(server);
  throw new Error('the server did not become ready');
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
}

interface JsFigures {
  beforeInteraction: string[];
  afterInteraction: string[];
  /** Layout shift while loading, starting the app on a first interaction, and scrolling to the end. */
  layoutShift: number;
}

/** Loads a page as a phone would, then scrolls through it to the end, recording the scripts loaded. */
async function measureJavaScript(browser: Browser, url: string): Promise<JsFigures> {
  const page = await browser.newPage();
  await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
  const scripts: string[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response.url());
  });
  await page.evaluateOnNewDocument(() => {
    const shifts = { value: 0 };
    Object.assign(window, { __layoutShift: shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) shifts.value += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(url, { waitUntil: 'networkidle0' });
  const beforeInteraction = [...scripts];
  // Scrolling is the first interaction: the content pages start their app on it.
  for (let step = 0; step < 40; step += 1) {
    const atEnd = await page.evaluate(() => {
      window.scrollBy(0, window.innerHeight * 0.8);
      return window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
    });
    await new Promise((resolve) => setTimeout(resolve, 150));
    if (atEnd) break;
  }
  await page.waitForSelector('html[data-interactive]', { timeout: 30_000 });
  await page.waitForNetworkIdle({ idleTime: 500 });
  const layoutShift = await page.evaluate(
    () => (window as unknown as { __layoutShift: { value: number } }).__layoutShift.value,
  );
  await page.close();
  return { beforeInteraction, afterInteraction: [...scripts], layoutShift };
}

/**
 * Opens a dashboard route signed in (the token in localStorage before the app starts, in a private
 * context of its own so the public pages and Lighthouse stay signed out) on the same phone viewport,
 * and records the scripts it loads until the network is quiet (the open event stream aside).
 */
async function measureDashboardJavaScript(browser: Browser, url: string, token: string): Promise<string[]> {
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('.js')) scripts.push(response.url());
    });
    await page.evaluateOnNewDocument((value: string) => {
      window.localStorage.setItem('token', value);
    }, token);
    // networkidle2, then quiet with one request open: the dashboard keeps its event stream open for good.
    await page.goto(url, { waitUntil: 'networkidle2' });
    await page.waitForSelector('html[data-interactive]', { timeout: 30_000 });
    await page.waitForNetworkIdle({ idleTime: 500, concurrency: 1 });
    const landedOn = new URL(page.url()).pathname;
    if (landedOn !== new URL(url).pathname) throw new Error(`${url} sent the signed-in user to ${landedOn}`);
    return scripts;
  } finally {
    await context.close();
  }
}

interface LighthouseFigures {
  performance: number;
  accessibility: number;
  cumulativeLayoutShift: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  failedAccessibilityAudits: string[];
}

async function runLighthouse(chrome: LaunchedChrome, url: string): Promise<LighthouseFigures> {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  const numeric = (id: string) => audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: categories.performance?.score ?? 0,
    accessibility: categories.accessibility?.score ?? 0,
    cumulativeLayoutShift: numeric('cumulative-layout-shift'),
    largestContentfulPaintMs: numeric('largest-contentful-paint'),
    totalBlockingTimeMs: numeric('total-blocking-time'),
    failedAccessibilityAudits: (categories.accessibility?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && audits[ref.id]?.score === 0)
      .map((ref) => ref.id),
  };
}

/** The run with the median performance score. */
async function medianLighthouse(chrome: LaunchedChrome, url: string): Promise<LighthouseFigures> {
  const runs: LighthouseFigures[] = [];
  for (let run = 0; run < LIGHTHOUSE_RUNS; run += 1) runs.push(await runLighthouse(chrome, url));
  runs.sort((a, b) => a.performance - b.performance);
  return runs[Math.floor(runs.length / 2)]!;
}

export interface PublicPageFigures {
  path: string;
  beforeBytes: number;
  beforeFiles: number;
  afterBytes: number;
  afterFiles: number;
  layoutShift: number;
}

export interface DashboardRouteFigures {
  path: string;
  bytes: number;
  files: number;
}

export interface LighthouseRow extends LighthouseFigures {
  path: string;
}

export interface WebBudgetsReport {
  database: 'postgres' | 'pglite';
  publicPages: PublicPageFigures[];
  dashboardRoutes: DashboardRouteFigures[];
  lighthouse: LighthouseRow[];
  lighthouseRuns: number;
  loadAverage: number;
  cpus: number;
  /** The budgets missed, in words; empty when all are met. */
  failures: string[];
}

/**
 * Measures a build (`distDir`, e.g. one the runner made for several parts; else WEB_DIST_DIR or a fresh
 * build in a temporary folder), prints the figures and returns them.
 */
export async function runWebBudgets(options: { distDir?: string } = {}): Promise<WebBudgetsReport> {
  console.log('\n## 5. Web budgets');
  const { distDir, cleanUp } = options.distDir
    ? { distDir: options.distDir, cleanUp: () => {} }
    : buildWebApp();
  const database = await createBenchDatabase('web');
  let server: ChildProcess | undefined;
  let chrome: LaunchedChrome | undefined;
  try {
    // A user for the dashboard routes, seeded before the server opens the database (PGlite allows one).
    const seeding = await database.open();
    const user = await seedUser(seeding.db, 'bench_web_user', { balanceCents: 100_000 });
    await seeding.close();
    const token = user.authorization.slice('Bearer '.length);

    const port = await freePort();
    server = await startServer(distDir, port, database.dataDir, database.env);
    chrome = await launch({
      chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      chromeFlags: CHROME_FLAGS,
    });
    const report: WebBudgetsReport = {
      database: database.kind,
      publicPages: [],
      dashboardRoutes: [],
      lighthouse: [],
      lighthouseRuns: LIGHTHOUSE_RUNS,
      loadAverage: 0,
      cpus: availableParallelism(),
      failures: [],
    };
    const { failures } = report;
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const base = `http://127.0.0.1:${port}`;
    const total = (urls: string[]) => urls.reduce((sum, url) => sum + gzipBytes(distDir, url), 0);

    console.log(
      '\nJavaScript per public page (gzip), on a phone: before any interaction → after scrolling through',
    );
    for (const pathname of PAGES) {
      const figures = await measureJavaScript(browser, `${base}${pathname}`);
      const before = total(figures.beforeInteraction);
      const after = total(figures.afterInteraction);
      report.publicPages.push({
        path: pathname,
        beforeBytes: before,
        beforeFiles: figures.beforeInteraction.length,
        afterBytes: after,
        afterFiles: figures.afterInteraction.length,
        layoutShift: figures.layoutShift,
      });
      console.log(
        `  ${pathname.padEnd(10)} ${kb(before).padStart(9)} in ${String(figures.beforeInteraction.length).padStart(2)} files → ${kb(after).padStart(9)} in ${String(figures.afterInteraction.length).padStart(2)} files; layout shift while starting and scrolling ${figures.layoutShift.toFixed(3)}`,
      );
      if (LANDING_PAGES.has(pathname) && before > BUDGETS.landingJsGzipBytes)
        failures.push(`${pathname} landing JavaScript ${kb(before)}`);
      if (figures.layoutShift >= BUDGETS.cumulativeLayoutShift)
        failures.push(`${pathname} layout shift ${figures.layoutShift}`);
    }

    console.log('\nJavaScript per dashboard route (gzip), signed in, loaded directly on a phone');
    for (const pathname of DASHBOARD_ROUTES) {
      const scripts = await measureDashboardJavaScript(browser, `${base}${pathname}`, token);
      const bytes = total(scripts);
      report.dashboardRoutes.push({ path: pathname, bytes, files: scripts.length });
      console.log(
        `  ${pathname.padEnd(28)} ${kb(bytes).padStart(9)} in ${String(scripts.length).padStart(2)} files`,
      );
    }
    await browser.disconnect();

    // Lighthouse scales the CPU time it observes: a machine busy with other work reads slower.
    const [load] = loadavg();
    report.loadAverage = load ?? 0;
    console.log(
      `\nLighthouse, mobile (simulated slow 4G, 4x CPU slowdown), median of ${LIGHTHOUSE_RUNS} runs; load average ${load?.toFixed(1)} on ${availableParallelism()} CPUs`,
    );
    console.log('  page       performance  accessibility  CLS     LCP      TBT');
    for (const pathname of LIGHTHOUSE_PAGES) {
      const figures = await medianLighthouse(chrome, `${base}${pathname}`);
      report.lighthouse.push({ path: pathname, ...figures });
      console.log(
        `  ${pathname.padEnd(10)} ${figures.performance.toFixed(2).padStart(11)}  ${figures.accessibility.toFixed(2).padStart(13)}  ${figures.cumulativeLayoutShift.toFixed(3)}  ${(figures.largestContentfulPaintMs / 1000).toFixed(2).padStart(5)} s  ${figures.totalBlockingTimeMs.toFixed(0).padStart(4)} ms`,
      );
      if (figures.failedAccessibilityAudits.length > 0) {
        console.log(
          `             failed accessibility audits: ${figures.failedAccessibilityAudits.join(', ')}`,
        );
      }
      if (figures.performance < BUDGETS.performance)
        failures.push(`${pathname} performance ${figures.performance}`);
      if (figures.accessibility < BUDGETS.accessibility)
        failures.push(`${pathname} accessibility ${figures.accessibility}`);
      if (figures.cumulativeLayoutShift >= BUDGETS.cumulativeLayoutShift) {
        failures.push(`${pathname} CLS ${figures.cumulativeLayoutShift}`);
      }
    }

    console.log(
      `\nBudgets: landing JavaScript before interaction ≤ ${kb(BUDGETS.landingJsGzipBytes)}, performance and accessibility ≥ ${BUDGETS.performance}, CLS < ${BUDGETS.cumulativeLayoutShift}`,
    );
    console.log(failures.length > 0 ? `Missed: ${failures.join('; ')}` : 'All met.');
    return report;
  } finally {
    chrome?.kill();
    if (server) await stopServer(server);
    await database.drop();
    cleanUp();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await runWebBudgets();
  if (report.failures.length > 0) process.exitCode = 1;
}
