import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { e2eSimulatorKey } from '../playwright.config';
import { adminToken } from './admin';
import { confirmCharge } from './layout';
import { type SimulatorName, simulatorPrefixes } from './simulator';

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

/** Switches the dashboard to "By service" and chooses a service, waiting for the countries selling it. */
export async function chooseServiceFirst(page: Page, serviceName: string): Promise<void> {
  await page.locator('label', { has: page.getByRole('radio', { name: 'By service' }) }).click();
  await page.getByRole('searchbox', { name: 'Search services' }).fill(serviceName);
  await page.locator('label', { has: page.getByRole('radio', { name: serviceName, exact: true }) }).click();
  await expect(countryRows(page, serviceName).first()).toBeVisible();
}

/** The rows of the "By service" table (one per country selling the service). */
export function countryRows(page: Page, serviceName: string) {
  return page.getByRole('table', { name: `Countries selling ${serviceName}` }).getByTestId('service-country');
}

/** A card of My Numbers by its service and country, and the order id its Details button names. */
export async function numberCard(page: Page, name: string) {
  const card = page.locator(`[aria-label="${name}"]`);
  const details = card.getByRole('button', { name: /^Details of order #\d+$/ });
  const label = (await details.getAttribute('aria-label')) ?? '';
  return { card, orderId: Number(label.replace(/\D/g, '')) };
}

/** Delivers an SMS to one of our orders at once, through the simulator that sold it. */
export async function deliverSmsToOrder(
  request: APIRequestContext,
  orderId: number,
  text: string,
  code: string,
): Promise<void> {
  const headers = { authorization: `Bearer ${await adminToken(request)}` };
  const detail = await request.get(`/api/admin/orders/${orderId}`, { headers });
  expect(detail.ok(), await detail.text()).toBe(true);
  const { order } = (await detail.json()) as {
    order: { provider: SimulatorName; provider_order_id: string };
  };
  const response = await request.post(`${simulatorPrefixes[order.provider]}/control/sms`, {
    headers: { 'x-simulator-key': e2eSimulatorKey },
    data: { activationId: order.provider_order_id, text, code },
  });
  expect(response.ok(), await response.text()).toBe(true);
}
