import { createRequire } from 'node:module';
import {
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  expect,
  type Page,
} from '@playwright/test';
import { currentBaseURL } from './test';

export interface Credentials {
  username: string;
  password: string;
  email: string;
}

let sequence = 0;
export function newCredentials(prefix = 'user'): Credentials {
  sequence += 1;
  const username = `${prefix}_${Date.now().toString(36)}${sequence}`.slice(0, 19);
  return { username, password: 'password-123', email: `${username}@e2e.test` };
}

/**
 * Submits a sign-in or registration form and waits for its outcome: the dashboard, or the form's error,
 * which fails the test at once with the product's own words instead of a timeout. No wait here is timed:
 * on a busy machine the proof of work, the password hash and the page take what they take.
 */
async function submitToDashboard(page: Page, buttonName: string): Promise<void> {
  await page.getByRole('button', { name: buttonName }).click();
  const formError = page.locator('form [role="alert"]').first();
  const failure = await Promise.race([
    page.waitForURL(/\/dashboard(\?|$)/).then(() => null),
    formError.waitFor({ state: 'visible', timeout: 0 }).then(() => formError.textContent()),
  ]);
  if (failure !== null) throw new Error(`${buttonName} did not reach the dashboard: ${failure}`);
}

/** Ticks the ALTCHA checkbox and waits until the browser has solved the proof of work. */
export async function solveCaptcha(page: Page): Promise<void> {
  await page.locator('altcha-widget input[type="checkbox"]').click({ force: true });
  // The proof of work runs in the browser: on a busy machine it takes longer than an assertion's default.
  await expect(page.locator('altcha-widget .altcha')).toHaveAttribute('data-state', 'verified', {
    timeout: 0,
  });
}

/** Signs up through the form; `opened` when the page already shows it (a link led there). */
export async function registerThroughUi(
  page: Page,
  credentials: Credentials = newCredentials(),
  { opened = false }: { opened?: boolean } = {},
): Promise<Credentials> {
  if (!opened) await page.goto('/register');
  await page.getByLabel('Email').fill(credentials.email);
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByLabel('Repeat password').fill(credentials.password);
  await solveCaptcha(page);
  await submitToDashboard(page, 'Create Account');
  return credentials;
}

export async function loginThroughUi(
  page: Page,
  credentials: Pick<Credentials, 'username' | 'password'>,
): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await solveCaptcha(page);
  await submitToDashboard(page, 'Sign In');
}

/**
 * altcha-lib, the library the server verifies with (a dependency of apps/server, solved here as its own
 * tests do): the proof of work a test that is not about signing in solves in Node instead of the browser.
 */
const serverRequire = createRequire(new URL('../../apps/server/package.json', import.meta.url));
const altcha = serverRequire('altcha-lib') as {
  solveChallenge(options: { challenge: unknown; deriveKey: unknown }): Promise<unknown>;
};
const { deriveKey } = serverRequire('altcha-lib/algorithms/pbkdf2') as { deriveKey: unknown };

/** Fetches a challenge and solves it as the browser widget would: the value of the form's captcha field. */
async function captchaPayload(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/captcha/challenge');
  expect(response.ok(), await response.text()).toBe(true);
  const challenge = await response.json();
  const solution = await altcha.solveChallenge({ challenge, deriveKey });
  if (!solution) throw new Error('could not solve the captcha challenge');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}

async function tokenFrom(response: APIResponse, what: string): Promise<string> {
  const body = (await response.json().catch(() => null)) as { token?: unknown } | null;
  if (!response.ok() || typeof body?.token !== 'string')
    throw new Error(`${what} failed: ${response.status()} ${JSON.stringify(body)}`);
  return body.token;
}

/** Creates an account through the API (captcha and all, as the form sends it) and returns its token. */
export async function registerThroughApi(
  request: APIRequestContext,
  credentials: Credentials,
): Promise<string> {
  const response = await request.post('/api/auth/register', {
    data: {
      email: credentials.email,
      username: credentials.username,
      password: credentials.password,
      repeat_password: credentials.password,
      'g-recaptcha-response': await captchaPayload(request),
    },
  });
  return tokenFrom(response, `registering ${credentials.username}`);
}

/** Signs in through the API (an account without two-factor authentication) and returns the token. */
export async function loginThroughApi(
  request: APIRequestContext,
  credentials: Pick<Credentials, 'username' | 'password'>,
): Promise<string> {
  const response = await request.post('/api/auth/login', {
    data: {
      username: credentials.username,
      password: credentials.password,
      'g-recaptcha-response': await captchaPayload(request),
    },
  });
  return tokenFrom(response, `signing in ${credentials.username}`);
}

/**
 * Gives the browser context the session the web app keeps after signing in (the token and the moment of
 * the last activity in local storage), without loading a page. It replaces what the context stored.
 */
export async function useSession(context: BrowserContext, token: string): Promise<void> {
  await context.setStorageState({
    cookies: [],
    origins: [
      {
        origin: new URL(currentBaseURL()).origin,
        localStorage: [
          { name: 'token', value: token },
          { name: 'lastActivityAt', value: String(Date.now()) },
        ],
      },
    ],
  });
}

/**
 * Opens a signed-in page (the dashboard unless told) and waits until it shows, still at that address: a
 * session the app did not accept would have sent it to /login.
 */
export async function openSignedIn(page: Page, path = '/dashboard'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  await expect(page).toHaveURL(new URL(path, currentBaseURL()).href);
}

/**
 * A new customer, signed in without the sign-up form, on the dashboard (or the page `at`): for tests about
 * what a signed-in user does (the sign-up and sign-in forms have tests of their own).
 */
export async function signUpThroughApi(
  page: Page,
  { at = '/dashboard', credentials = newCredentials() }: { at?: string; credentials?: Credentials } = {},
): Promise<Credentials> {
  await useSession(page.context(), await registerThroughApi(page.request, credentials));
  await openSignedIn(page, at);
  return credentials;
}

/** How Chromium reports a navigation that another one replaced before it committed. */
const SUPERSEDED_NAVIGATION = /interrupted by another navigation|net::ERR_ABORTED/;

/**
 * Opens `url` on a page whose session just ended, and waits for the sign-in page it ends on. The open page
 * may be leaving for the sign-in on its own already (a poll or the live stream told it), which interrupts
 * or aborts this navigation (Chromium says either): both ways the page ends on the sign-in page, and that
 * is what is awaited.
 */
export async function openExpectingSignIn(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'commit' }).catch((error: Error) => {
    if (!SUPERSEDED_NAVIGATION.test(error.message)) throw error;
  });
  await page.waitForURL((address) => address.pathname === '/login');
}
