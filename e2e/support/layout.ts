import { expect, type Page } from '@playwright/test';

/** Nothing on the page is wider than the viewport: no sideways scrolling on a phone. */
export async function expectNoHorizontalOverflow(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth))
    .toBeLessThanOrEqual(0);
}

/** The page ends with its footer: no blank scroll area below it. */
export async function expectPageEndsAtFooter(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(() => {
        const footer = document.querySelector('footer');
        if (!footer) return Number.POSITIVE_INFINITY;
        return (
          document.documentElement.scrollHeight - (footer.getBoundingClientRect().bottom + window.scrollY)
        );
      }),
    )
    .toBeLessThanOrEqual(1);
}

/** Confirms the dialog an action that charges shows first, by its button ('Buy for $0.50'). */
export async function confirmCharge(page: Page, action: string): Promise<void> {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog.getByTestId('charge-price')).toHaveText(/^\$[\d,]+\.\d\d$/);
  await dialog.getByRole('button', { name: new RegExp(`^${action} for \\$[\\d,]+\\.\\d\\d$`) }).click();
  await expect(dialog).toBeHidden();
}
