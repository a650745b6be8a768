import { expect, type Page } from '@playwright/test';
import { e2eSandboxKey } from '../playwright.config';
import { signUpThroughApi } from '../support/auth';
import { test } from '../support/test';

/** Takes the Cryptomus sandbox (the pool's first payment provider) down or brings it back. */
async function cryptomusDown(page: Page, down: boolean) {
  const response = await page.request.post('/sandbox/control/fault', {
    headers: { 'x-sandbox-key': e2eSandboxKey },
    data: { down },
  });
  expect(response.ok()).toBe(true);
}

test.afterEach(async ({ page }) => {
  await cryptomusDown(page, false);
});

test('with the first payment provider down, a customer tops up through the second from the Top Up page', async ({
  page,
}) => {
  await signUpThroughApi(page, { at: '/dashboard/topup' });
  // Both rails are offered, each with its coins, minimums and fees; Cryptomus first.
  const methods = page.getByRole('group', { name: 'Payment method' });
  await expect(methods.getByRole('radio', { name: /Cryptomus/ })).toBeChecked();
  await expect(methods.getByText('NOWPayments')).toBeVisible();
  await expect(methods).toContainText('USDT · TRON — min 1 USDT, fee 0.5%');

  await cryptomusDown(page, true);
  await page.getByLabel('Amount (USD)').fill('12.34');
  await page.getByRole('button', { name: 'Deposit $12.34' }).click();
  await expect(page.getByRole('alert')).toContainText('Failed to create Cryptomus invoice');
  // The failed provider is hidden: NOWPayments is the only way left, and is chosen.
  await expect(methods.getByRole('radio', { name: /Cryptomus/ })).toHaveCount(0);
  await expect(methods.getByRole('radio', { name: /NOWPayments/ })).toBeChecked();

  const popupOpened = page.context().waitForEvent('page');
  await page.getByRole('button', { name: 'Deposit $12.34' }).click();
  const popup = await popupOpened;
  await expect(popup).toHaveURL(/\/sandbox\/nowpayments\/payment\/\?iid=\d+$/);
  await popup.getByRole('button', { name: 'Pay in sandbox' }).click();

  await expect(page.getByText('Payment completed! Your balance has been updated.')).toBeVisible();
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('$12.34');

  // Cryptomus recovers: it is asked again at most every 30 s and then offered first again (which the
  // specs after this one rely on).
  await cryptomusDown(page, false);
  await expect(async () => {
    await page.goto('/dashboard/topup');
    await expect(page.getByRole('radio', { name: /Cryptomus/ })).toBeChecked({ timeout: 5_000 });
  }).toPass({ timeout: 120_000 });
});
