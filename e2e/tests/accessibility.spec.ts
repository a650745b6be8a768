import { type APIRequestContext, type BrowserContext, expect, type Page } from '@playwright/test';
import { adminToken } from '../support/admin';
import { newCredentials, useSession } from '../support/auth';
import { axeViolations } from '../support/axe';
import { chooseServiceFirst } from '../support/dashboard';
import { expectRouteAnnounced, tabTo, typeInto } from '../support/keyboard';
import { test } from '../support/test';
import { messageInput, messages, toast } from '../support/tickets';

/** The two widths every page is checked at: a desktop and a phone (WCAG 2.2 AA at both). */
const DESKTOP = { width: 1280, height: 800 };
const VIEWPORTS = [DESKTOP, { width: 390, height: 844 }];
/** What 1280 px shows at 400% zoom, and a small phone (WCAG 1.4.10). */
const NARROWEST = { width: 320, height: 640 };

interface View {
  name: string;
  /** Where to go first; '' stays on the page the previous view left. */
  path: string;
  /** What to do once the page is there (open a dialog, choose a country) before it is checked. */
  prepare?(page: Page): Promise<void>;
}

/** Waits until the page shows its heading and no loading placeholder, so axe sees the page as it stays. */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const placeholders = page.locator('div[aria-hidden="true"].animate-pulse');
  // The account forms keep their captcha's placeholder until the visitor's first interaction starts their
  // app (ADR 0034): a pointer move is one. Lighthouse's accessibility audit reads them before it.
  if (
    (await page.locator('#root[data-hydrate="on-interaction"]').count()) > 0 &&
    (await placeholders.count()) > 0
  ) {
    await page.mouse.move(5, 5);
    await page.mouse.move(10, 10);
  }
  await expect(placeholders).toHaveCount(0);
}

async function resize(page: Page, viewport: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(viewport);
  // The layout switches on media queries (a table becomes cards): let it render before checking.
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Opens every view and runs axe-core on it at both widths (resized in place: one load per view), then
 * checks that nothing needs a sideways scroll at 320 px; fails once at the end with everything found, so
 * one run shows all there is to fix. Reduced motion is on, so fade-ins are over at once and cannot pass
 * for a contrast failure.
 */
async function expectAccessible(page: Page, role: string, views: View[]): Promise<void> {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const failures: string[] = [];
  for (const view of views) {
    await resize(page, DESKTOP);
    if (view.path) {
      await page.goto(view.path);
      await settled(page);
    }
    await view.prepare?.(page);
    for (const viewport of VIEWPORTS) {
      await resize(page, viewport);
      failures.push(...(await axeViolations(page, `${role}, ${view.name} at ${viewport.width} px`)));
    }
    await resize(page, NARROWEST);
    const overflowPx = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (overflowPx > 0)
      failures.push(`${role}, ${view.name} at 320 px: ${overflowPx} px wider than the screen`);
  }
  expect(failures, `accessibility failures:\n${failures.join('\n')}`).toEqual([]);
}

/** The console ids of a customer, their first order and their first payment, through the admin API. */
async function consoleIds(
  request: APIRequestContext,
  token: string,
  username: string,
): Promise<{ user: number; order: number; payment: number }> {
  const headers = { authorization: `Bearer ${token}` };
  const get = async (path: string) => {
    const response = await request.get(path, { headers });
    expect(response.ok(), await response.text()).toBe(true);
    return response.json();
  };
  const { users } = await get(`/api/admin/users?q=${encodeURIComponent(username)}`);
  const user = users.find((row: { username: string }) => row.username === username).id;
  const { orders } = await get(`/api/admin/orders?user_id=${user}`);
  const { payments } = await get(`/api/admin/payments?user_id=${user}`);
  return { user, order: orders[0].id, payment: payments[0].id };
}

/** Both policies, one after the other on one page load: each dialog is checked while it is open. */
function policyDialogs(): View[] {
  return ['Terms of Service', 'Refund Policy'].map((title, index) => ({
    name: `the ${title} dialog`,
    path: index === 0 ? '/' : '',
    async prepare(page) {
      // Closes the previous one first (Escape does nothing when no dialog is open).
      await page.keyboard.press('Escape');
      await page.getByRole('contentinfo').getByRole('button', { name: title }).click();
      await expect(page.getByRole('dialog', { name: title })).toBeVisible();
    },
  }));
}

test('every public page, the 404 page and the policy dialogs pass axe-core at both widths, signed out', async ({
  page,
}) => {
  await expectAccessible(page, 'signed out', [
    { name: 'the landing page', path: '/' },
    { name: 'the FAQ', path: '/faq' },
    { name: 'the API documentation', path: '/docs/api' },
    { name: 'sign in', path: '/login' },
    { name: 'create account', path: '/register' },
    { name: 'forgot password', path: '/forgot-password' },
    // The token is only checked when the form is sent: a made-up one shows the page as a mailed link does.
    { name: 'reset password', path: '/reset-password#token=axe-check' },
    { name: 'reset password without its token', path: '/reset-password' },
    { name: 'confirm the e-mail address', path: '/confirm-email#token=axe-check' },
    { name: 'take an e-mail change back', path: '/revert-email#token=axe-check' },
    { name: 'the 404 page', path: '/no-such-page' },
    ...policyDialogs(),
  ]);
});

test.describe('one customer, keyboard only, then every signed-in page', () => {
  test.describe.configure({ mode: 'serial' });
  // One account for the whole journey: each step starts where the last one left the customer.
  let context: BrowserContext;
  let page: Page;
  let ticketPath = '';
  let customerName = '';
  const ticketTitle = `Keyboard only ${Date.now().toString(36)}`;

  test.beforeAll(async ({ browser }) => {
    context = await browser.newContext();
    page = await context.newPage();
  });
  test.afterAll(async () => {
    await context.close();
  });

  test('signs up with the keyboard alone', async () => {
    const credentials = newCredentials('keys');
    customerName = credentials.username;
    await page.goto('/register');
    // The form focuses its first field itself.
    await expect(page.getByLabel('Email')).toBeFocused();
    await page.keyboard.type(credentials.email);
    await typeInto(page, page.getByLabel('Username'), credentials.username);
    await typeInto(page, page.getByLabel('Password', { exact: true }), credentials.password);
    await typeInto(page, page.getByLabel('Repeat password'), credentials.password);
    await tabTo(page, page.locator('altcha-widget input[type="checkbox"]'));
    await page.keyboard.press('Space');
    await expect(page.locator('altcha-widget .altcha')).toHaveAttribute('data-state', 'verified', {
      timeout: 0,
    });
    await tabTo(page, page.getByRole('button', { name: 'Create Account' }));
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await expectRouteAnnounced(page, 'Dashboard');
  });

  test('tops up in the sandbox checkout with the keyboard alone', async () => {
    // From the focused heading back up to the navigation bar.
    await tabTo(
      page,
      page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Top Up', exact: true }),
      {
        backwards: true,
      },
    );
    await page.keyboard.press('Enter');
    await expectRouteAnnounced(page, 'Top Up Balance');
    await typeInto(page, page.getByLabel('Amount (USD)'), '6.00');
    await tabTo(page, page.getByRole('button', { name: 'Deposit $6.00' }));
    const popupOpened = context.waitForEvent('page');
    await page.keyboard.press('Enter');
    const popup = await popupOpened;
    await tabTo(popup, popup.getByRole('button', { name: 'Pay $6.00' }));
    await popup.keyboard.press('Enter');
    await page.waitForURL('**/dashboard');
    await expectRouteAnnounced(page, 'Dashboard');
    await expect(page.getByRole('region', { name: 'Account summary' })).toContainText('$6.00');
  });

  test('buys a number and reads its code with the keyboard alone; the code is announced, focus stays', async () => {
    await typeInto(page, page.getByRole('searchbox', { name: 'Search countries' }), 'United States');
    const country = page.getByRole('radio', { name: /^United States/ });
    await tabTo(page, country);
    await page.keyboard.press('Space');
    await expect(country).toBeChecked();

    // The services are one Tab stop: the arrows move between their Buy buttons, Tab leaves the list.
    const services = page.getByRole('list', { name: 'Services' });
    const buyButtons = services.getByRole('button', { name: /^Buy /, disabled: false });
    await expect(buyButtons.nth(1)).toBeVisible();
    expect(await tabTo(page, buyButtons.first(), { limit: 3 })).toBeGreaterThan(0);
    await page.keyboard.press('ArrowDown');
    await expect(buyButtons.nth(1)).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(services.locator(':focus')).toHaveCount(0);
    await page.keyboard.press('Shift+Tab');
    await expect(buyButtons.nth(1)).toBeFocused();

    // The search sits above the list: back from it, as a keyboard user would.
    await typeInto(page, page.getByRole('searchbox', { name: 'Search services' }), 'Telegram', {
      backwards: true,
    });
    const buy = page.getByRole('button', { name: /^Buy a Telegram number/ });
    await tabTo(page, buy);
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('alertdialog');
    await expect(confirm).toBeVisible();
    await tabTo(page, confirm.getByRole('button', { name: /^Buy for \$/ }), { limit: 5 });
    await page.keyboard.press('Enter');
    await expect(confirm).toBeHidden();
    // The dialog gave focus back to the button that opened it.
    await expect(buy).toBeFocused();
    await expect(toast(page, 'Number purchased successfully for Telegram')).toBeVisible();
    await expect(page.getByRole('region', { name: /Notifications/ })).toHaveAttribute('aria-live', 'polite');

    // The simulator sends the SMS a few seconds later: it arrives in a polite live region, focus stays put.
    const row = page.getByRole('region', { name: 'Active numbers' }).getByRole('listitem', {
      name: 'Telegram number in United States',
    });
    const code = row.getByTestId('active-number-code');
    await expect(code).toHaveText(/^[\d-]{4,7}$/, { timeout: 20_000 });
    await expect(row.locator('[aria-live="polite"]')).toContainText((await code.textContent()) ?? '');
    await expect(buy).toBeFocused();
    // And the code can be reached and copied from the keyboard: the bought number's card, at the top of the
    // Buy panel, shows it too.
    const bought = page.getByRole('region', { name: 'Your new number' });
    await expect(bought.getByTestId('bought-number-code')).toHaveText((await code.textContent()) ?? '');
    await tabTo(page, bought.getByRole('button', { name: /^Copy code / }), { backwards: true, limit: 20 });
  });

  test('opens a ticket and replies with the keyboard alone', async () => {
    await tabTo(page, page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Support' }), {
      backwards: true,
      limit: 80,
    });
    await page.keyboard.press('Enter');
    await expectRouteAnnounced(page, 'Support Tickets');
    await tabTo(page, page.getByRole('button', { name: 'New Ticket', exact: true }));
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Create New Support Ticket' });
    await expect(dialog).toBeVisible();
    await typeInto(page, dialog.getByLabel('Title'), ticketTitle);
    await typeInto(page, dialog.getByLabel('Description'), 'No SMS after ten minutes.');
    await tabTo(page, dialog.getByRole('button', { name: 'Submit Ticket' }), { limit: 5 });
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(toast(page, 'Ticket created')).toBeVisible();
    await expect(messages(page)).toHaveCount(1);

    await typeInto(page, messageInput(page), 'Still nothing, the number was +1 555 0100.');
    await page.keyboard.press('Enter');
    await expect(toast(page, 'Message sent')).toBeVisible();
    await expect(messages(page)).toHaveCount(2);
    ticketPath = new URL(page.url()).pathname + new URL(page.url()).search;
    expect(ticketPath).toMatch(/^\/dashboard\/tickets\?ticket=\d+$/);
  });

  test("every customer's page passes axe-core at both widths", async () => {
    // A cap, not an assertion: some fifteen pages, each at two widths and axe-checked, on a busy 2-core machine.
    test.setTimeout(360_000);
    const signedInViews: View[] = [
      {
        name: 'the dashboard with a country chosen and a number active',
        path: '/dashboard',
        async prepare(page) {
          await page.getByRole('searchbox', { name: 'Search countries' }).fill('United States');
          await page.getByRole('radio', { name: /^United States/ }).check({ force: true });
          await expect(
            page.getByRole('list', { name: 'Services' }).getByRole('listitem').first(),
          ).toBeVisible();
        },
      },
      {
        name: 'the dashboard by service, sorted by price',
        path: '/dashboard',
        async prepare(page) {
          await chooseServiceFirst(page, 'Telegram');
          await page.getByRole('columnheader', { name: 'Price' }).getByRole('button').click();
        },
      },
      { name: 'My Numbers', path: '/dashboard/numbers' },
      {
        name: 'the Report a problem dialog',
        path: '/dashboard/numbers',
        async prepare(page) {
          await page
            .getByRole('button', { name: /^Report a problem with order/ })
            .first()
            .click();
          await expect(page.getByRole('dialog', { name: /^Report a problem with order/ })).toBeVisible();
        },
      },
      { name: 'the long-term rental', path: '/dashboard/longterm' },
      { name: 'My Long-term Numbers', path: '/dashboard/longterm/numbers' },
      { name: 'the renewable number', path: '/dashboard/renewable' },
      { name: 'Top Up', path: '/dashboard/topup' },
      { name: 'Balance', path: '/dashboard/balance' },
      { name: 'API keys', path: '/dashboard/api' },
      { name: 'Account', path: '/dashboard/account' },
      {
        name: 'Account with the two-factor setup open',
        path: '',
        async prepare(page) {
          const section = page.getByRole('region', { name: 'Two-factor authentication' });
          await section.getByRole('button', { name: 'Turn on' }).click();
          await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();
        },
      },
      { name: 'the 404 page', path: '/dashboard/no-such-page' },
      {
        name: 'a ticket open',
        path: ticketPath,
        async prepare(page) {
          await expect(messages(page)).not.toHaveCount(0);
        },
      },
      {
        name: 'the New Ticket dialog',
        path: '/dashboard/tickets',
        async prepare(page) {
          await page.getByRole('button', { name: 'New Ticket', exact: true }).click();
          await expect(page.getByRole('dialog', { name: 'Create New Support Ticket' })).toBeVisible();
        },
      },
    ];
    await expectAccessible(page, 'customer', signedInViews);
  });

  test("every console page, and the customer's pages as the administrator sees them, passes axe-core", async ({
    browser,
  }) => {
    test.setTimeout(360_000);
    const adminContext = await browser.newContext();
    try {
      const adminPage = await adminContext.newPage();
      // Signed in through the API: the sign-in page is checked above, signed out.
      await useSession(adminContext, await adminToken(adminPage.request));
      // The console's pages about the customer of this journey: their account, the number they bought and
      // their top-up.
      const ids = await consoleIds(adminPage.request, await adminToken(adminPage.request), customerName);
      // The administrator sees the customer's pages as a customer does, except the tickets: everyone's,
      // with their authors and the status controls; and the operator console.
      await expectAccessible(adminPage, 'administrator', [
        { name: 'the console overview', path: '/admin' },
        { name: 'the console users', path: `/admin/users?q=${customerName}` },
        { name: "a user's console page", path: `/admin/users/${ids.user}` },
        {
          name: 'the credit or debit dialog',
          path: '',
          async prepare(page) {
            await page.getByRole('button', { name: 'Credit or debit' }).click();
            await expect(page.getByRole('dialog')).toBeVisible();
          },
        },
        { name: 'the console orders', path: '/admin/orders' },
        { name: "an order's console page", path: `/admin/orders/${ids.order}` },
        { name: 'the console rents', path: '/admin/rents' },
        { name: 'the console payments', path: '/admin/payments' },
        { name: "a payment's console page", path: `/admin/payments/${ids.payment}` },
        { name: 'the console pricing', path: '/admin/pricing' },
        { name: 'the console providers', path: '/admin/providers' },
        { name: 'the console audit log', path: '/admin/audit' },
        { name: 'the dashboard', path: '/dashboard' },
        { name: "everyone's tickets", path: '/dashboard/tickets' },
        // The administrator's view of the customer's ticket: author, status controls, reply box.
        {
          name: "a customer's ticket open",
          path: ticketPath,
          async prepare(page) {
            await expect(page.getByRole('heading', { level: 2, name: ticketTitle })).toBeVisible();
            await expect(messages(page)).toHaveCount(2);
          },
        },
      ]);
    } finally {
      await adminContext.close();
    }
  });
});
