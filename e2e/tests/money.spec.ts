import { readFile } from 'node:fs/promises';
import { expect } from '@playwright/test';
import { simulatorDefaults } from '../playwright.config';
import { signUpThroughApi } from '../support/auth';
import { buyService, chooseCountry } from '../support/dashboard';
import { expectNoHorizontalOverflow } from '../support/layout';
import { cancelOnceAllowed, simulatorSettings } from '../support/simulator';
import { test } from '../support/test';

test('the Balance page lists a top-up, a purchase and its refund with transaction IDs, filters, exports, and opens the order', async ({
  page,
  request,
}) => {
  // A sandbox top-up, as a customer pays.
  await signUpThroughApi(page, { at: '/dashboard/topup' });
  await page.getByLabel('Amount (USD)').fill('12.34');
  const popupOpened = page.context().waitForEvent('page');
  await page.getByRole('button', { name: 'Deposit $12.34' }).click();
  const popup = await popupOpened;
  await popup.getByRole('button', { name: 'Pay $12.34' }).click();
  await page.waitForURL('**/dashboard');

  // A number that never gets a code, cancelled for a refund.
  await simulatorSettings(request, { noSmsRate: 1 });
  await chooseCountry(page, 'United Kingdom');
  await buyService(page, 'WhatsApp');
  await page.goto('/dashboard/numbers');
  const whatsapp = page.locator('[aria-label="WhatsApp number in United Kingdom"]');
  await expect(whatsapp.getByRole('button', { name: 'Cancel' })).toBeVisible();
  await cancelOnceAllowed(page, whatsapp);
  await simulatorSettings(request, {
    noSmsRate: simulatorDefaults.noSmsRate,
    earlyCancelMs: simulatorDefaults.earlyCancelMs,
  });

  // From the dashboard's Balance card to the Money view.
  await page.goto('/dashboard');
  await page
    .getByRole('region', { name: 'Account summary' })
    .getByRole('link', { name: /Balance/ })
    .click();
  await expect(page.getByRole('heading', { name: 'Balance', level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Balance summary' })).toContainText('$12.34');
  const table = page.getByRole('table', { name: 'Transactions' });
  const rows = table.getByRole('row');
  await expect(rows).toHaveCount(4);
  const [refund, purchase, topup] = [rows.nth(1), rows.nth(2), rows.nth(3)];
  await expect(topup).toContainText('Top-up');
  await expect(topup).toContainText('+$12.34');
  await expect(purchase).toContainText('Purchase');
  await expect(refund).toContainText('Refund');
  await expect(refund).toContainText('Canceled by you');
  const price = (await purchase.getByRole('cell').nth(3).innerText()).trim().replace('-', '');
  // Balance after each entry: the top-up, the top-up less the price, the top-up again.
  await expect(topup.getByRole('cell').nth(4)).toHaveText('$12.34');
  await expect(purchase.getByRole('cell').nth(4)).toHaveText(
    `$${(12.34 - Number(price.slice(1))).toFixed(2)}`,
  );
  await expect(refund.getByRole('cell').nth(4)).toHaveText('$12.34');
  const transactionIds = await table
    .getByRole('cell')
    .filter({ hasText: /^TX-\d{6}$/ })
    .allTextContents();
  expect(transactionIds).toHaveLength(3);

  // Only refunds.
  await page.getByRole('combobox', { name: 'Kind' }).click();
  await page.getByRole('option', { name: 'Refund' }).click();
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(transactionIds[0]!);

  // The filtered history as a file.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^simcode-transactions-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\r\n');
  expect(lines[0]).toBe(
    'transaction_id,created_at_utc,kind,amount_usd,balance_after_usd,reference_kind,reference_id,refund_reason,service,country,phone',
  );
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(
    new RegExp(
      `^${transactionIds[0]},.+,refund,${price.slice(1)},12\\.34,number,\\d+,canceled_by_you,WhatsApp,United Kingdom,\\+\\d+$`,
    ),
  );
  await expectNoHorizontalOverflow(page);

  // The refund's order, with its money.
  await rows
    .nth(1)
    .getByRole('link', { name: /^Number #\d+$/ })
    .click();
  const detail = page.getByRole('dialog');
  await expect(detail).toContainText('WhatsApp number in United Kingdom');
  await expect(detail).toContainText(`Price${price}`);
  await expect(detail).toContainText('Canceled by you');
  await expect(detail.getByRole('list', { name: 'Transactions' }).getByRole('listitem')).toHaveCount(2);
  await expect(detail).toContainText(transactionIds[0]!);
});
