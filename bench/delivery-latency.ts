// 3. Code delivery latency: from the simulator delivering an SMS to its code being visible on the My
// Numbers page in Chromium, over at least 20 orders (p50, p95, max).
//
// The built product (a production build of the web app, served by `node scripts/start.mjs`) on PostgreSQL
// (DATABASE_URL; PGlite with a warning otherwise). The simulator's own SMS are pushed an hour away, so only
// the ones this script injects arrive. For each order in turn: the page gets a MutationObserver that stamps
// `performance.timeOrigin + performance.now()` when that order's (unique) code appears; the bench notes
// `Date.now()` and injects the SMS through the simulator's control API (which pushes it through the
// webhook at once, as a provider would); the latency is the page's stamp minus the bench's, both read from
// the same machine's clock. Nothing waits a fixed time: every wait is for an observed event.
//
//   npx tsx bench/delivery-latency.ts                 (DELIVERY_ORDERS=24 by default)

import { type Browser, chromium, type Page } from 'playwright-core';
import { createBenchDatabase } from './lib/database';
import { type RunningProcess, startProduct } from './lib/processes';
import { BENCH_JWT_SECRET, seedUser } from './lib/seed';
import { buildWebApp, CHROMIUM_FLAGS, chromiumPath } from './lib/web';

const ORDERS = Math.max(20, Number(process.env.DELIVERY_ORDERS ?? 24));
const SIMULATOR_KEY = 'bench-simulator-key';
/** How long one code may take before the run is declared broken (a failure guard, not a wait). */
const GIVE_UP_MS = 60_000;

/** The simulator's activation ids of our numbers, read from its list of active activations. */
async function simulatorIdsOf(product: RunningProcess, phoneNumbers: string[]): Promise<string[]> {
  const url = new URL(`${product.url}/simulator/stubs/handler_api.php`);
  url.searchParams.set('api_key', SIMULATOR_KEY);
  url.searchParams.set('action', 'getActiveActivations');
  url.searchParams.set('limit', '100');
  const answer = (await (await fetch(url)).json()) as {
    activeActivations?: Array<{ activationId: string | number; phoneNumber: string }>;
  };
  const byPhone = new Map(
    (answer.activeActivations ?? []).map((item) => [
      item.phoneNumber.replace(/\D/g, ''),
      String(item.activationId),
    ]),
  );
  return phoneNumbers.map((phone) => {
    const id = byPhone.get(phone.replace(/\D/g, ''));
    if (!id) throw new Error(`the simulator does not list the number ${phone}`);
    return id;
  });
}
export const DELIVERY_P95_TARGET_MS = 3000;

export interface DeliveryLatencyReport {
  database: 'postgres' | 'pglite';
  orders: number;
  latenciesMs: number[];
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The page's clock against the bench's (both the machine's), before and after: the larger, ± uncertainty. */
  clockOffsetMs: number;
  clockUncertaintyMs: number;
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.max(0, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN;
}

async function api(
  product: RunningProcess,
  path: string,
  authorization: string,
  init: { method?: string; body?: unknown } = {},
) {
  const response = await fetch(`${product.url}${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization, 'content-type': 'application/json' },
    ...(init.body ? { body: JSON.stringify(init.body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Waits for the catalog, which the product loads from the simulator right after it starts. */
async function busiestService(product: RunningProcess, authorization: string): Promise<string> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const answer = await api(product, '/api/dashboard/services?countryID=US&operator=any', authorization);
    const services = (answer.body.services ?? []) as Array<{ id: string; stock: number }>;
    if (answer.status === 200 && services.length > 0)
      return services.reduce((best, entry) => (entry.stock > best.stock ? entry : best)).id;
    // Polling the server's readiness for the catalog: there is no event to wait for from outside.
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the catalog did not load within a minute');
}

/**
 * The page's clock (performance.timeOrigin + now) minus the bench's (Date.now()), both the machine's: of
 * several round trips, the shortest, whose midpoint is known best (± half of it).
 */
async function clockOffset(page: Page): Promise<{ offsetMs: number; uncertaintyMs: number }> {
  let best = { offsetMs: 0, uncertaintyMs: Number.POSITIVE_INFINITY };
  for (let sample = 0; sample < 20; sample += 1) {
    const askedAt = Date.now();
    const pageNow = await page.evaluate('performance.timeOrigin + performance.now()');
    const answeredAt = Date.now();
    const uncertaintyMs = (answeredAt - askedAt) / 2;
    if (uncertaintyMs < best.uncertaintyMs)
      best = { offsetMs: Number(pageNow) - (askedAt + answeredAt) / 2, uncertaintyMs };
  }
  return best;
}

async function measureInBrowser(
  browser: Browser,
  product: RunningProcess,
  token: string,
  numberIds: string[],
): Promise<{ latenciesMs: number[]; clockOffsetMs: number; clockUncertaintyMs: number }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addInitScript((value: string) => window.localStorage.setItem('token', value), token);
  const page = await context.newPage();
  // The page learns of an SMS through its event stream: measure with it connected, as a user's page is.
  const streamOpen = page.waitForResponse((response) => response.url().endsWith('/api/dashboard/events'));
  await page.goto(`${product.url}/dashboard/numbers`);
  await streamOpen;
  await page.waitForFunction(
    (count) => document.querySelectorAll('[data-testid="number-status"]').length >= count,
    numberIds.length,
  );

  const before = await clockOffset(page);
  const latenciesMs: number[] = [];
  for (const [index, numberId] of numberIds.entries()) {
    const code = String(700_000 + index);
    // Plain text for the page (tsx's name helpers must not leak into the browser's copy of the function).
    await page.evaluate(`
      window.__codeSeenAt = new Promise((resolve, reject) => {
        const expected = ${JSON.stringify(code)};
        const shown = () => [...document.querySelectorAll('[data-testid="number-code"]')]
          .some((element) => element.textContent === expected);
        const observer = new MutationObserver(() => {
          if (!shown()) return;
          const at = performance.timeOrigin + performance.now();
          observer.disconnect();
          resolve(at);
        });
        observer.observe(document.body, { subtree: true, childList: true, characterData: true });
        setTimeout(() => {
          observer.disconnect();
          reject(new Error('code ' + expected + ' was not shown within ${GIVE_UP_MS} ms'));
        }, ${GIVE_UP_MS});
      });
      undefined;
    `);
    const injectedAt = Date.now();
    const injected = await fetch(`${product.url}/simulator/control/sms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-simulator-key': SIMULATOR_KEY },
      body: JSON.stringify({ activationId: numberId, code, text: `Your verification code is ${code}` }),
    });
    if (!injected.ok) throw new Error(`the simulator refused the SMS: ${await injected.text()}`);
    const seenAt = await page.evaluate(
      () => (window as unknown as { __codeSeenAt: Promise<number> }).__codeSeenAt,
    );
    latenciesMs.push(seenAt - injectedAt);
  }
  const after = await clockOffset(page);
  await context.close();
  const clockOffsetMs = Math.max(Math.abs(before.offsetMs), Math.abs(after.offsetMs));
  return {
    latenciesMs,
    clockOffsetMs,
    clockUncertaintyMs: Math.max(before.uncertaintyMs, after.uncertaintyMs),
  };
}

export async function runDeliveryLatency(options: { distDir?: string } = {}): Promise<DeliveryLatencyReport> {
  console.log('\n## 3. Code delivery latency');
  const build = options.distDir ? { distDir: options.distDir, cleanUp: () => {} } : buildWebApp();
  const database = await createBenchDatabase('delivery');
  let product: RunningProcess | undefined;
  let browser: Browser | undefined;
  try {
    const seeding = await database.open();
    const user = await seedUser(seeding.db, 'bench_delivery', { balanceCents: 10_000_000 });
    await seeding.close();

    product = await startProduct({
      dataDir: database.dataDir,
      env: {
        ...database.env,
        WEB_DIST_DIR: build.distDir,
        JWT_SECRET: BENCH_JWT_SECRET,
        SMS_PROVIDER_KEY: SIMULATOR_KEY,
        // The SMS it injects go to the one simulator it knows.
        SMS_PROVIDERS: 'sim-a',
        // Only the SMS this script injects arrive during the run.
        SIMULATOR_SMS_DELAY_MIN_MS: '3600000',
        SIMULATOR_SMS_DELAY_MAX_MS: '3600000',
        SIMULATOR_NO_SMS_RATE: '0',
        RATE_LIMIT_PURCHASES_PER_MINUTE: '1000',
      },
    });
    const service = await busiestService(product, user.authorization);
    const phoneNumbers: string[] = [];
    for (let index = 0; index < ORDERS; index += 1) {
      const bought = await api(product, '/api/dashboard/buy-number', user.authorization, {
        method: 'POST',
        body: { countryID: 'US', operator: 'any', service },
      });
      const number = bought.body.number as { number: string | null } | undefined;
      if (bought.status !== 200 || !number?.number)
        throw new Error(`could not buy a number: ${JSON.stringify(bought.body)}`);
      phoneNumbers.push(number.number);
    }
    // Users see our ids only; the simulator is told the SMS by its own, found by the phone number.
    const numberIds = await simulatorIdsOf(product, phoneNumbers);

    browser = await chromium.launch({ executablePath: chromiumPath, args: CHROMIUM_FLAGS });
    const { latenciesMs, clockOffsetMs, clockUncertaintyMs } = await measureInBrowser(
      browser,
      product,
      user.authorization.slice('Bearer '.length),
      numberIds,
    );
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    const report: DeliveryLatencyReport = {
      database: database.kind,
      orders: latenciesMs.length,
      latenciesMs,
      p50Ms: percentile(sorted, 0.5),
      p95Ms: percentile(sorted, 0.95),
      maxMs: sorted.at(-1) ?? Number.NaN,
      clockOffsetMs,
      clockUncertaintyMs,
    };
    console.log(
      `${report.orders} orders, SMS injected at the simulator → code shown on My Numbers: p50 ${report.p50Ms.toFixed(0)} ms, p95 ${report.p95Ms.toFixed(0)} ms (target < ${DELIVERY_P95_TARGET_MS} ms), max ${report.maxMs.toFixed(0)} ms; page and bench clocks ${report.clockOffsetMs.toFixed(1)} ± ${report.clockUncertaintyMs.toFixed(1)} ms apart`,
    );
    return report;
  } finally {
    await browser?.close().catch(() => {});
    await product?.stop();
    await database.drop();
    build.cleanUp();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runDeliveryLatency();
