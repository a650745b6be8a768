import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { signUpWithBalance } from '../support/admin';
import { test } from '../support/test';

/**
 * Code alerts, checked through the page: an init script counts the oscillators the chime starts and records
 * the notifications shown and the permission requests, so nothing depends on hearing or on timing.
 */
declare global {
  interface Window {
    oscillatorsStarted: number;
    notificationsShown: { title: string; body?: string }[];
    permissionRequests: number;
  }
}

function recordAlerts() {
  window.oscillatorsStarted = 0;
  const createOscillator = BaseAudioContext.prototype.createOscillator;
  BaseAudioContext.prototype.createOscillator = function (this: BaseAudioContext) {
    window.oscillatorsStarted += 1;
    return createOscillator.call(this);
  };
  window.notificationsShown = [];
  window.permissionRequests = 0;
  const Original = window.Notification;
  class Recorded extends Original {
    constructor(title: string, options?: NotificationOptions) {
      window.notificationsShown.push({ title, body: options?.body });
      super(title, options);
    }
    static override get permission() {
      return Original.permission;
    }
    static override requestPermission(callback?: NotificationPermissionCallback) {
      window.permissionRequests += 1;
      return Original.requestPermission(callback);
    }
  }
  window.Notification = Recorded;
}

/** Buys a WhatsApp number in the United States through the API, as another tab or a script would. */
async function buyThroughApi(page: Page, request: APIRequestContext): Promise<number> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const headers = { authorization: `Bearer ${token}` };
  const countries = (await (await request.get('/api/dashboard/countries', { headers })).json()) as {
    countries: { id: string; name: string }[];
  };
  const country = countries.countries.find((each) => each.name === 'United States')!;
  const bought = await request.post('/api/dashboard/buy-number', {
    headers,
    data: { countryID: country.id, service: 'wa' },
  });
  expect(bought.ok(), await bought.text()).toBe(true);
  return ((await bought.json()) as { number: { id: number } }).number.id;
}

/** The code the number received, as the API tells it. */
async function codeOf(page: Page, request: APIRequestContext, numberId: number): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('token'));
  let code: string | null = null;
  await expect
    .poll(async () => {
      const answer = await request.get('/api/dashboard/numbers?state=live', {
        headers: { authorization: `Bearer ${token}` },
      });
      const { numbers } = (await answer.json()) as { numbers: { id: number; code: string | null }[] };
      code = numbers.find((number) => number.id === numberId)?.code ?? null;
      return code;
    })
    .not.toBeNull();
  return code!;
}

/** The navigation bar's bell, by its button's name. */
const alertsMenu = (page: Page) => page.locator('summary', { hasText: 'Code alerts' });

const oscillators = (page: Page) => page.evaluate(() => window.oscillatorsStarted);

test('a code arriving on another page shows in the tab title and plays the sound, until muted', async ({
  page,
  request,
}) => {
  await page.addInitScript(recordAlerts);
  await signUpWithBalance(page, 40, '/dashboard/account');
  const pageTitle = await page.title();
  // The menu is there once the alerts have loaded: they are watching from then on.
  await expect(alertsMenu(page)).toBeVisible();
  expect(await oscillators(page)).toBe(0);

  const first = await codeOf(page, request, await buyThroughApi(page, request));
  await expect(page).toHaveTitle(`${first} · ${pageTitle}`);
  await expect.poll(() => oscillators(page)).toBeGreaterThan(0);

  // Muted: the next code still shows in the title (the click on the menu put the title back), silently.
  await alertsMenu(page).click();
  await page.getByRole('switch', { name: 'Play a sound' }).click();
  await expect(page.getByRole('switch', { name: 'Play a sound' })).toHaveAttribute('aria-checked', 'false');
  await expect(page).toHaveTitle(pageTitle);
  const heard = await oscillators(page);
  const second = await codeOf(page, request, await buyThroughApi(page, request));
  await expect(page).toHaveTitle(`${second} · ${pageTitle}`);
  expect(await oscillators(page)).toBe(heard);

  // The choice is remembered.
  await page.reload();
  await alertsMenu(page).click();
  await expect(page.getByRole('switch', { name: 'Play a sound' })).toHaveAttribute('aria-checked', 'false');
});

test('a browser notification is asked for only once turned on, and names the service and the code', async ({
  page,
  context,
  request,
}) => {
  await context.grantPermissions(['notifications']);
  await page.addInitScript(recordAlerts);
  await signUpWithBalance(page, 40, '/dashboard/topup');
  await expect(alertsMenu(page)).toBeVisible();

  // Off by default: a code arrives without a notification, and no permission was asked for.
  const pageTitle = await page.title();
  const first = await codeOf(page, request, await buyThroughApi(page, request));
  await expect(page).toHaveTitle(`${first} · ${pageTitle}`);
  expect(await page.evaluate(() => window.permissionRequests)).toBe(0);
  expect(await page.evaluate(() => window.notificationsShown)).toEqual([]);

  await alertsMenu(page).click();
  const notifications = page.getByRole('switch', { name: 'Show a browser notification' });
  await expect(notifications).toHaveAttribute('aria-checked', 'false');
  await notifications.click();
  await expect(notifications).toHaveAttribute('aria-checked', 'true');
  expect(await page.evaluate(() => window.permissionRequests)).toBe(1);

  const second = await codeOf(page, request, await buyThroughApi(page, request));
  await expect
    .poll(() => page.evaluate(() => window.notificationsShown.map((shown) => shown.title)))
    .toEqual([`WhatsApp code: ${second}`]);
});
