import { expect, type Page } from '@playwright/test';
import { signUpWithBalance } from '../support/admin';
import { registerThroughUi } from '../support/auth';
import { axeViolations } from '../support/axe';
import { expectNoHorizontalOverflow } from '../support/layout';
import { currentBaseURL, test } from '../support/test';

// Issue 30: the public SMS Delivery Index, from real orders the simulator delivers codes to.

const ORDERS = 12;

/** Buys Telegram numbers in the United States through the API and waits until each has its code. */
async function buyWithCodes(page: Page, count: number): Promise<void> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  for (let index = 0; index < count; index += 1) {
    const bought = await page.request.post('/api/dashboard/buy-number', {
      headers,
      data: { countryID: 'US', service: 'tg' },
    });
    expect(bought.ok(), await bought.text()).toBe(true);
  }
  await expect
    .poll(
      async () => {
        const answer = await page.request.get('/api/dashboard/numbers?state=live', { headers });
        const { numbers } = (await answer.json()) as { numbers: { code: string | null }[] };
        return numbers.filter((number) => number.code !== null).length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(count);
  // A number shows its code a moment before its order is recorded as received, and the index keeps an
  // answer for a minute: wait until the index counts them, so the pages below read the same figures.
  await expect
    .poll(
      async () => {
        const answer = await page.request.get('/api/v1/stats?window=24h');
        const { rows } = (await answer.json()) as {
          rows: { service: string; country: string; settled: number }[];
        };
        return rows.find((row) => row.service === 'tg' && row.country === 'US')?.settled ?? 0;
      },
      { timeout: 90_000 },
    )
    .toBeGreaterThanOrEqual(count);
}

test('shows delivery figures from real orders, sortable and searchable, in three languages, axe clean', async ({
  page,
}) => {
  await signUpWithBalance(page, 50);
  await buyWithCodes(page, ORDERS);

  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/stats?window=24h');
    await expect(page.getByRole('heading', { level: 1, name: 'SMS Delivery Index' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Delivery figures per service and country' });
    const row = table.getByRole('row').filter({ hasText: 'Telegram' }).filter({ hasText: 'United States' });
    await expect(row).toContainText('100%');
    await expect(page.getByRole('heading', { name: 'How the figures are counted' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'CC BY 4.0' })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    expect(await axeViolations(page, `/stats at ${width}px`)).toEqual([]);
  }

  // Sorting and searching.
  const rate = page.getByRole('columnheader', { name: 'Delivery rate' });
  await rate.getByRole('button').click();
  await expect(rate).toHaveAttribute('aria-sort', 'descending');
  await page.getByRole('searchbox', { name: 'Search a service or country' }).fill('nowhere at all');
  await expect(page.getByText('0 services and countries')).toBeVisible();

  // A service's page: its countries and its daily chart.
  await page.goto('/stats/tg?window=24h');
  await expect(page.getByRole('heading', { level: 1, name: 'Telegram: delivery figures' })).toBeVisible();
  await expect(page.getByRole('img', { name: /bars are the delivery rate/ })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Countries' })).toContainText('United States');
  expect(await axeViolations(page, '/stats/tg')).toEqual([]);

  // A country's page, from the country's name in a table: its services and its daily chart.
  await page.getByRole('table', { name: 'Countries' }).getByRole('link', { name: 'United States' }).click();
  await expect(page).toHaveURL(/\/stats\/country\/us$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'United States: delivery figures' }),
  ).toBeVisible();
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/stats/country/us?window=24h');
    const services = page.getByRole('table', { name: 'Services' });
    await expect(services.getByRole('row').filter({ hasText: 'Telegram' })).toContainText('100%');
    await expect(page.getByRole('img', { name: /bars are the delivery rate/ })).toBeVisible();
    await expectNoHorizontalOverflow(page);
    expect(await axeViolations(page, `/stats/country/us at ${width}px`)).toEqual([]);
  }
  await page.goto('/ru/stats/country/us');
  await expect(page.getByRole('heading', { level: 1, name: /показатели доставки/ })).toBeVisible();
  await page.goto('/zh/stats/country/us');
  await expect(page.getByRole('heading', { level: 1, name: /送达数据/ })).toBeVisible();

  // The other languages, prerendered at their own addresses.
  await page.goto('/ru/stats');
  await expect(page.getByRole('heading', { level: 1, name: 'Индекс доставки SMS' })).toBeVisible();
  await page.goto('/zh/stats');
  await expect(page.getByRole('heading', { level: 1, name: '短信送达指数' })).toBeVisible();
  expect(await axeViolations(page, '/zh/stats')).toEqual([]);

  // The landing page links to it.
  await page.goto('/');
  await expect(
    page.getByRole('contentinfo').getByRole('link', { name: 'SMS Delivery Index' }),
  ).toHaveAttribute('href', '/stats');
});

test("a service's public page lists today's prices and stock without an account, cheapest first, with Buy leading to sign-up", async ({
  page,
}) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto('/stats/tg');
    const prices = page.getByRole('table', { name: 'Telegram numbers: prices now' });
    await expect(prices.getByTestId('price-row').first()).toBeVisible();
    const amounts = (await prices.getByTestId('price-row').locator('td:nth-child(2)').allInnerTexts()).map(
      (text) => Number(text.replace(/[^\d.]/g, '')),
    );
    expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
    const buy = prices.getByRole('link', { name: /^Buy a Telegram number in / }).first();
    await expect(buy).toHaveAttribute('href', '/register?next=%2Fdashboard%3Fservice%3Dtg');
    await expectNoHorizontalOverflow(page);
  }
  expect(await axeViolations(page, '/stats/tg')).toEqual([]);
  await page.goto('/ru/stats/tg');
  await expect(page.getByRole('table', { name: 'Номера Telegram: цены сейчас' })).toBeVisible();

  // Buy: sign up, then land on "By service" with Telegram chosen, its countries and prices listed.
  await page.goto('/stats/tg');
  await page
    .getByRole('link', { name: /^Buy a Telegram number in / })
    .first()
    .click();
  await page.waitForURL('**/register?next=*');
  await registerThroughUi(page, undefined, { opened: true });
  await expect(page).toHaveURL(/\/dashboard\?service=tg$/);
  await expect(page.getByRole('radio', { name: 'By service' })).toBeChecked();
  await expect(page.getByRole('table', { name: 'Countries selling Telegram' })).toBeVisible();
});

test("a service's price list is in its page's HTML: readable before, and without, any script", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: currentBaseURL(), javaScriptEnabled: false });
  try {
    const page = await context.newPage();
    await page.goto('/stats/tg');
    await expect(page).toHaveTitle(/^Telegram numbers: prices now \| /);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Telegram numbers: prices now');
    const rows = page.getByTestId('price-row');
    await expect(rows.first()).toBeVisible();
    const prices = await rows.locator('td:nth-child(2)').allTextContents();
    const dollars = prices.map((price) => Number(price.replace(/[^\d.]/g, '')));
    expect(dollars).toEqual([...dollars].sort((a, b) => a - b));
    await expect(page.getByRole('link', { name: 'Buy' })).toHaveAttribute(
      'href',
      `/register?next=${encodeURIComponent('/dashboard?service=tg')}`,
    );
    await page.goto('/ru/stats/tg');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Номера Telegram: цены сейчас');
  } finally {
    await context.close();
  }
});
