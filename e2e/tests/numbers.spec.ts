import { expect, test } from '@playwright/test';
import { simulatorDefaults } from '../playwright.config';
import { signUpWithBalance } from '../support/admin';
import { signUpThroughApi } from '../support/auth';
import { buyService, chooseCountry } from '../support/dashboard';
import { simulatorSettings } from '../support/simulator';

test('a user with a balance buys a number, sees the code arrive, and cancels another for a refund', {
  tag: '@smoke',
}, async ({ page, request }) => {
  await signUpWithBalance(page, 20);
  const balanceCard = page.getByRole('region', { name: 'Account summary' });
  await expect(balanceCard).toContainText('$20.00');

  // Selecting a country picks its first operator and shows its services.
  await chooseCountry(page, 'United States');
  await expect(page.getByRole('combobox', { name: 'Operator' })).toHaveText('Any operator');
  await buyService(page, 'Telegram');
  await expect(balanceCard).not.toContainText('$20.00');

  await page.getByRole('link', { name: 'My Numbers' }).first().click();
  const telegram = page.locator('[aria-label="Telegram number in United States"]');
  await expect(telegram).toContainText(/\+1 \d{3} \d{3} \d{4}/);
  // The simulator delivers the SMS a few seconds later; it shows without reloading.
  await expect(telegram.getByTestId('number-code')).toHaveText(/^[\d-]{4,7}$/, { timeout: 20_000 });
  // With a code there is nothing to cancel: the button says why instead of failing.
  await expect(telegram.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expect(telegram.getByRole('button', { name: 'Cancel' })).toHaveAccessibleDescription(
    'A code has already arrived for this number, so it can no longer be canceled.',
  );

  // A second number, cancelled before any SMS: the price comes back. The provider's early-cancel window is
  // made long for the refusal, then closed, instead of waiting it out.
  await simulatorSettings(request, { noSmsRate: 1, earlyCancelMs: 600_000 });
  await page.goto('/dashboard');
  await chooseCountry(page, 'United Kingdom');
  const balanceBefore = await balanceCard.getByText(/^\$\d+\.\d\d$/).textContent();
  await buyService(page, 'WhatsApp');
  await page.goto('/dashboard/numbers');
  const whatsapp = page.locator('[aria-label="WhatsApp number in United Kingdom"]');
  await expect(whatsapp).toBeVisible();
  // Too early first, then accepted once the window is over.
  await whatsapp.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByText('Cancel is possible 2 minutes after purchase.')).toBeVisible();
  await simulatorSettings(request, { earlyCancelMs: 0 });
  await expect(async () => {
    await whatsapp.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByText('Number canceled successfully.')).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 90_000 });
  await expect(whatsapp.getByTestId('number-status')).toHaveText('Order canceled');
  await expect(whatsapp.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await page.goto('/dashboard');
  await expect(balanceCard).toContainText(balanceBefore!);
  await simulatorSettings(request, {
    noSmsRate: simulatorDefaults.noSmsRate,
    earlyCancelMs: simulatorDefaults.earlyCancelMs,
  });
});

test('the dashboard refuses a purchase the balance cannot cover without calling the server', async ({
  page,
}) => {
  await signUpThroughApi(page);
  await chooseCountry(page, 'United States');
  let buyCalls = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/dashboard/buy-number')) buyCalls += 1;
  });
  await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
  await page.getByRole('button', { name: /^Buy a Telegram number/ }).click();
  await expect(page.getByText('You do not have enough balance to purchase this number.')).toBeVisible();
  expect(buyCalls).toBe(0);
  await expect(page.getByText('Your balance is low')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Top Up Balance' })).toHaveAttribute(
    'href',
    '/dashboard/topup',
  );
});

test('a revoked token ends the session on the next API answer', async ({ page }) => {
  await signUpThroughApi(page);
  await page.evaluate(() => localStorage.setItem('token', 'not-a-real-token'));
  await page.goto('/dashboard/numbers');
  await page.waitForURL('**/login');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});
