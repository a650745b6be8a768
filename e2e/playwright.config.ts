import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium: Playwright's own browser download cannot run on these machines. */
function chromiumPath(): string {
  const candidate = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(candidate)) {
    throw new Error(
      `Chromium was not found at ${candidate}. Install it (Debian/Ubuntu: sudo apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  return candidate;
}

const port = Number(process.env.E2E_PORT ?? 3917);
/**
 * Each worker drives a server of its own (its own database, simulators and sandbox), so tests of two
 * workers never see each other's state; files run one at a time within a worker, as they did in one.
 */
const workers = Number(process.env.E2E_WORKERS ?? 2);
/** The server of the worker in parallel slot `index`: the first on E2E_PORT, the next ones 100 ports up. */
export function serverURL(index: number): string {
  return `http://127.0.0.1:${port + 100 * index}`;
}
export const e2eSimulatorKey = 'e2e-simulator-key';
/** The Cryptomus sandbox's key, which also opens its control API (fault injection). */
export const e2eSandboxKey = 'e2e-sandbox-key';
export const e2eAdmin = { username: 'e2e_admin', email: 'admin@e2e.test', password: 'admin-password-1' };
/**
 * The simulator's knobs as the server starts with them; tests that change one put it back to these.
 * The SMS arrives a moment after a purchase (short, so tests that wait for a code do not wait long). The
 * early-cancel window is long enough that the first click on Cancel falls inside it even on a busy machine;
 * tests that need a refund by cancelling close the window through the simulator's settings instead of
 * waiting it out.
 */
export const simulatorDefaults = {
  smsDelayMinMs: 500,
  smsDelayMaxMs: 1500,
  noSmsRate: 0,
  earlyCancelMs: 20_000,
} as const;
// Every run starts from an empty database, as a new user's machine would.
const dataRoot = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'simcode-e2e-'));

export default defineConfig({
  testDir: './tests',
  // Per port, so runs of parallel checkouts do not overwrite each other's traces.
  outputDir: `./.artifacts/results-${port}`,
  fullyParallel: false,
  workers,
  retries: 0,
  // A cap, not an assertion: a test signs in up to three accounts (proof of work in the browser, argon2 on
  // the server) and loads a dozen pages, which on a 2-core machine under load can take well over a minute.
  timeout: 180_000,
  // Also a cap: on a busy 2-core machine a page and its first queries can take more than 10 s to arrive.
  expect: { timeout: 30_000 },
  reporter: process.env.CI
    ? [['list'], ['html', { open: 'never', outputFolder: `./.artifacts/report-${port}` }]]
    : 'list',
  use: {
    baseURL: serverURL(0),
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], channel: undefined } }],
  webServer: Array.from({ length: workers }, (_, index) => ({
    // The product started exactly as `npm start` starts it, on embedded defaults and a fresh data folder.
    // The administrator is created with the product's own command before the server holds the database.
    command: `npm run admin -- create --username ${e2eAdmin.username} --email ${e2eAdmin.email} --password ${e2eAdmin.password} && npm start`,
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${serverURL(index)}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port + 100 * index),
      HOST: '127.0.0.1',
      PUBLIC_URL: serverURL(index),
      DATA_DIR: path.join(dataRoot, String(index)),
      LOG_LEVEL: 'warn',
      ALTCHA_COST: '50',
      ALTCHA_MAX_COUNTER: '40',
      RATE_LIMIT_AUTH_PER_MINUTE: '500',
      SIMULATOR_SMS_DELAY_MIN_MS: String(simulatorDefaults.smsDelayMinMs),
      SIMULATOR_SMS_DELAY_MAX_MS: String(simulatorDefaults.smsDelayMaxMs),
      SIMULATOR_NO_SMS_RATE: String(simulatorDefaults.noSmsRate),
      SIMULATOR_SEED: '7',
      SIMULATOR_EARLY_CANCEL_MS: String(simulatorDefaults.earlyCancelMs),
      SMS_PROVIDER_KEY: e2eSimulatorKey,
      CRYPTOMUS_API_KEY: e2eSandboxKey,
      ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
    },
  })),
});
