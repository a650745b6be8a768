import { expect, type Locator, type Page } from '@playwright/test';

/**
 * Presses Tab (or Shift+Tab) until `target` has focus, as a keyboard user moves; fails when it is not
 * reached within `limit` presses. Returns the number of presses, for assertions on how far things are.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { backwards = false, limit = 40 }: { backwards?: boolean; limit?: number } = {},
): Promise<number> {
  await target.waitFor();
  for (let presses = 0; presses <= limit; presses += 1) {
    // The root node's active element: the ALTCHA checkbox lives in a shadow root.
    const focused = await target.evaluate(
      (element) => (element.getRootNode() as Document | ShadowRoot).activeElement === element,
    );
    if (focused) return presses;
    await page.keyboard.press(backwards ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${target} was not reached with ${limit} presses of ${backwards ? 'Shift+Tab' : 'Tab'}`);
}

/** Tabs to a field and types into it. */
export async function typeInto(
  page: Page,
  field: Locator,
  text: string,
  direction: { backwards?: boolean } = {},
): Promise<void> {
  await tabTo(page, field, direction);
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}

/** After a route change the new page's heading has focus and the change was announced politely. */
export async function expectRouteAnnounced(page: Page, heading: string | RegExp): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
  await expect(page.getByTestId('route-announcer')).toHaveText(heading);
  await expect(page.getByTestId('route-announcer')).toHaveAttribute('aria-live', 'polite');
}
