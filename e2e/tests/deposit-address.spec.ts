import { expect } from '@playwright/test';
import { signUpThroughApi } from '../support/auth';
import { axeViolations } from '../support/axe';
import { expectNoHorizontalOverflow } from '../support/layout';
import { test } from '../support/test';

test('a user gets a permanent deposit address with its QR code and warning, pays it in the sandbox, and sees the balance rise', async ({
  page,
}) => {
  await signUpThroughApi(page, { at: '/dashboard/topup' });
  const section = page.getByRole('heading', { name: 'Deposit address' });
  await expect(section).toBeVisible();
  await expect(page.getByLabel('Coin and network')).toBeVisible();
  await page.getByRole('button', { name: 'Get address' }).click();

  const address = page.getByTestId('deposit-address');
  await expect(address).toHaveText(/^T\w{33}$/);
  const addressText = (await address.textContent())!;
  await expect(page.getByRole('img', { name: /^QR code of your USDT address on TRON$/ })).toBeVisible();
  await expect(
    page.getByText('Send only USDT on network TRON to this address; other coins or networks are lost.'),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy address' })).toBeVisible();
  expect(await axeViolations(page, 'Top Up with a deposit address')).toEqual([]);

  // The same address on every visit; on a phone it wraps instead of widening the page.
  await page.setViewportSize({ width: 360, height: 740 });
  await page.reload();
  await expect(page.getByTestId('deposit-address')).toHaveText(addressText);
  await expectNoHorizontalOverflow(page);
  expect(await axeViolations(page, 'Top Up with a deposit address at 360 px')).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });

  // The sandbox's wallet page stands in for the payer's wallet app: it sends coins to the address.
  const walletUrl = await page.getByRole('link', { name: 'Open the wallet page' }).getAttribute('href');
  const wallet = await page.context().newPage();
  await wallet.goto(walletUrl!);
  await expect(wallet.getByText(addressText)).toBeVisible();
  await wallet.getByLabel('Amount (USDT)').fill('15.00');
  await wallet.getByRole('button', { name: 'Send deposit' }).click();
  await expect(wallet.getByText('15.00 USDT · paid')).toBeVisible();
  await wallet.close();

  // The credit shows in the list as it happens, without a reload. The cap covers the sandbox's webhook
  // retries (a first delivery can time out on a busy machine); the first delivery is what normally counts.
  await expect(page.getByRole('listitem', { name: 'Top-up of $15.00, Credited' })).toBeVisible({
    timeout: 90_000,
  });
  await page.goto('/dashboard');
  await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('$15.00');
});
