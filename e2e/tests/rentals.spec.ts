import { expect } from '@playwright/test';
import { simulatorDefaults } from '../playwright.config';
import { signUpWithBalance } from '../support/admin';
import { confirmCharge } from '../support/layout';
import { chooseRent, rentsOf } from '../support/rentals';
import { injectSms, simulatorSettings } from '../support/simulator';
import { test } from '../support/test';

test('a user rents a number for 24 hours, receives two SMS, renews it and sees the new end date', {
  tag: '@smoke',
}, async ({ page, request }) => {
  await signUpWithBalance(page, 40, '/dashboard/longterm');
  await expect(page.getByRole('heading', { name: /Rent Long-term Number/ })).toContainText('Beta');
  await expect(page.getByLabel('Period in hours')).toHaveValue('24');
  await expect(page.getByRole('button', { name: 'Rent Now' })).toBeDisabled();
  await chooseRent(page, 'United States', 'Telegram');
  await page.getByRole('button', { name: 'Rent Now' }).click();
  await confirmCharge(page, 'Rent');
  await expect(page.getByText('Long-term number rented successfully.')).toBeVisible();

  await page.goto('/dashboard/longterm/numbers');
  const row = page.getByRole('row', { name: 'Telegram number in United States' });
  await expect(row).toContainText(/\+1 \d{3} \d{3} \d{4}/);
  await expect(row.getByTestId('rent-time-left')).toHaveText(/^23:5\d:\d\d$/);
  const [rent] = await rentsOf(page);

  // Two SMS through the simulator's control API: pushed to our webhook, shown without reloading, newest first.
  await injectSms(
    request,
    { phone: rent!.number, from: 'Telegram' },
    'Telegram code: 41526. Do not give this code to anyone!',
  );
  await injectSms(request, { phone: rent!.number, from: 'BankOne' }, 'Your BankOne login code is 907313.');
  const messages = row.getByRole('list', { name: 'Received SMS' }).getByRole('listitem');
  await expect(messages.filter({ hasText: 'BankOne: Your BankOne login code is 907313.' })).toBeVisible();
  await expect(messages.filter({ hasText: 'Telegram: Telegram code: 41526.' })).toBeVisible();
  const texts = await messages.allTextContents();
  const bank = texts.findIndex((text) => text.startsWith('BankOne:'));
  const telegram = texts.findIndex((text) => text.includes('41526'));
  expect(bank).toBeLessThan(telegram);
  // By its sender, not its index: the simulator may push its own SMS on top meanwhile.
  await expect(messages.filter({ hasText: 'BankOne:' }).getByTestId('rent-code')).toHaveText('907313');

  // Renew for 24 hours from the dialog, which shows the price first.
  const endBefore = await row.getByTestId('rent-end-date').textContent();
  await row.getByRole('button', { name: 'Renew' }).click();
  const dialog = page.getByRole('dialog', { name: 'Renew number' });
  await expect(dialog.getByLabel('Period in hours')).toHaveValue('24');
  const confirm = dialog.getByRole('button', { name: /^Renew for \$\d+\.\d\d$/ });
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByText('Long-term number renewed successfully.')).toBeVisible();
  await expect(dialog).toBeHidden();
  // Still active, and marked as renewed beside its status.
  await expect(row.getByTestId('rent-status')).toHaveText('Active');
  await expect(row.getByText('Renewed', { exact: true })).toBeVisible();
  await expect(row.getByTestId('rent-time-left')).toHaveText(/^1d 23:5\d:\d\d$/);
  const [renewed] = await rentsOf(page);
  expect(new Date(renewed!.end_date).getTime() - new Date(rent!.end_date).getTime()).toBe(24 * 3_600_000);
  await expect(row.getByTestId('rent-end-date')).not.toHaveText(endBefore!);
});

test('a renewable number is bought by the week with auto-renew on, and shows as a card on a phone', async ({
  page,
  request,
}) => {
  await signUpWithBalance(page, 100, '/dashboard/renewable');
  // This rent receives no SMS on its own, so it can still be cancelled later.
  await simulatorSettings(request, { smsDelayMinMs: 3_600_000, smsDelayMaxMs: 3_600_000 });
  await expect(page.getByTestId('renewable-period')).toHaveText('Period: 1 week = 168 hours');
  await page.getByRole('button', { name: 'One week more' }).click();
  await expect(page.getByTestId('renewable-period')).toHaveText('Period: 2 weeks = 336 hours');
  // Automatic renewal is a choice, off until chosen.
  const renewSwitch = page.getByRole('switch', { name: 'Renew automatically' });
  await expect(renewSwitch).not.toBeChecked();
  await renewSwitch.click();
  await chooseRent(page, 'United Kingdom', 'WhatsApp');
  await page.getByRole('button', { name: 'Rent Now' }).click();
  await confirmCharge(page, 'Rent');
  await expect(page.getByText('Renewable number rented successfully.')).toBeVisible();
  await simulatorSettings(request, {
    smsDelayMinMs: simulatorDefaults.smsDelayMinMs,
    smsDelayMaxMs: simulatorDefaults.smsDelayMaxMs,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/dashboard/longterm/numbers');
  const card = page.getByRole('listitem', { name: 'WhatsApp number in United Kingdom' });
  await expect(card).toContainText('Renewable · 2 weeks');
  await expect(card.getByRole('switch', { name: 'Auto-renew' })).toBeChecked();
  await expect(card.getByTestId('rent-time-left')).toHaveText(/^13d 23:5\d:\d\d$/);
  await card.getByRole('switch', { name: 'Auto-renew' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Stop renewing' }).click();
  await expect(card.getByRole('switch', { name: 'Auto-renew' })).not.toBeChecked();
  // Cancelled within 20 minutes, before any SMS: asked first, then the price comes back.
  await card.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Cancel the rent' }).click();
  await expect(page.getByText('Long-term number canceled successfully.')).toBeVisible();
  await expect(card.getByTestId('rent-status')).toHaveText('Canceled');
  await expect(card.getByRole('button', { name: 'Cancel' })).toBeDisabled();
  // A canceled rental cannot be renewed: Renew says so instead of opening a dialog that can only refuse.
  await expect(card.getByRole('button', { name: 'Renew' })).toBeDisabled();
  await expect(card.getByRole('button', { name: 'Renew' })).toHaveAccessibleDescription(
    'This rental has ended and can no longer be renewed. Rent a new number instead.',
  );
});
