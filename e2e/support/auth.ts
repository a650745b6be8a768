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

/** Ticks the ALTCHA checkbox and waits until the browser has solved the proof of work. */
export async function solveCaptcha(page: Page): Promise<void> {
  await page.locator('altcha-widget input[type="checkbox"]').click({ force: true });
  await expect(page.locator('altcha-widget .altcha')).toHaveAttribute('data-state', 'verified');
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
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL('**/dashboard');
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
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL('**/dashboard');
}
