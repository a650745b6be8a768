import { expect, type Page } from '@playwright/test';
import { signUpThroughApi } from '../support/auth';
import { buyService, chooseCountry } from '../support/dashboard';
import { test } from '../support/test';

/** Enters an amount on the Top Up page and clicks Deposit; returns the payment window it opens. */
async function deposit(page: Page, amount: string): Promise<Page> {
  await page.getByLabel('Amount (USD)').fill(amount);
  const popupOpened = page.context().waitForEvent('page');
  await page.getByRole('button', { name: `Deposit $${amount}` }).click();
  const popup = await popupOpened;
  await expect(popup).toHaveURL(/\/sandbox\/pay\/[\w-]+$/);
  return popup;
}

test('a user tops up $12.34 in the sandbox checkout popup, lands on the dashboard with it, and spends it', {
  tag: '@smoke',
}, async ({ page }) => {
  await signUpThroughApi(page);
  await page.getByRole('link', { name: 'Top Up', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'Top Up Balance' })).toBeVisible();
  await expect(page.getByText('No top-ups yet')).toBeVisible();

  const popup = await deposit(page, '12.34');
  expect(popup.viewportSize()).toEqual({ width: 500, height: 700 });
  await expect(page.getByText('Waiting for your payment of $12.34')).toBeVisible();
  await popup.getByRole('button', { name: 'Pay $12.34' }).click();

  await expect(page.getByText('Payment completed! Your balance has been updated.')).toBeVisible();
  await expect.poll(() => popup.isClosed()).toBe(true);
  await page.waitForURL('**/dashboard');
  const balanceCard = page.getByRole('region', { name: 'Account summary' });
  await expect(balanceCard).toContainText('$12.34');

  // The money is real to the product: it buys a number.
  await chooseCountry(page, 'United States');
  await buyService(page, 'Telegram');
  await expect(balanceCard).not.toContainText('$12.34');

  await page.goto('/dashboard/topup');
  await expect(page.getByRole('listitem', { name: 'Top-up of $12.34, Credited' })).toBeVisible();
});

test('a payment cancelled on the checkout page credits nothing and says so', async ({ page }) => {
  await signUpThroughApi(page, { at: '/dashboard/topup' });
  const popup = await deposit(page, '7.50');
  await popup.getByRole('button', { name: 'Cancel payment' }).click();
  await expect(popup.getByRole('heading', { name: 'Invoice closed' })).toBeVisible();

  await expect(page.getByText('Top-up canceled')).toBeVisible();
  await expect(page.getByRole('listitem', { name: 'Top-up of $7.50, Canceled' })).toBeVisible();
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('$0.00');
});
