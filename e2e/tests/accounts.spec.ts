import { expect } from '@playwright/test';
import {
  loginThroughUi,
  newCredentials,
  registerThroughUi,
  signUpThroughApi,
  solveCaptcha,
} from '../support/auth';
import { test } from '../support/test';

test('a visitor registers, lands on the dashboard, reloads, logs out and signs in again', async ({
  page,
}) => {
  const credentials = await registerThroughUi(page);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();

  await page.reload();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();

  const token = await page.evaluate(() => localStorage.getItem('token'));
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  // Logout ended the token on the server too: a copy of it no longer opens the account.
  const withOldToken = await page.request.get('/api/dashboard/summary', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(withOldToken.status()).toBe(401);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get Started' }),
  ).toBeVisible();

  await loginThroughUi(page, credentials);
  await expect(page.getByRole('link', { name: 'My Numbers' })).toBeVisible();
});

test('the forms show the spec texts before sending and the server text after', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please fill in all fields.');
  await page.getByLabel('Username').fill('ab');
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Username must be at least 3 characters long.');
  await page.getByLabel('Username').fill('nobody_here');
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please verify that you are not a robot.');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('alert')).toHaveText('Invalid username or password.');

  await page.goto('/register');
  const credentials = newCredentials();
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Username').fill('bad name');
  await page.getByLabel('Password', { exact: true }).fill('password-123');
  await page.getByLabel('Repeat password').fill('password-124');
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Username can only contain letters, numbers and underscores.',
  );
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');
});

test('dashboard routes send visitors to /login and the auth pages send users to /dashboard', async ({
  page,
}) => {
  for (const path of [
    '/dashboard',
    '/dashboard/numbers',
    '/dashboard/topup',
    '/dashboard/longterm/numbers',
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/login$/);
  }
  await page.goto('/dashboard/tickets');
  await expect(page.getByText('You must be logged in to contact support')).toBeVisible();

  await signUpThroughApi(page);
  for (const path of ['/login', '/register']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/dashboard$/);
  }
});

test('30 minutes without activity clears the session and opens /login', async ({ page }) => {
  await page.clock.install();
  await signUpThroughApi(page);
  await page.mouse.move(10, 10);
  await page.clock.fastForward('29:00');
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.clock.fastForward('02:00');
  await page.waitForURL('**/login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('an unknown route shows the 404 page with a link home', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Oops! Page not found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go back home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the navigation menu toggles, with the long-term entries indented', async ({ page }) => {
    await signUpThroughApi(page);
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await expect(menuButton).toBeVisible();
    await expect(page.locator('#mobile-menu')).toBeHidden();
    await menuButton.click();
    const menu = page.locator('#mobile-menu');
    await expect(menu.getByRole('link', { name: 'My Numbers' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Rent Long-term Number' })).toBeHidden();
    await menu.getByRole('button', { name: 'Long-term Numbers' }).click();
    const rent = menu.getByRole('link', { name: 'Rent Long-term Number' });
    await expect(rent).toBeVisible();
    const indent = await rent.evaluate((element) => element.getBoundingClientRect().left);
    const topLevel = await menu
      .getByRole('link', { name: 'My Numbers' })
      .evaluate((element) => element.getBoundingClientRect().left);
    expect(indent).toBeGreaterThan(topLevel);
    await rent.click();
    await expect(page).toHaveURL(/\/dashboard\/longterm$/);
    await expect(menu).toBeHidden();
  });
});
