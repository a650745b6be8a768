import { expect } from '@playwright/test';
import { signUpWithBalance } from '../support/admin';
import { axeViolations } from '../support/axe';
import { test } from '../support/test';

test('a user creates an API key (shown once), buys through the protocol, sees the API order, and revokes the key', async ({
  page,
  request,
}) => {
  const credentials = await signUpWithBalance(page, 5);

  await page.getByRole('link', { name: 'API', exact: true }).first().click();
  await expect(page.getByRole('heading', { name: 'API', exact: true })).toBeVisible();
  await expect(page.getByText('No API keys yet.')).toBeVisible();

  // Keyboard only: the form opens, fills and submits without a mouse.
  await page.getByRole('button', { name: 'Create key' }).focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'Create an API key' });
  await form.getByLabel('Name').fill('Telegram bot');
  await form.getByLabel('Daily spending cap, USD (optional)').fill('3');
  // A key outlives every session: creating one asks for the password.
  await form.getByLabel('Your password').fill(credentials.password);
  await form.getByLabel('Name').press('Enter');

  const created = page.getByRole('dialog', { name: 'Your new API key' });
  const secret = (await created.locator('code').first().textContent()) ?? '';
  expect(secret).toMatch(/^sc_[\w-]{43}$/);
  await created.getByRole('button', { name: 'I have copied it' }).click();
  // Never shown again: the page shows its first characters only.
  await expect(page.getByText(secret)).toHaveCount(0);
  await expect(page.getByText(`${secret.slice(0, 11)}…`)).toBeVisible();

  const call = async (params: Record<string, string>) =>
    (
      await request.get(`/stubs/handler_api.php?${new URLSearchParams({ api_key: secret, ...params })}`)
    ).text();
  expect(await call({ action: 'getBalance' })).toBe('ACCESS_BALANCE:5.00');
  const prices = JSON.parse(await call({ action: 'getPrices', country: '187' })) as Record<
    string,
    Record<string, { cost: number; count: number }>
  >;
  const [service] = Object.entries(prices['187']!).find(([, offer]) => offer.count > 0 && offer.cost <= 3)!;
  expect(await call({ action: 'getNumber', service, country: '187' })).toMatch(/^ACCESS_NUMBER:\d+:1\d{10}$/);

  await page.getByRole('link', { name: 'My Numbers', exact: true }).first().click();
  await expect(page.getByTitle('Bought through the API')).toBeVisible();

  await page.goto('/dashboard/api');
  await page.getByRole('button', { name: 'Revoke' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByText('Revoked', { exact: true })).toBeVisible();
  expect(await call({ action: 'getBalance' })).toBe('BAD_KEY');
});

test('the API documentation is public and lists every action with curl and JavaScript', async ({ page }) => {
  await page.goto('/docs/api');
  await expect(page.getByRole('heading', { name: 'Reseller API' })).toBeVisible();
  for (const action of ['getNumberV2', 'setStatus', 'getRentNumber', 'continueRentNumber']) {
    await expect(page.locator(`#${action}`).getByText(`action=${action}`)).toBeVisible();
    await expect(page.locator(`#${action}`).getByText(`action: '${action}'`)).toBeVisible();
  }
});

test('the API documentation shows the JSON API in curl, JavaScript and Python, and the MCP quick start', async ({
  page,
}) => {
  await page.goto('/docs/api');
  const buy = page.locator('#v1-buy');
  await expect(buy.getByRole('tab', { name: 'curl' })).toHaveAttribute('aria-selected', 'true');
  await expect(buy.getByText('-H "Idempotency-Key: $(uuidgen)"')).toBeVisible();
  await buy.getByRole('tab', { name: 'JavaScript' }).click();
  await expect(buy.getByText("simcode.POST('/orders'")).toBeVisible();
  // One choice of language holds for every example on the page.
  await page.locator('#v1-code').getByRole('tab', { name: 'Python' }).click();
  await expect(buy.getByText('session.post(')).toBeVisible();
  await expect(page.locator('#json-push').getByText('stream.iter_lines(')).toBeVisible();
  await expect(page.locator('#error-price_above_guard')).toBeVisible();
  await expect(page.locator('#mcp').getByText('"mcp-remote"')).toBeVisible();
  await expect(page.locator('#mcp').getByText('wait_for_code', { exact: true })).toBeVisible();
  await expect(buy.getByRole('button', { name: 'Copy example' })).toBeVisible();
  // At the top, as accessibility.spec.ts checks pages: scrolled, the translucent navbar sits over whatever
  // passes under it (a dark code block lowers its links' contrast), which is the navbar's matter, not this page's.
  await page.evaluate(() => window.scrollTo(0, 0));
  expect(await axeViolations(page, '/docs/api')).toEqual([]);
});
