import { expect, type Page } from '@playwright/test';

/** Picks a country and a service on the rent or renewable page and waits for the price. */
export async function chooseRent(page: Page, country: string, service: string): Promise<void> {
  await page.getByRole('searchbox', { name: 'Search countries' }).fill(country);
  await page.locator('label', { has: page.getByRole('radio', { name: new RegExp(`^${country}`) }) }).click();
  await page.getByRole('searchbox', { name: 'Search services' }).fill(service);
  // The row is the radio's label; the radio itself is visually hidden.
  await page.locator('label', { has: page.getByRole('radio', { name: new RegExp(`^${service},`) }) }).click();
  await expect(page.getByTestId('rent-price')).toHaveText(/^\$\d+\.\d\d$/);
  await expect(page.getByRole('button', { name: 'Rent Now' })).toBeEnabled();
}

/** The user's rents as the API lists them, read with the page's own session. */
export async function rentsOf(
  page: Page,
): Promise<Array<{ order_id: string; number: string; end_date: string; service: { name: string } }>> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const response = await page.request.get('/api/dashboard/rents', {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).rents;
}
