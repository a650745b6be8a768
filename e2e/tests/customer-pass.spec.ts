import { expect, type Page } from '@playwright/test';
import { simulatorDefaults } from '../playwright.config';
import { signUpWithBalance } from '../support/admin';
import { signUpThroughApi } from '../support/auth';
import { chooseCountry } from '../support/dashboard';
import { confirmCharge, expectNoHorizontalOverflow, expectPageEndsAtFooter } from '../support/layout';
import { chooseRent } from '../support/rentals';
import { cancelOnceAllowed, simulatorSettings } from '../support/simulator';
import { currentBaseURL, test } from '../support/test';

// A first-time buyer's pass (issue 12): each test runs at the viewport where its defect showed.

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };

/** Clicks a country row of the dashboard's list as it is, without searching (the row is the radio's label). */
function countryRow(page: Page, name: string) {
  return page.locator('label', { has: page.getByRole('radio', { name: new RegExp(`^${name}`) }) });
}

test.describe('desktop', () => {
  test.use({ viewport: DESKTOP });

  test('picking a country low in the list keeps the page in place, and the page ends at its footer', async ({
    page,
  }) => {
    await signUpThroughApi(page);
    const ecuador = countryRow(page, 'Ecuador');
    await ecuador.scrollIntoViewIfNeeded();
    const scrolledTo = await page.evaluate(() => window.scrollY);
    await ecuador.click();
    await expect(page.getByRole('radio', { name: /^Ecuador/ })).toBeChecked();
    await expect(ecuador).toBeInViewport();
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrolledTo)).toBeLessThan(200);
    await expectPageEndsAtFooter(page);
  });

  test('the Long-term Numbers menu stays open for the click that follows the pointer onto it', async ({
    page,
  }) => {
    await signUpThroughApi(page);
    const menuButton = page.getByRole('navigation', { name: 'Main' }).getByRole('button', {
      name: 'Long-term Numbers',
    });
    await menuButton.hover();
    await menuButton.click();
    await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('link', { name: 'Buy Renewable Number' }).click();
    await expect(page.getByRole('heading', { name: /Buy Renewable Number/ })).toBeVisible();
  });

  test('toasts appear below the navigation bar, and the footer offers no Sign In to a signed-in user', async ({
    page,
  }) => {
    await signUpThroughApi(page);
    const footer = page.getByRole('contentinfo');
    await expect(footer.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(footer.getByRole('link', { name: 'Sign In' })).toHaveCount(0);

    // A purchase the empty balance cannot cover answers with a toast at once.
    await chooseCountry(page, 'United States');
    await page.getByRole('searchbox', { name: 'Search services' }).fill('Airbnb');
    await page.getByRole('button', { name: /^Buy an Airbnb number for \$\d+\.\d\d$/ }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'You do not have enough balance' });
    await expect(toast).toBeVisible();
    const navBottom = await page
      .locator('header')
      .evaluate((header) => header.getBoundingClientRect().bottom);
    // The toast slides in from above: its resting place, once the animation ends, is below the bar.
    await expect.poll(async () => (await toast.boundingBox())?.y ?? 0).toBeGreaterThanOrEqual(navBottom);
  });

  test('sums of money have thousands separators', async ({ page }) => {
    await signUpThroughApi(page, { at: '/dashboard/topup' });
    await expect(page.getByText(/maximum \$10,000\.00/)).toBeVisible();
  });

  test('a page opened on another name of the server moves to PUBLIC_URL, and a top-up there completes', async ({
    page,
  }) => {
    const port = new URL(currentBaseURL()).port;
    // The app opened as localhost while the checkout returns to 127.0.0.1 (www vs bare domain in production).
    await page.goto(`http://localhost:${port}/register`);
    await expect(page).toHaveURL(`${currentBaseURL()}/register`);
    await signUpThroughApi(page, { at: '/dashboard/topup' });
    await page.getByLabel('Amount (USD)').fill('6.00');
    const popupOpened = page.context().waitForEvent('page');
    await page.getByRole('button', { name: 'Deposit $6.00' }).click();
    const popup = await popupOpened;
    await popup.getByRole('button', { name: 'Pay $6.00' }).click();
    await expect(page.getByText('Payment completed! Your balance has been updated.')).toBeVisible();
    await page.waitForURL('**/dashboard');
    await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('$6.00');
  });
});

test.describe('buying and renting, on a phone', () => {
  test.use({ viewport: PHONE });

  test('a purchase asks with the price, then shows in Active numbers with its code; My Numbers splits Active and History', async ({
    page,
    request,
  }) => {
    await signUpWithBalance(page, 20);
    const balance = page.getByRole('region', { name: 'Account summary' });
    await expect(balance).toContainText('$20.00');
    await chooseCountry(page, 'United Kingdom');
    await expectNoHorizontalOverflow(page);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeInViewport();

    await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
    await page.getByRole('button', { name: /^Buy a Telegram number/ }).click();
    // Nothing is charged before the confirmation.
    await expect(page.getByRole('alertdialog')).toContainText('Buy a Telegram number?');
    await page.getByRole('button', { name: 'Not now' }).click();
    await expect(balance).toContainText('$20.00');
    await page.getByRole('button', { name: /^Buy a Telegram number/ }).click();
    await confirmCharge(page, 'Buy');

    // On a phone the live numbers are the dashboard's second tab.
    await page.getByRole('button', { name: /^Active numbers \(\d+\)$/ }).click();
    const panel = page.getByRole('region', { name: 'Active numbers' });
    const row = panel.getByRole('listitem', { name: 'Telegram number in United Kingdom' });
    await expect(row.getByRole('button', { name: /^Copy number \+44 \d{4} \d{6}$/ })).toBeVisible();
    await expect(row.getByRole('timer', { name: 'Time left' })).toHaveText(/^1\d:\d\d$/);
    // The simulator delivers the code a few seconds later: it shows here, copyable, without leaving the page.
    await expect(row.getByTestId('active-number-code')).toHaveText(/^[\d-]{4,7}$/, { timeout: 20_000 });
    await expect(row.getByRole('button', { name: /^Copy code / })).toBeVisible();
    await expectNoHorizontalOverflow(page);

    // A second number that gets no SMS, canceled: it moves to the history, without a countdown.
    await simulatorSettings(request, { noSmsRate: 1 });
    await page.getByRole('button', { name: 'Buy', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search services' }).fill('WhatsApp');
    await page.getByRole('button', { name: /^Buy a WhatsApp number/ }).click();
    await confirmCharge(page, 'Buy');
    await page.getByRole('button', { name: /^Active numbers \(\d+\)$/ }).click();
    await expect(panel.getByRole('listitem', { name: 'WhatsApp number in United Kingdom' })).toBeVisible();
    await simulatorSettings(request, { noSmsRate: simulatorDefaults.noSmsRate });
    await page.goto('/dashboard/numbers');
    const active = page.getByRole('region', { name: 'Active' });
    const whatsapp = active.locator('[aria-label="WhatsApp number in United Kingdom"]');
    await expect(whatsapp).toBeVisible();
    await expect(whatsapp.getByTestId('number-bought-at')).toHaveText(/^Bought \w{3} \d+, \d{4}, \d\d:\d\d$/);
    await cancelOnceAllowed(page, whatsapp);
    await simulatorSettings(request, { earlyCancelMs: simulatorDefaults.earlyCancelMs });
    const history = page.getByRole('region', { name: 'History' });
    const canceled = history.locator('[aria-label="WhatsApp number in United Kingdom"]');
    await expect(canceled).toBeVisible();
    await expect(canceled.getByRole('timer')).toHaveCount(0);
    await expect(canceled.getByTestId('number-bought-at')).toBeVisible();
    // An ended number offers no Cancel any more.
    await expect(canceled.getByRole('button', { name: 'Cancel' })).toHaveCount(0);
    await expectNoHorizontalOverflow(page);
  });

  test('long-term Replace asks with the price, cancels first and then rents again', async ({
    page,
    request,
  }) => {
    await signUpWithBalance(page, 40, '/dashboard/longterm');
    // No SMS on its own, so the rent can still be canceled.
    await simulatorSettings(request, { smsDelayMinMs: 3_600_000, smsDelayMaxMs: 3_600_000 });
    await chooseRent(page, 'United States', 'Telegram');
    await expectNoHorizontalOverflow(page);
    await page.getByRole('button', { name: 'Rent Now' }).click();
    await confirmCharge(page, 'Rent');
    await expect(page.getByText('Long-term number rented successfully.')).toBeVisible();

    await page.goto('/dashboard/longterm/numbers');
    const card = page.getByRole('listitem', { name: 'Telegram number in United States' });
    await expect(card).toHaveCount(1);
    await expect(card.getByTestId('rent-status')).toHaveText('Active');
    await card.getByRole('button', { name: 'Replace' }).click();
    await expect(page.getByRole('alertdialog')).toContainText('Replace this Telegram number?');
    await confirmCharge(page, 'Replace');
    await expect(
      page.getByText('Long-term number replaced: the new one is at the top of your list.'),
    ).toBeVisible();
    await simulatorSettings(request, {
      smsDelayMinMs: simulatorDefaults.smsDelayMinMs,
      smsDelayMaxMs: simulatorDefaults.smsDelayMaxMs,
    });
    // The original is canceled (and refunded), the replacement is the one active rental.
    await expect(card).toHaveCount(2);
    await expect(card.getByTestId('rent-status').filter({ hasText: 'Active' })).toHaveCount(1);
    await expect(card.getByTestId('rent-status').filter({ hasText: 'Canceled' })).toHaveCount(1);
    await expectNoHorizontalOverflow(page);
  });
});

test.describe('a small phone', () => {
  test.use({ viewport: SMALL_PHONE });

  test('no signed-in page is wider than the screen, and the balance shows whole', async ({ page }) => {
    await signUpThroughApi(page);
    await chooseCountry(page, 'United Kingdom');
    await expectNoHorizontalOverflow(page);
    const balance = page.getByRole('region', { name: 'Account summary' }).getByText('$0.00');
    await expect(balance).toBeVisible();
    expect(await balance.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    // The bar shows the balance too, one tap from Top Up, and still ends with its menu button on screen.
    const bar = page.getByRole('navigation', { name: 'Main' });
    await expect(bar.getByRole('link', { name: 'Balance $0.00, top up' })).toHaveAttribute(
      'href',
      '/dashboard/topup',
    );
    const menuButton = await bar.getByRole('button', { name: 'Open menu' }).boundingBox();
    expect(menuButton!.x + menuButton!.width).toBeLessThanOrEqual(SMALL_PHONE.width);
    for (const route of [
      '/dashboard/numbers',
      '/dashboard/topup',
      '/dashboard/longterm',
      '/dashboard/renewable',
      '/dashboard/longterm/numbers',
      '/dashboard/tickets',
    ]) {
      await page.goto(route);
      await expect(page.locator('h1')).toBeVisible();
      await expectNoHorizontalOverflow(page);
    }
  });

  test('toasts appear at the bottom of a phone screen', async ({ page }) => {
    await signUpThroughApi(page);
    await chooseCountry(page, 'United States');
    await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
    await page.getByRole('button', { name: /^Buy a Telegram number/ }).click();
    const toast = page.locator('[data-sonner-toast]').filter({ hasText: 'You do not have enough balance' });
    await expect(toast).toBeVisible();
    const box = (await toast.boundingBox())!;
    expect(box.y).toBeGreaterThan(SMALL_PHONE.height / 2);
  });

  test('the public pages fit the screen', async ({ page }) => {
    for (const route of ['/', '/faq', '/login', '/register']) {
      await page.goto(route);
      await expectNoHorizontalOverflow(page);
    }
  });
});
