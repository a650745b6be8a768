import { expect } from '@playwright/test';
import { simulatorDefaults } from '../playwright.config';
import { signUpWithBalance } from '../support/admin';
import { openExpectingSignIn, signUpThroughApi } from '../support/auth';
import { buyService, chooseCountry, numberCard } from '../support/dashboard';
import { cancelOnceAllowed, simulatorSettings } from '../support/simulator';
import { test } from '../support/test';

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
  // Too early: Cancel and Replace are off and say when the supplier allows a cancel; then it works.
  await expect(whatsapp.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  await expect(whatsapp.getByRole('button', { name: 'Replace' })).toBeDisabled();
  await expect(whatsapp.getByTestId('cancel-opens-in')).toHaveText(/^Cancel available in (09|10):\d\d$/);
  await cancelOnceAllowed(page, whatsapp);
  await expect(whatsapp.getByTestId('number-status')).toHaveText('Order canceled');
  // An ended number offers no Cancel any more.
  await expect(whatsapp.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
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
  await openExpectingSignIn(page, '/dashboard/numbers');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

test('a number the service refuses as already used is given back and refunded from "Report a problem", without a ticket', async ({
  page,
  request,
}) => {
  await signUpWithBalance(page, 10);
  const balanceCard = page.getByRole('region', { name: 'Account summary' });
  await simulatorSettings(request, { noSmsRate: 1, earlyCancelMs: 0 });
  await chooseCountry(page, 'United Kingdom');
  await buyService(page, 'Telegram');
  await simulatorSettings(request, {
    noSmsRate: simulatorDefaults.noSmsRate,
    earlyCancelMs: simulatorDefaults.earlyCancelMs,
  });
  await page.goto('/dashboard/numbers');
  const { card, orderId } = await numberCard(page, 'Telegram number in United Kingdom');
  await card.getByRole('button', { name: `Report a problem with order #${orderId}` }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('radio', { name: 'The number was already used on the service' }).check();
  await expect(dialog).toContainText('given back and refunded at once, without a ticket');
  // The window the number was bought with is over by now, or the countdown says when it is.
  await dialog.getByRole('button', { name: 'Give back and refund' }).click({ timeout: 30_000 });
  await expect(
    page.getByText('The number was given back as already used, and its price returned to your balance.'),
  ).toBeVisible();
  const history = page.getByRole('region', { name: 'History' });
  const ended = history.locator('[aria-label="Telegram number in United Kingdom"]');
  await expect(ended).toContainText('The service refused this number as already used');
  await page.goto('/dashboard');
  await expect(balanceCard).toContainText('$10.00');
  await page.goto('/dashboard/balance');
  await expect(page.getByRole('main')).toContainText('Number already used');
});
