// Captures pages of a running SimCode at phone and desktop widths, for looking at them:
//   npx tsx e2e/tools/screenshots.ts http://127.0.0.1:3000 / /login /dashboard ...
// Dashboard routes are captured signed in (a fresh account is registered through the UI first); console
// routes (/admin...) as an administrator, signed in through the UI with SCREENSHOTS_ADMIN=username:password
// (the end-to-end tests' administrator unless told).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';

const [baseUrl = 'http://127.0.0.1:3000', ...routes] = process.argv.slice(2);
const outDir = path.resolve(import.meta.dirname, '../.artifacts/screens');
const widths = [390, 1280];

async function registerThroughUi(page: Page) {
  const username = `shot_${Date.now().toString(36)}`;
  await page.goto(`${baseUrl}/register`);
  await page.getByLabel('Email').fill(`${username}@example.com`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill('password123');
  await page.getByLabel('Repeat password').fill('password123');
  await page.locator('altcha-widget input[type="checkbox"]').click({ force: true });
  await page.waitForFunction(() =>
    Boolean((document.querySelector('input[name="altcha"]') as HTMLInputElement | null)?.value),
  );
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard');
}

async function signInThroughUi(page: Page, username: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('altcha-widget input[type="checkbox"]').click({ force: true });
  await page.waitForFunction(() =>
    Boolean((document.querySelector('input[name="altcha"]') as HTMLInputElement | null)?.value),
  );
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}

mkdirSync(outDir, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const context = await browser.newContext();
const customerPage = await context.newPage();
let adminPage: Page | undefined;
customerPage.on(
  'console',
  (message) => message.type() === 'error' && console.error('[browser]', message.text()),
);
const isConsole = (route: string) =>
  route === '/admin' || route.startsWith('/admin/') || route.startsWith('/admin?');
// Public pages first: once signed in, /login and /register redirect to the dashboard.
const ordered = [...(routes.length > 0 ? routes : ['/'])].sort(
  (a, b) => Number(a.startsWith('/dashboard')) - Number(b.startsWith('/dashboard')),
);
let signedIn = false;
for (const route of ordered) {
  let page = customerPage;
  if (isConsole(route)) {
    if (!adminPage) {
      adminPage = await (await browser.newContext()).newPage();
      const [username = 'e2e_admin', password = 'admin-password-1'] = (process.env.SCREENSHOTS_ADMIN ?? '')
        .split(':')
        .filter(Boolean);
      await signInThroughUi(adminPage, username, password);
    }
    page = adminPage;
  } else if (route.startsWith('/dashboard') && !signedIn) {
    await registerThroughUi(page);
    signedIn = true;
  }
  for (const width of widths) {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    // Not 'networkidle': signed-in pages keep their event stream open for good.
    await page.goto(`${baseUrl}${route}`, { waitUntil: 'load' });
    // Then until the page's heading is there and the loading placeholders are gone (or 10 s have passed).
    await page
      .locator('h1')
      .first()
      .waitFor({ timeout: 10_000 })
      .catch(() => {});
    await page
      .locator('.animate-pulse')
      .first()
      .waitFor({ state: 'detached', timeout: 10_000 })
      .catch(() => {});
    const file = path.join(outDir, `${route.replaceAll('/', '_') || '_root'}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
}
await browser.close();
