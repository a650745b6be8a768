import { type Browser, expect, type Page } from '@playwright/test';
import { simulatorDefaults } from '../playwright.config';
import { adminToken, signUpWithBalance } from '../support/admin';
import {
  type Credentials,
  newCredentials,
  openExpectingSignIn,
  openSignedIn,
  registerThroughApi,
  signUpThroughApi,
  useSession,
} from '../support/auth';
import { buyService, chooseCountry } from '../support/dashboard';
import { expectNoHorizontalOverflow } from '../support/layout';
import { simulatorSettings } from '../support/simulator';
import { test } from '../support/test';
import { toast } from '../support/tickets';

/** The administrator in a page of their own (the customer keeps the test's page), at `path`. */
async function openConsole(browser: Browser, path = '/admin'): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await useSession(context, await adminToken(page.request));
  await openSignedIn(page, path);
  return page;
}

/** Finds a user by the console's search and opens their page. */
async function openUser(admin: Page, username: string): Promise<void> {
  await admin.goto('/admin/users');
  await admin.getByRole('searchbox', { name: 'Search users' }).fill(username);
  await admin.getByRole('button', { name: 'Search', exact: true }).click();
  await admin
    .getByRole('table', { name: 'Users' })
    .getByRole('link', { name: username, exact: true })
    .click();
  await expect(admin.getByRole('heading', { level: 1, name: username })).toBeVisible();
}

/** Fills the dialog's reason and confirms it with `button`, then waits for the server's message. */
async function confirmWithReason(
  admin: Page,
  button: string,
  reason: string,
  message: string,
): Promise<void> {
  const dialog = admin.getByRole('dialog');
  await dialog.getByLabel(/^Reason|^Note/).fill(reason);
  await dialog.getByRole('button', { name: button, exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect(toast(admin, message)).toBeVisible();
}

test('an administrator finds a user, credits $5 with a reason, and sees it in the ledger and the audit log', {
  tag: '@smoke',
}, async ({ browser, request }) => {
  const customer = newCredentials('credit');
  await registerThroughApi(request, customer);
  const admin = await openConsole(browser, '/admin/users');
  try {
    await openUser(admin, customer.username);
    await expect(admin.getByTestId('user-balance')).toHaveText('$0.00');

    const reason = `Goodwill ${Date.now().toString(36)}`;
    await admin.getByRole('button', { name: 'Credit or debit' }).click();
    const dialog = admin.getByRole('dialog', { name: `Adjust ${customer.username}'s balance` });
    await dialog.getByLabel('Amount (USD)').fill('5');
    await confirmWithReason(admin, 'Credit $5.00', reason, `$5.00 was credited to ${customer.username}.`);
    await expect(admin.getByTestId('user-balance')).toHaveText('$5.00');

    const ledger = admin.getByRole('table', { name: 'Ledger' });
    const entry = ledger.getByRole('row').filter({ hasText: reason });
    await expect(entry).toContainText('Adjustment');
    await expect(entry).toContainText('+$5.00');
    await expect(admin.getByRole('region', { name: 'Audit', exact: true })).toContainText(reason);

    await admin.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Audit log' }).click();
    await admin.getByRole('searchbox', { name: 'Search the audit log' }).fill(reason);
    await admin.getByRole('button', { name: 'Search', exact: true }).click();
    const logged = admin.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await expect(logged).toHaveCount(1);
    await expect(logged).toContainText('user.credit');
    await expect(logged).toContainText(reason);
    await logged.getByRole('link', { name: /^User #\d+$/ }).click();
    await expect(admin.getByRole('heading', { level: 1, name: customer.username })).toBeVisible();
  } finally {
    await admin.context().close();
  }
});

test("a markup override for a service in a country changes the price on the customer's dashboard", async ({
  page,
  browser,
  request,
}) => {
  const token = await adminToken(request);
  const headers = { authorization: `Bearer ${token}` };
  const before = await request.get('/api/admin/pricing', { headers });
  expect(before.ok(), await before.text()).toBe(true);
  const { rules } = await before.json();

  await signUpThroughApi(page);
  await chooseCountry(page, 'United Kingdom');
  await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
  const buy = page.getByRole('button', { name: /^Buy a Telegram number for \$[\d,]+\.\d\d$/ });
  const oldLabel = await buy.getAttribute('aria-label');

  const admin = await openConsole(browser, '/admin/pricing');
  try {
    await admin.getByRole('button', { name: 'Add override' }).click();
    const override = admin.getByRole('list', { name: 'Overrides' }).getByRole('listitem').last();
    await override.getByRole('combobox', { name: 'Service' }).click();
    await admin.getByRole('option', { name: 'Telegram', exact: true }).click();
    await override.getByRole('combobox', { name: 'Country' }).click();
    await admin.getByRole('option', { name: 'United Kingdom', exact: true }).click();
    await override.getByLabel('Markup (%)').fill('400');

    // The preview (of Telegram unless told) shows the new price before anything is saved.
    await admin.getByRole('button', { name: 'Preview' }).click();
    const row = admin
      .getByRole('table', { name: 'Prices of Telegram' })
      .getByRole('row', { name: /^United Kingdom/ });
    const newPrice = (await row.getByRole('cell').nth(2).innerText()).trim();
    expect(newPrice).toMatch(/^\$[\d,]+\.\d\d$/);
    expect(oldLabel).not.toBe(`Buy a Telegram number for ${newPrice}`);

    await admin.getByRole('button', { name: 'Save prices' }).click();
    await confirmWithReason(
      admin,
      'Save prices',
      'e2e: Telegram in the UK costs more',
      'The prices were saved. Every instance uses them from its next catalog refresh.',
    );
    await expect(admin.getByRole('region', { name: 'History', exact: true })).toContainText(
      'e2e: Telegram in the UK costs more',
    );

    // The catalog's answers are revalidated on every load: the customer's next reload shows the new price.
    await expect(async () => {
      await page.reload();
      await chooseCountry(page, 'United Kingdom');
      await page.getByRole('searchbox', { name: 'Search services' }).fill('Telegram');
      await expect(page.getByRole('button', { name: `Buy a Telegram number for ${newPrice}` })).toBeVisible({
        timeout: 10_000,
      });
    }).toPass({ timeout: 90_000 });
  } finally {
    await admin.context().close();
    // Later tests price their purchases with the rules they started with.
    const restore = await request.put('/api/admin/pricing', {
      headers,
      data: { ...rules, reason: 'e2e: back to the rules before the test' },
    });
    expect(restore.ok(), await restore.text()).toBe(true);
  }
});

test("an order refunded from the console puts the customer's money back", async ({
  page,
  browser,
  request,
}) => {
  const customer: Credentials = await signUpWithBalance(page, 5);
  // No code arrives, so the order stays open and refundable without forcing.
  await simulatorSettings(request, { noSmsRate: 1 });
  const admin = await openConsole(browser, '/admin/users');
  try {
    await chooseCountry(page, 'United States');
    await buyService(page, 'Telegram');
    await expect(page.getByRole('region', { name: 'Account summary' })).not.toContainText('$5.00');

    await openUser(admin, customer.username);
    const orders = admin.getByRole('region', { name: 'Orders', exact: true });
    await orders
      .getByRole('link', { name: /^Order #\d+$/ })
      .first()
      .click();
    await expect(admin.getByRole('heading', { level: 1, name: /^Order #\d+$/ })).toBeVisible();
    await admin.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = admin.getByRole('dialog');
    await expect(dialog.getByRole('checkbox')).toHaveCount(0);
    const price = ((await dialog.getByRole('button', { name: /^Refund \$/ }).innerText()) ?? '').replace(
      'Refund ',
      '',
    );
    await confirmWithReason(
      admin,
      `Refund ${price}`,
      'e2e: the customer asked for their money back',
      `The order was refunded: ${price} returned to the user.`,
    );
    await expect(admin.getByRole('region', { name: 'Order', exact: true })).toContainText(
      'Refunded by support',
    );
    const ledger = admin.getByRole('table', { name: 'Ledger' });
    await expect(ledger).toContainText('Refund');
    // In the operators' words, not the customer's "Canceled by you. The price was returned to your balance."
    await expect(ledger).toContainText('Refunded by support');
    await expect(ledger).not.toContainText('your balance');

    await page.reload();
    await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('$5.00');
  } finally {
    await admin.context().close();
    await simulatorSettings(request, { noSmsRate: simulatorDefaults.noSmsRate });
  }
});

test('a blocked user is signed out at their next request', async ({ page, browser }) => {
  const customer = await signUpThroughApi(page);
  const admin = await openConsole(browser, '/admin/users');
  try {
    await openUser(admin, customer.username);
    await admin.getByRole('button', { name: 'Block', exact: true }).click();
    await expect(admin.getByRole('dialog', { name: `Block ${customer.username}?` })).toBeVisible();
    await confirmWithReason(
      admin,
      'Block',
      'e2e: abuse',
      `${customer.username} is blocked and signed out everywhere.`,
    );
    await expect(admin.getByRole('region', { name: 'Account', exact: true })).toContainText('e2e: abuse');
    await expect(admin.getByRole('button', { name: 'Unblock' })).toBeVisible();

    // The customer's session ends at its next call to the API (or sooner: the live stream may already have
    // told the open page), so the next page it asks for is the sign-in page.
    await openExpectingSignIn(page, '/dashboard/balance');
    await expect(page.getByRole('button', { name: 'Sign In' })).toBeVisible();
  } finally {
    await admin.context().close();
  }
});

test('a signed-in user who is not an administrator gets the 404 page at /admin, and no Console link', async ({
  page,
}) => {
  await signUpThroughApi(page);
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Console' })).toHaveCount(0);
  for (const path of ['/admin', '/admin/users', '/admin/orders/1']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Oops! Page not found' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Console' })).toHaveCount(0);
  }
});

test('the console fits a 360 px phone: its menu opens, and no page scrolls sideways', async ({ browser }) => {
  const admin = await openConsole(browser, '/admin');
  try {
    await admin.setViewportSize({ width: 360, height: 780 });
    const nav = admin.getByRole('navigation', { name: 'Console' });
    await expect(nav.getByRole('link', { name: 'Users' })).toBeHidden();
    for (const [link, heading] of [
      ['Users', 'Users'],
      ['Orders', 'Orders'],
      ['Rents', 'Rents'],
      ['Payments', 'Payments'],
      ['Pricing', 'Pricing'],
      ['Providers', 'Providers'],
      ['Audit log', 'Audit log'],
      ['Overview', 'Overview'],
    ] as const) {
      await nav.getByRole('button', { name: /^Console:/ }).click();
      await nav.getByRole('link', { name: link, exact: true }).click();
      await expect(admin.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await expect(nav.getByRole('link', { name: link, exact: true })).toBeHidden();
      await expectNoHorizontalOverflow(admin);
    }
  } finally {
    await admin.context().close();
  }
});
