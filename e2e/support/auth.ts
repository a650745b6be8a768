import { expect, type Page } from '@playwright/test';

export interface Credentials {
  username: string;
  password: string;
  email: string;
}

let sequence = 0;
export function newCredentials(prefix = 'user'): Credentials {
  sequence += 1;
  const username = `${prefix}_${Date.now().toString(36)}${sequence}`.slice(0, 19);
  return { username, password: 'password-123', email: `${username}@e2e.test` };
}

/**
 * Submits a sign-in or registration form and waits for its outcome: the dashboard, or the form's error,
 * which fails the test at once with the product's own words instead of a timeout. No wait here is timed:
 * on a busy machine the proof of work, the password hash and the page take what they take.
 */
async function submitToDashboard(page: Page, buttonName: string): Promise<void> {
  await page.getByRole('button', { name: buttonName }).click();
  const formError = page.locator('form [role="alert"]').first();
  const failure = await Promise.race([
    page.waitForURL('**/dashboard').then(() => null),
    formError.waitFor({ state: 'visible', timeout: 0 }).then(() => formError.textContent()),
  ]);
  if (failure !== null) throw new Error(`${buttonName} did not reach the dashboard: ${failure}`);
}

/** Ticks the ALTCHA checkbox and waits until the browser has solved the proof of work. */
export async function solveCaptcha(page: Page): Promise<void> {
  await page.locator('altcha-widget input[type="checkbox"]').click({ force: true });
  // The proof of work runs in the browser: on a busy machine it takes longer than an assertion's default.
  await expect(page.locator('altcha-widget .altcha')).toHaveAttribute('data-state', 'verified', {
    timeout: 0,
  });
}

export async function registerThroughUi(
  page: Page,
  credentials: Credentials = newCredentials(),
): Promise<Credentials> {
  await page.goto('/register');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByLabel('Repeat password').fill(credentials.password);
  await solveCaptcha(page);
  await submitToDashboard(page, 'Create Account');
  return credentials;
}

export async function loginThroughUi(
  page: Page,
  credentials: Pick<Credentials, 'username' | 'password'>,
): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await solveCaptcha(page);
  await submitToDashboard(page, 'Sign In');
}
