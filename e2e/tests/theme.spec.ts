import { expect, type Page } from '@playwright/test';
import { signUpThroughApi } from '../support/auth';
import { axeViolations } from '../support/axe';
import { currentBaseURL, test } from '../support/test';

/** The page's background as the eye sees it: the mean of its red, green and blue (0 black to 255 white). */
function bodyBrightness(page: Page): Promise<number> {
  return page.evaluate(() => {
    const context = document.createElement('canvas').getContext('2d')!;
    context.fillStyle = getComputedStyle(document.body).backgroundColor;
    context.fillRect(0, 0, 1, 1);
    const [red = 0, green = 0, blue = 0] = context.getImageData(0, 0, 1, 1).data;
    return (red + green + blue) / 3;
  });
}

/** A menu of the navigation bar by its button's name. */
const menuButton = (page: Page, name: string) => page.locator('summary', { hasText: name });

const DARK = 80;
const LIGHT = 240;

test.describe('on a system set to dark', () => {
  test.use({ colorScheme: 'dark' });

  test('the pages are dark from the first paint: in the HTML as served, before any script, and after', async ({
    browser,
    page,
  }) => {
    const withoutScript = await browser.newContext({
      colorScheme: 'dark',
      javaScriptEnabled: false,
      baseURL: currentBaseURL(),
    });
    const served = await withoutScript.newPage();
    for (const path of ['/', '/faq', '/login', '/dashboard']) {
      await served.goto(path);
      expect(await bodyBrightness(served), path).toBeLessThan(DARK);
    }
    await withoutScript.close();

    await page.goto('/');
    expect(await bodyBrightness(page)).toBeLessThan(DARK);
    await signUpThroughApi(page);
    expect(await bodyBrightness(page)).toBeLessThan(DARK);
  });

  test('a switch to light holds across a reload, served light (no flash), and back to the system', async ({
    page,
  }) => {
    await page.goto('/faq');
    await menuButton(page, 'Theme: System').click();
    await page.getByRole('button', { name: 'Light' }).click();
    await expect(page.locator('html')).toHaveClass('light');
    expect(await bodyBrightness(page)).toBeGreaterThan(LIGHT);

    const reloaded = await page.reload();
    // The class is in the HTML the server sent, so the first paint is light before any script runs.
    expect(await reloaded!.text()).toContain('<html class="light" lang="en">');
    expect(await bodyBrightness(page)).toBeGreaterThan(LIGHT);
    // Every page, also the app's own: the choice is a cookie the server reads.
    await signUpThroughApi(page, { at: '/dashboard/account' });
    await page.context().addCookies([{ name: 'simcode_theme', value: 'light', url: currentBaseURL() }]);
    await page.reload();
    await expect(page.locator('html')).toHaveClass('light');
    expect(await bodyBrightness(page)).toBeGreaterThan(LIGHT);

    await menuButton(page, 'Theme: Light').click();
    await page.getByRole('button', { name: 'System' }).click();
    await expect(page.locator('html')).not.toHaveClass(/light|dark/);
    expect(await bodyBrightness(page)).toBeLessThan(DARK);
    const followingSystem = await page.reload();
    expect(await followingSystem!.text()).toContain('<html lang="en">');
    expect(await bodyBrightness(page)).toBeLessThan(DARK);
  });

  test('the landing page, the dashboard and the menus pass axe in dark', async ({ page }) => {
    await page.goto('/');
    expect(await axeViolations(page, '/ dark')).toEqual([]);
    await signUpThroughApi(page);
    await page.getByRole('searchbox', { name: 'Search countries' }).fill('United States');
    await page.locator('label', { has: page.getByRole('radio', { name: /^United States/ }) }).click();
    await expect(page.getByRole('list', { name: 'Services' }).getByRole('listitem').first()).toBeVisible();
    expect(await axeViolations(page, '/dashboard dark')).toEqual([]);
    await menuButton(page, 'Code alerts').click();
    await expect(page.getByRole('switch', { name: 'Play a sound' })).toBeVisible();
    expect(await axeViolations(page, '/dashboard dark, alerts menu')).toEqual([]);
  });
});

test('a light system gets light pages, and a dark choice is served dark', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  expect(await bodyBrightness(page)).toBeGreaterThan(LIGHT);
  await menuButton(page, 'Theme: System').click();
  await page.getByRole('button', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveClass('dark');
  expect(await bodyBrightness(page)).toBeLessThan(DARK);
  const reloaded = await page.reload();
  expect(await reloaded!.text()).toContain('<html class="dark" lang="en">');
  expect(await bodyBrightness(page)).toBeLessThan(DARK);
});
