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

/**
 * Confirms the dialog an action that charges shows first, by its button ('Buy for $0.50'). Routing may
 * have moved to a dearer provider since the list was built (an earlier test made another one fail): the
 * purchase is then refused with the new price and asks again, as a buyer would see, and that is confirmed.
 */
export async function confirmCharge(page: Page, action: string): Promise<number> {
  const dialog = page.getByRole('alertdialog');
  const confirm = dialog.getByRole('button', { name: new RegExp(`^${action} for \\$[\\d,]+\\.\\d\\d$`) });
  await expect(dialog.getByTestId('charge-price')).toHaveText(/^\$[\d,]+\.\d\d$/);
  const purchase =
    action === 'Buy'
      ? page.waitForResponse(
          (response) =>
            response.request().method() === 'POST' &&
            new URL(response.url()).pathname === '/api/dashboard/buy-number',
        )
      : undefined;
  /** The dollars on the button clicked last: what was charged. */
  const price = async () => Number((await confirm.textContent())!.replace(/^.*\$/, '').replace(/,/g, ''));
  let charged = await price();
  await confirm.click();
  if (purchase && (await purchase).status() === 409) {
    await expect(dialog.getByRole('heading', { name: 'The price changed' })).toBeVisible();
    charged = await price();
    await confirm.click();
  }
  await expect(dialog).toBeHidden();
  return charged;
}
