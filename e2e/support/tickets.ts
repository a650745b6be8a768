import { expect, type Page } from '@playwright/test';

/** Opens a ticket from the New Ticket dialog and waits until it is shown selected. */
export async function openTicketThroughUi(page: Page, fields: { title: string; description: string }) {
  await page.getByRole('button', { name: 'New Ticket', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Create New Support Ticket' });
  await dialog.getByLabel('Title').fill(fields.title);
  await dialog.getByLabel('Description').fill(fields.description);
  await dialog.getByRole('button', { name: 'Submit Ticket' }).click();
  await expect(dialog).toBeHidden();
  await expect(conversationHeading(page, fields.title)).toBeVisible();
}

export function conversationHeading(page: Page, title: string) {
  return page.getByRole('region', { name: 'Conversation' }).getByRole('heading', { level: 2, name: title });
}

/** The status badge in the header of the open ticket. */
export function openTicketStatus(page: Page) {
  return page.getByRole('region', { name: 'Conversation' }).locator('header [data-status]');
}

export function messages(page: Page) {
  return page.getByRole('list', { name: 'Messages' }).getByRole('listitem');
}

export function messageInput(page: Page) {
  return page.getByRole('textbox', { name: 'Message' });
}

export function toast(page: Page, title: string) {
  return page.getByRole('region', { name: /Notifications/ }).getByText(title, { exact: true });
}

/** The replies of the other side arrive by the page's own 10 s refresh: wait for one round and a bit. */
export const REFRESH_WAIT = { timeout: 25_000 };
