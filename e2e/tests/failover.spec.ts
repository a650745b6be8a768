import { expect } from '@playwright/test';
import { signUpWithBalance } from '../support/admin';
import { buyService, chooseCountry } from '../support/dashboard';
import { simulatorControl, usPrices } from '../support/simulator';
import { test } from '../support/test';

/** Services the page names, by our code, with 5sim's product name. */
const SERVICES: Record<string, { name: string; product: string }> = {
  tg: { name: 'Telegram', product: 'telegram' },
  wa: { name: 'WhatsApp', product: 'whatsapp' },
  ig: { name: 'Instagram', product: 'instagram' },
  fb: { name: 'Facebook', product: 'facebook' },
  ds: { name: 'Discord', product: 'discord' },
};

test('with sim-a out of numbers for everything, a purchase is served by sim-b and its code arrives, with no error shown', {
  tag: '@smoke',
}, async ({ page, request }) => {
  // A service both sell, sim-b at most sim-a's cost: whichever routing ranks first, the other is within
  // the price quoted, so a failover to sim-b is allowed.
  const prices = await usPrices(
    request,
    Object.fromEntries(Object.entries(SERVICES).map(([code, service]) => [code, service.product])),
  );
  const code = Object.keys(SERVICES).find((service) => {
    const a = prices['sim-a'][service];
    const b = prices['sim-b'][service];
    return a && b && a.count > 0 && b.count > 0 && b.cost <= a.cost;
  });
  expect(code, 'a service sim-b sells in the US at most at sim-a’s cost').toBeDefined();
  const serviceName = SERVICES[code!]!.name;

  // sim-a speaks SMS-Activate's protocol: its purchase is getNumberV2.
  await simulatorControl(request, 'sim-a', 'fault', { action: 'getNumberV2', token: 'NO_NUMBERS', times: 0 });
  try {
    await signUpWithBalance(page, 20);
    await chooseCountry(page, 'United States');
    const errors: string[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/dashboard/buy-number') && !response.ok())
        errors.push(String(response.status()));
    });
    await buyService(page, serviceName);
    expect(errors).toEqual([]);

    await page.getByRole('link', { name: 'My Numbers' }).first().click();
    const number = page.locator(`[aria-label="${serviceName} number in United States"]`);
    await expect(number).toContainText(/\+1 \d{3} \d{3} \d{4}/);
    await expect(number.getByTestId('number-code')).toHaveText(/^[\d-]{4,7}$/, { timeout: 20_000 });
    await expect(page.getByRole('alert').filter({ hasText: /error|unavailable|no numbers/i })).toHaveCount(0);
  } finally {
    await simulatorControl(request, 'sim-a', 'clear-faults');
  }
});
