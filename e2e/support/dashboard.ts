import { expect, type Page } from '@playwright/test';
import { confirmCharge } from './layout';

/** Picks a country on the dashboard (through its search) and waits for its services. */
export async function chooseCountry(page: Page, name: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search countries' }).fill(name);
  // The row is the radio's label; the radio itself is visually hidden.
  await page.locator('label', { has: page.getByRole('radio', { name: new RegExp(`^${name}`) }) }).click();
  await expect(page.getByRole('list', { name: 'Services' }).getByRole('listitem').first()).toBeVisible();
}

/** Buys the service through its Buy button and the price confirmation, and waits for the success toast. */
export async function buyService(page: Page, serviceName: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search services' }).fill(serviceName);
  await page.getByRole('button', { name: new RegExp(`^Buy an? ${serviceName} number`) }).click();
  await confirmCharge(page, 'Buy');
  await expect(page.getByText(`Number purchased successfully for ${serviceName}`)).toBeVisible();
}
