import { randomUUID } from 'node:crypto';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { e2eAdmin } from '../playwright.config';
import {
  type Credentials,
  loginThroughApi,
  newCredentials,
  openSignedIn,
  registerThroughApi,
  useSession,
} from './auth';

let adminSession: Promise<string> | undefined;

/**
 * The administrator's token: signed in through the API (captcha included) once per worker, since no test
 * signs the administrator out; the sign-in page has tests of its own.
 */
export function adminToken(request: APIRequestContext): Promise<string> {
  adminSession ??= loginThroughApi(request, e2eAdmin).catch((error: unknown) => {
    adminSession = undefined;
    throw error;
  });
  return adminSession;
}

/** Gives a user money the way support does: a ledger adjustment through the admin API. */
export async function creditUser(
  request: APIRequestContext,
  token: string,
  username: string,
  dollars: number,
): Promise<void> {
  const headers = { authorization: `Bearer ${token}` };
  const search = await request.get(`/api/admin/users?q=${encodeURIComponent(username)}`, { headers });
  expect(search.ok()).toBe(true);
  const user = (await search.json()).users.find((row: { username: string }) => row.username === username);
  expect(user, `user ${username}`).toBeDefined();
  const adjustment = await request.post(`/api/admin/users/${user.id}/adjustments`, {
    headers,
    data: { amount: dollars, reason: 'e2e test funds', idempotency_key: randomUUID() },
  });
  expect(adjustment.ok(), await adjustment.text()).toBe(true);
}

/**
 * A new customer with `dollars` on the balance, signed in without the sign-up form, on the dashboard (or
 * the page `at`): the money arrives before the first page load, so the page shows it without a reload.
 */
export async function signUpWithBalance(
  page: Page,
  dollars: number,
  at = '/dashboard',
): Promise<Credentials> {
  const credentials = newCredentials();
  const token = await registerThroughApi(page.request, credentials);
  await creditUser(page.request, await adminToken(page.request), credentials.username, dollars);
  await useSession(page.context(), token);
  await openSignedIn(page, at);
  return credentials;
}
