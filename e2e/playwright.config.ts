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
export const e2eSimulatorKey = 'e2e-simulator-key';
export const e2eAdmin = { username: 'e2e_admin', email: 'admin@e2e.test', password: 'admin-password-1' };
export const baseURL = `http://127.0.0.1:${port}`;
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
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'simcode-e2e-'));

export default defineConfig({
  testDir: './tests',
  // Per port, so runs of parallel checkouts do not overwrite each other's traces.
  outputDir: `./.artifacts/results-${port}`,
  fullyParallel: false,
  workers: 1,
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
    baseURL,
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
  webServer: {
    // The product started exactly as `npm start` starts it, on embedded defaults and a fresh data folder.
    // The administrator is created with the product's own command before the server holds the database.
    command: `npm run admin -- create --username ${e2eAdmin.username} --email ${e2eAdmin.email} --password ${e2eAdmin.password} && npm start`,
    cwd: path.resolve(import.meta.dirname, '..'),
    url: `${baseURL}/readyz`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseURL,
      DATA_DIR: dataDir,
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
      ...(process.env.WEB_DIST_DIR ? { WEB_DIST_DIR: process.env.WEB_DIST_DIR } : {}),
    },
  },
});
