import { type Browser, type BrowserContext, expect, type Page } from '@playwright/test';
import { adminToken } from '../support/admin';
import { newCredentials, registerThroughApi, signUpThroughApi, useSession } from '../support/auth';
import { test } from '../support/test';
import {
  conversationHeading,
  messageInput,
  messages,
  openTicketStatus,
  openTicketThroughUi,
  REFRESH_WAIT,
  toast,
} from '../support/tickets';

const closedNote = 'This ticket is closed. You cannot send new messages.';
const waitingNote = 'This ticket is waiting for a reply from the support team.';

const contexts: BrowserContext[] = [];
test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  contexts.push(context);
  return context.newPage();
}

/**
 * A new user and the administrator, each in a browser context of their own, signed in through the API (the
 * sign-in pages have tests of their own). The user is on the tickets page; support opens it when the
 * user's tickets are there, so its first load shows them rather than the page's next 10 s refresh.
 */
async function userAndAdmin(browser: Browser) {
  const userPage = await newPage(browser);
  const adminPage = await newPage(browser);
  const user = newCredentials();
  await useSession(userPage.context(), await registerThroughApi(userPage.request, user));
  await useSession(adminPage.context(), await adminToken(adminPage.request));
  await userPage.goto('/dashboard/tickets');
  return { userPage, adminPage, user };
}

function ticketInList(page: Page, title: string) {
  return page.getByRole('list', { name: 'All Tickets' }).getByRole('button', { name: new RegExp(title) });
}

test('a user opens a ticket, support replies, the user sees it, support closes it and the user can no longer write', async ({
  browser,
}) => {
  const { userPage, adminPage, user } = await userAndAdmin(browser);
  const title = `No SMS for Telegram ${Date.now().toString(36)}`;

  await expect(userPage.getByText('No tickets yet')).toBeVisible();
  await openTicketThroughUi(userPage, {
    title,
    description: 'Bought +44 7700 900123, no code after 10 minutes.',
  });
  await expect(toast(userPage, 'Ticket created')).toBeVisible();
  await expect(openTicketStatus(userPage)).toHaveText('Open');
  await expect(messages(userPage)).toHaveCount(1);

  // Markup in a message is text: shown as typed, never run, never parsed into elements.
  const markup = '<script>window.__ticketXss = 1</script>';
  const image = '<img src=x onerror="window.__ticketXss = 2">';
  await messageInput(userPage).fill(markup);
  await messageInput(userPage).press('Shift+Enter');
  await messageInput(userPage).pressSequentially(image);
  await messageInput(userPage).press('Enter');
  await expect(toast(userPage, 'Message sent')).toBeVisible();
  await expect(messages(userPage)).toHaveCount(2);
  const bubble = messages(userPage).nth(1).locator('p');
  await expect(bubble).toHaveText(`${markup}\n${image}`);
  expect(await bubble.locator('script, img').count()).toBe(0);
  expect(await userPage.evaluate(() => (window as { __ticketXss?: number }).__ticketXss)).toBeUndefined();
  await expect(messages(userPage).nth(1)).toContainText('You');
  await expect(openTicketStatus(userPage)).toHaveText('Waiting for Reply');
  await expect(userPage.getByText(waitingNote)).toBeVisible();
  await expect(userPage.getByRole('button', { name: 'Close Ticket' })).toBeHidden();

  // Support finds it with the author's name and e-mail, and replies.
  await adminPage.goto('/dashboard/tickets');
  const item = ticketInList(adminPage, title);
  await expect(item).toContainText(`${user.username} · ${user.email}`, REFRESH_WAIT);
  await item.click();
  await expect(conversationHeading(adminPage, title)).toBeVisible();
  await expect(openTicketStatus(adminPage)).toHaveText('Waiting for Reply');
  await expect(messages(adminPage).nth(1).locator('p')).toHaveText(`${markup}\n${image}`);
  await messageInput(adminPage).fill('We refunded the number.\nPlease try another one.');
  await messageInput(adminPage).press('Enter');
  await expect(toast(adminPage, 'Reply sent')).toBeVisible();
  await expect(openTicketStatus(adminPage)).toHaveText('Open');

  // The user sees the reply and the new status without reloading.
  const reply = messages(userPage).nth(2);
  await expect(reply).toContainText('Support Team', REFRESH_WAIT);
  await expect(reply.locator('p')).toHaveText('We refunded the number.\nPlease try another one.');
  await expect(openTicketStatus(userPage)).toHaveText('Open');
  await expect(userPage.getByText(waitingNote)).toBeHidden();

  // Support closes it: the user can no longer write.
  await adminPage.getByRole('button', { name: 'Close Ticket' }).click();
  await expect(toast(adminPage, 'Ticket closed')).toBeVisible();
  await expect(openTicketStatus(adminPage)).toHaveText('Closed');
  await expect(adminPage.getByRole('button', { name: 'Close Ticket' })).toBeHidden();

  await expect(userPage.getByText(closedNote)).toBeVisible(REFRESH_WAIT);
  await expect(openTicketStatus(userPage)).toHaveText('Closed');
  await expect(messageInput(userPage)).toBeDisabled();
  await expect(userPage.getByRole('button', { name: 'Send message' })).toBeDisabled();

  // A reload keeps the ticket open on the page and shows the same.
  await userPage.reload();
  await expect(conversationHeading(userPage, title)).toBeVisible();
  await expect(messageInput(userPage)).toBeDisabled();
});

test("support's answer is marked unread in the navigation and the list until the user opens it", async ({
  browser,
}) => {
  const { userPage, adminPage } = await userAndAdmin(browser);
  const title = `Code rejected ${Date.now().toString(36)}`;
  await openTicketThroughUi(userPage, { title, description: 'The service says the code is wrong.' });
  await expect(toast(userPage, 'Ticket created')).toBeVisible();
  await userPage.goto('/dashboard');

  await adminPage.goto('/dashboard/tickets');
  await ticketInList(adminPage, title).click();
  await messageInput(adminPage).fill('Which service was it?');
  await messageInput(adminPage).press('Enter');
  await expect(toast(adminPage, 'Reply sent')).toBeVisible();

  // The user, elsewhere on the site, sees it arrive in the bar without reloading.
  const bar = userPage.getByRole('navigation', { name: 'Main' });
  const support = bar.getByRole('link', { name: 'Support (1 unread answer)' });
  await expect(support).toBeVisible(REFRESH_WAIT);
  await support.click();
  const item = userPage
    .getByRole('list', { name: 'Your Tickets' })
    .getByRole('button', { name: new RegExp(title) });
  await expect(item).toContainText('New reply');
  await item.click();
  await expect(messages(userPage).nth(1)).toContainText('Which service was it?');
  // Read: the marker goes from the bar and the list.
  await expect(bar.getByRole('link', { name: 'Support', exact: true })).toBeVisible(REFRESH_WAIT);
  await expect(item).not.toContainText('New reply', REFRESH_WAIT);
});

test('a user closes their open ticket; support sets a status, then deletes it after confirming', async ({
  browser,
}) => {
  const { userPage, adminPage } = await userAndAdmin(browser);
  const first = `Wrong price ${Date.now().toString(36)}`;
  const second = `Refund question ${Date.now().toString(36)}`;
  await openTicketThroughUi(userPage, { title: first, description: 'The price changed during checkout.' });
  await userPage.getByRole('button', { name: 'Close Ticket' }).click();
  await expect(toast(userPage, 'Ticket closed')).toBeVisible();
  await expect(userPage.getByText(closedNote)).toBeVisible();
  await openTicketThroughUi(userPage, { title: second, description: 'How long does a refund take?' });

  await adminPage.goto('/dashboard/tickets');
  await ticketInList(adminPage, second).click({ timeout: REFRESH_WAIT.timeout });
  await adminPage.getByRole('combobox', { name: 'Ticket status' }).click();
  await adminPage.getByRole('option', { name: 'Closed' }).click();
  // Each change by support names its reason, for the audit log.
  const statusDialog = adminPage.getByRole('alertdialog', { name: 'Change the status to Closed?' });
  await statusDialog.getByLabel('Reason (for the audit log)').fill('answered by mail');
  await statusDialog.getByRole('button', { name: 'Change status' }).click();
  await expect(toast(adminPage, 'Status updated')).toBeVisible();
  await expect(adminPage.getByText('Ticket status changed to Closed.')).toBeVisible();
  await expect(openTicketStatus(adminPage)).toHaveText('Closed');

  await adminPage.getByRole('button', { name: 'Delete Ticket' }).click();
  const confirm = adminPage.getByRole('alertdialog');
  await expect(confirm).toContainText('Are you sure you want to delete this ticket? This cannot be undone.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(conversationHeading(adminPage, second)).toBeVisible();

  await adminPage.getByRole('button', { name: 'Delete Ticket' }).click();
  await adminPage.getByRole('alertdialog').getByLabel('Reason (for the audit log)').fill('duplicate');
  await adminPage.getByRole('alertdialog').getByRole('button', { name: 'Delete Ticket' }).click();
  await expect(toast(adminPage, 'Ticket deleted')).toBeVisible();
  await expect(adminPage.getByRole('heading', { name: 'Select a Ticket' })).toBeVisible();
  await expect(ticketInList(adminPage, second)).toHaveCount(0);

  // The user's list loses it by the next refresh; the closed first ticket stays.
  const userList = userPage.getByRole('list', { name: 'Your Tickets' });
  await expect(userList.getByRole('button', { name: new RegExp(second) })).toHaveCount(0, REFRESH_WAIT);
  await expect(userList.getByRole('button', { name: new RegExp(first) })).toContainText('Closed');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the list and the open ticket take the screen in turn, with a back button', async ({ page }) => {
    await signUpThroughApi(page, { at: '/dashboard/tickets' });
    const list = page.getByRole('region', { name: 'Your Tickets' });
    const conversation = page.getByRole('region', { name: 'Conversation' });
    await expect(list).toBeVisible();
    await expect(conversation).toBeHidden();

    const title = `Phone ticket ${Date.now().toString(36)}`;
    await openTicketThroughUi(page, { title, description: 'Written on a small screen.' });
    await expect(list).toBeHidden();
    await messageInput(page).fill('Still here');
    await messageInput(page).press('Enter');
    await expect(messages(page)).toHaveCount(2);
    const pageWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(pageWidth).toBeLessThanOrEqual(360);

    await page.getByRole('button', { name: 'Back to tickets' }).click();
    await expect(conversation).toBeHidden();
    await expect(list.getByRole('button', { name: new RegExp(title) })).toBeVisible();
    await list.getByRole('button', { name: new RegExp(title) }).click();
    await expect(conversationHeading(page, title)).toBeVisible();
    // The phone's own back button returns to the list as well.
    await page.goBack();
    await expect(list).toBeVisible();
  });
});
