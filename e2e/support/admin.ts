import { type APIRequestContext, type Browser, expect } from '@playwright/test';
import { e2eAdmin } from '../playwright.config';
import { loginThroughUi } from './auth';

/** Signs the administrator in through the real login page (captcha included) and returns the token. */
export async function adminToken(browser: Browser): Promise<string> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await loginThroughUi(page, e2eAdmin);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    if (!token) throw new Error('the administrator has no token after signing in');
    return token;
  } finally {
    await context.close();
  }
}

/** Gives a user money the way support does: a ledger adjustment through the admin API. */
export async function creditUser(
  request: APIRequestContext,
  token: string,
  username: string,
  dollars: number,
): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const lookup = await request.get(`/api/admin/users/lookup?username=${encodeURIComponent(username)}`, {
    headers,
  });
  expect(lookup.ok()).toBe(true);
  const { user } = await lookup.json();
  const adjustment = await request.post(`/api/admin/users/${user.id}/adjustments`, {
    headers,
    data: { amount: dollars, note: 'e2e test funds' },
  });
  expect(adjustment.ok(), await adjustment.text()).toBe(true);
}
