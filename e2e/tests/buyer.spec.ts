import { expect, type Page } from '@playwright/test';
import { adminToken, creditUser } from '../support/admin';
import { newCredentials, openSignedIn, registerThroughApi, useSession } from '../support/auth';
import { buyService, chooseCountry } from '../support/dashboard';
import { test } from '../support/test';

// Issue 34: the buyer's day. Buying comes first, the bought number is in front of the buyer, and a refund
// has one reason on every page.

const viewports = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/** A new customer with money, signed in through the API; answers their token for API calls. */
async function customer(page: Page, dollars: number): Promise<string> {
  const credentials = newCredentials();
  const token = await registerThroughApi(page.request, credentials);
  await creditUser(page.request, await adminToken(page.request), credentials.username, dollars);
  await useSession(page.context(), token);
  return token;
}

/** Buys a Telegram number in the United States through the API, as many times as asked. */
async function buyThroughApi(page: Page, token: string, times: number): Promise<number[]> {
  const ids: number[] = [];
  for (let index = 0; index < times; index += 1) {
    const response = await page.request.post('/api/dashboard/buy-number', {
      headers: { authorization: `Bearer ${token}` },
      data: { country: 'United States', countryID: 'US', operator: 'any', service: 'tg' },
    });
    expect(response.ok(), await response.text()).toBe(true);
    ids.push((await response.json()).number.id);
  }
  return ids;
}

/** The Buy panel's first step is on screen without scrolling. */
async function expectBuyAboveTheFold(page: Page, height: number) {
  const search = page.getByRole('searchbox', { name: 'Search countries' });
  await expect(search).toBeVisible();
  const box = await search.boundingBox();
  expect(box, 'the country search').not.toBeNull();
  expect(box!.y + box!.height).toBeLessThanOrEqual(height);
}

for (const viewport of viewports) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('the Buy panel is above the fold for a new user and with ten live numbers', async ({ page }) => {
      const token = await customer(page, 100);
      await openSignedIn(page);
      await expectBuyAboveTheFold(page, viewport.height);

      await buyThroughApi(page, token, 10);
      await page.reload();
      await expect(page.getByRole('button', { name: 'Active numbers (10)' })).toBeVisible({
        visible: viewport.name === 'phone',
      });
      await expectBuyAboveTheFold(page, viewport.height);
      if (viewport.name === 'desktop') {
        await expect(page.getByRole('region', { name: 'Active numbers' }).getByRole('listitem')).toHaveCount(
          10,
        );
      } else {
        // On a phone the live numbers are a tab of their own.
        await page.getByRole('button', { name: 'Active numbers (10)' }).click();
        await expect(page.getByRole('region', { name: 'Active numbers' }).getByRole('listitem')).toHaveCount(
          10,
        );
        await expect(page.getByRole('searchbox', { name: 'Search countries' })).toBeHidden();
      }
    });

    test('the bought number is in front of the buyer, with copy buttons and then its code', async ({
      page,
    }) => {
      await customer(page, 20);
      await openSignedIn(page);
      await chooseCountry(page, 'United States');
      await buyService(page, 'Telegram');

      const bought = page.getByRole('region', { name: 'Your new number' });
      await expect(bought).toBeInViewport();
      await expect(bought.getByTestId('bought-number-phone')).toHaveText(/^\+1 \d/);
      const phone = (await bought.getByTestId('bought-number-phone').textContent()) ?? '';
      const national = phone.replace(/\D/g, '').slice(1);
      await expect(bought.getByRole('button', { name: `Copy number ${phone}` })).toBeVisible();
      await expect(
        bought.getByRole('button', { name: `Copy without country code: ${national}` }),
      ).toBeVisible();
      // The simulator sends the code a moment after the purchase: it shows in the same card.
      await expect(bought.getByTestId('bought-number-code')).toHaveText(/^\d+$/);
      await expect(bought).toBeInViewport();

      await bought.getByRole('button', { name: 'Close the new number' }).click();
      await expect(bought).toHaveCount(0);
    });
  });
}

test('a support refund reads "Refunded by support" on the balance page, in the CSV and under Refunded', async ({
  page,
}) => {
  const token = await customer(page, 20);
  const [orderId] = await buyThroughApi(page, token, 1);
  const admin = { authorization: `Bearer ${await adminToken(page.request)}` };
  const refund = await page.request.post(`/api/admin/orders/${orderId}/refund`, {
    headers: admin,
    data: { reason: 'e2e: the number never worked', force: true },
  });
  expect(refund.ok(), await refund.text()).toBe(true);

  await openSignedIn(page, '/dashboard/balance');
  await expect(page.getByText('Refunded by support').first()).toBeVisible();
  await expect(page.getByText('Canceled by you')).toHaveCount(0);
  const csv = await page.request.get('/api/dashboard/ledger.csv', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(await csv.text()).toMatch(/,refund,.*,refunded_by_support,/);

  await page.goto('/dashboard/numbers');
  await page.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Refunded' }).click();
  await expect(page.getByText('Refunded by support. The price was returned to your balance.')).toBeVisible();

  const console = await page.request.get(`/api/admin/orders/${orderId}`, { headers: admin });
  expect((await console.json()).order.refund_reason).toBe('refunded_by_support');
});

test('buys three numbers of one offer at once, each its own order, and buys with one click once that is chosen', async ({
  page,
}) => {
  const token = await customer(page, 20);
  const balanceOf = async () =>
    (
      await (
        await page.request.get('/api/dashboard/summary', { headers: { authorization: `Bearer ${token}` } })
      ).json()
    ).balance as number;
  await openSignedIn(page);
  await chooseCountry(page, 'United States');
  await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
  await page.getByRole('button', { name: /^Buy a Telegram number/ }).click();
  const dialog = page.getByRole('alertdialog');
  const unit = Number(
    ((await dialog.getByTestId('charge-price').textContent()) ?? '').replace(/[^\d.]/g, ''),
  );
  await dialog.getByRole('button', { name: 'One more' }).click();
  await dialog.getByRole('button', { name: 'One more' }).click();
  await expect(dialog.getByRole('spinbutton', { name: 'How many' })).toHaveValue('3');
  await expect(dialog.getByTestId('charge-price')).toHaveText(`$${(unit * 3).toFixed(2)}`);
  await dialog.getByRole('button', { name: `Buy for $${(unit * 3).toFixed(2)}` }).click();
  await expect(page.getByText('3 Telegram numbers purchased')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Your new number' })).toHaveCount(3);
  expect(await balanceOf()).toBeCloseTo(20 - unit * 3, 2);
  const numbers = await (
    await page.request.get('/api/dashboard/numbers', { headers: { authorization: `Bearer ${token}` } })
  ).json();
  expect(new Set(numbers.numbers.map((number: { id: number }) => number.id)).size).toBe(3);

  // One click: the account's setting skips the question; the price guard would still ask.
  await page.goto('/dashboard/account');
  await page.getByRole('checkbox', { name: /Buy with one click/ }).check();
  await expect(page.getByText('Your buying preference was saved.')).toBeVisible();
  await page.goto('/dashboard');
  await chooseCountry(page, 'United States');
  await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
  await page.getByRole('button', { name: /^Buy a Telegram number/ }).click();
  await expect(page.getByText('Number purchased successfully for Telegram')).toBeVisible();
  await expect(page.getByRole('alertdialog')).toHaveCount(0);
  await expect(page.getByRole('region', { name: 'Your new number' })).toHaveCount(1);
  expect(await balanceOf()).toBeCloseTo(20 - unit * 4, 2);
});

test("a connection too slow for the script still paints the app's frame at once, which the app then replaces", async ({
  page,
}) => {
  await customer(page, 1);
  let release!: () => void;
  const scriptsHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto('/dashboard', { waitUntil: 'commit' });
  const shell = page.locator('#root[data-shell]');
  await expect(shell.locator('header')).toBeVisible();
  await expect(shell.locator('main')).toBeVisible();
  release();
  await expect(page.getByRole('searchbox', { name: 'Search countries' })).toBeVisible();
  await expect(page.locator('#root[data-shell]')).toHaveCount(0);
});

test('"By country" shows each country\'s lowest price and stock, popular countries first or A–Z', async ({
  page,
}) => {
  await customer(page, 1);
  await openSignedIn(page);
  const countries = page.getByRole('group', { name: 'Country', exact: true });
  const popular = page.getByRole('radio', { name: 'Popular first' });
  await expect(popular).toBeChecked();
  const unitedStates = page.getByRole('radio', { name: /^United States/ });
  await expect(unitedStates).toHaveAccessibleName(
    /^United States\s*from \$\d+\.\d\d · [\d,]+ in stock\s*\+1$/,
  );
  await page.locator('label', { has: page.getByRole('radio', { name: 'A–Z' }) }).click();
  const names = await countries
    .getByRole('radio')
    .evaluateAll((radios) =>
      radios
        .slice(0, 5)
        .map((radio) => radio.closest('label')?.querySelector('.truncate')?.textContent ?? ''),
    );
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
  // The choice is this browser's: it stays after a reload.
  await page.reload();
  await expect(page.getByRole('radio', { name: 'A–Z' })).toBeChecked();
});

test('a number is finished with its code: it leaves the live list, its code stays in History, and the money stays spent', async ({
  page,
}) => {
  const token = await customer(page, 10);
  const [orderId] = await buyThroughApi(page, token, 1);
  await page.goto('/dashboard/numbers');
  const live = page.getByRole('region', { name: 'Active', exact: true });
  const card = live.locator('[aria-label="Telegram number in United States"]');
  // The simulator sends the code a moment after the purchase.
  await expect(card.getByTestId('number-code')).toHaveText(/^[\d-]{4,7}$/, { timeout: 20_000 });
  const code = await card.getByTestId('number-code').textContent();
  const balance = async () =>
    (
      await (
        await page.request.get('/api/dashboard/summary', { headers: { authorization: `Bearer ${token}` } })
      ).json()
    ).balance as number;
  const spent = await balance();
  await card.getByRole('button', { name: `Finish order #${orderId}` }).click();
  await expect(card).toHaveCount(0);
  const finished = page
    .getByRole('region', { name: 'History' })
    .locator('[aria-label="Telegram number in United States"]');
  await expect(finished.getByTestId('number-code')).toHaveText(code!);
  expect(await balance()).toBe(spent);
});
