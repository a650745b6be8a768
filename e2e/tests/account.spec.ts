import { expect, type Page } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import {
  loginThroughApi,
  loginThroughUi,
  openExpectingSignIn,
  signUpThroughApi,
  solveCaptcha,
  useSession,
} from '../support/auth';
import { test } from '../support/test';

const TOTP_PERIOD_MS = 30_000;

/** The code an authenticator app shows for this secret, `stepsAhead` periods from now. */
function totpCode(secret: string, stepsAhead = 0): string {
  return new OTPAuth.TOTP({
    secret: OTPAuth.Secret.fromBase32(secret),
    digits: 6,
    period: TOTP_PERIOD_MS / 1000,
    algorithm: 'SHA1',
  }).generate({ timestamp: Date.now() + stepsAhead * TOTP_PERIOD_MS });
}

/**
 * Opens the newest message of the development outbox sent to `address` with a subject matching `subject`.
 * Mail leaves through a queue a moment after the request, so the list is read again until it is there.
 */
async function openNewestMail(page: Page, address: string, subject: RegExp): Promise<void> {
  const row = page.getByRole('listitem').filter({ hasText: address }).filter({ hasText: subject }).first();
  await expect(async () => {
    await page.goto('/dev/outbox');
    await expect(row).toBeVisible({ timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  await row.getByRole('link').click();
  await expect(page.getByRole('heading', { level: 1, name: subject })).toBeVisible();
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

async function submitSignIn(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

test('a forgotten password is reset through the link mailed to the account, and only the new one works', async ({
  page,
}) => {
  const credentials = await signUpThroughApi(page);
  await signOut(page);

  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(credentials.email);
  await solveCaptcha(page);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  // The same sentence whether or not the address has an account.
  await expect(page.getByRole('status')).toContainText('If an account uses this address');

  await openNewestMail(page, credentials.email, /reset your password/);
  await page.getByRole('link', { name: /\/reset-password#token=/ }).click();
  await expect(page).toHaveURL(/\/reset-password#token=/);
  const newPassword = 'new-password-456';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel('Repeat new password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been reset');

  // The link works once.
  await page.reload();
  await page.getByLabel('New password', { exact: true }).fill('another-password-789');
  await page.getByLabel('Repeat new password', { exact: true }).fill('another-password-789');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.locator('form [role="alert"]')).toHaveText(
    'This link is invalid or has expired. Please ask for a new one.',
  );

  await submitSignIn(page, credentials.username, credentials.password);
  await expect(page.locator('form [role="alert"]')).toHaveText('Invalid username or password.');
  await loginThroughUi(page, { username: credentials.username, password: newPassword });
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('two-factor authentication is turned on from the account page, then signing in asks for a code and forgives a typo', async ({
  page,
}) => {
  const credentials = await signUpThroughApi(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Profile' })).toContainText(credentials.email);

  const section = page.getByRole('region', { name: 'Two-factor authentication' });
  await section.getByRole('button', { name: 'Turn on' }).click();
  await expect(section.getByRole('img', { name: /QR code/ })).toBeVisible();
  const secret = ((await section.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);

  await section.getByLabel('Code from the app').fill(totpCode(secret));
  await section.getByRole('button', { name: 'Confirm and turn on' }).click();
  const codes = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect(codes).toHaveCount(10);
  await expect(section).toContainText('shown only this once');
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await expect(codes).toHaveCount(0);
  await expect(section.getByTestId('two-factor-status')).toHaveText('On');
  await expect(section.getByTestId('recovery-codes-left')).toContainText('10 of 10');

  await signOut(page);
  await submitSignIn(page, credentials.username, credentials.password);
  const code = page.getByLabel('Authentication code');
  await expect(code).toBeFocused();
  await expect(page.getByText('Enter the 6-digit code from your authenticator app')).toBeVisible();
  // A typo costs one try, not the account: the right code right after it still signs in (issue 34).
  const right = totpCode(secret, 1);
  const typo = right.slice(0, 5) + ((Number(right[5]) + 1) % 10);
  await code.fill(typo);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await expect(page.getByText('This code is not valid. Please try again.')).toBeVisible();
  // A code works once, and turning on may have spent this period's: the app's next code is also accepted
  // (one period of clock drift either way) and is newer than any code used so far.
  await code.fill(right);
  await page.getByRole('button', { name: 'Verify and sign in' }).click();
  await page.waitForURL('**/dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
});

test('the e-mail address changes once the link sent to the new one is confirmed; another session is signed out from the list', async ({
  page,
  browser,
}) => {
  const credentials = await signUpThroughApi(page);
  // A second device signed in to the same account.
  const otherContext = await browser.newContext();
  try {
    const other = await otherContext.newPage();
    await useSession(otherContext, await loginThroughApi(other.request, credentials));

    await page.goto('/dashboard/account');
    const newEmail = `new_${credentials.email}`;
    const emailForm = page.getByRole('form', { name: 'Change e-mail address' });
    await emailForm.getByLabel('New e-mail address').fill(newEmail);
    await emailForm.getByLabel('Current password', { exact: true }).fill(credentials.password);
    await emailForm.getByRole('button', { name: 'Send confirmation link' }).click();
    await expect(emailForm.getByRole('status')).toHaveText(
      `We have sent a confirmation link to ${newEmail}. Your address changes when you open it.`,
    );

    await openNewestMail(page, newEmail, /confirm your new e-mail address/);
    await page.getByRole('link', { name: /\/confirm-email#token=/ }).click();
    await expect(page).toHaveURL(/\/confirm-email#token=/);
    await page.getByRole('button', { name: 'Confirm my new address' }).click();
    await expect(page.getByRole('status')).toHaveText(`Your e-mail address is now ${newEmail}.`);
    await page.getByRole('link', { name: 'Go to your account' }).click();
    await expect(page.getByRole('region', { name: 'Profile' })).toContainText(newEmail);

    const sessions = page.getByRole('list', { name: 'Sessions' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    await expect(sessions.first()).toContainText('This device');
    await sessions
      .nth(1)
      .getByRole('button', { name: /^Sign out/ })
      .click();
    await expect(sessions).toHaveCount(1);
    // The other device's token no longer works: its next request sends it to the sign-in page, which says why.
    await openExpectingSignIn(other, '/dashboard/account');
    await expect(other.getByRole('status')).toHaveText('Your session ended. Sign in again to continue.');
  } finally {
    await otherContext.close();
  }
});
