import {
  type Account,
  type AccountSession,
  type ApiKeyView,
  accountMessages,
  accountResponseSchema,
  apiKeysResponseSchema,
  authMessages,
  buyingPreferencesRequestSchema,
  changePasswordRequestSchema,
  confirmTwoFactorRequestSchema,
  enableTwoFactorRequestSchema,
  messageResponseSchema,
  notificationsRequestSchema,
  passwordChangedResponseSchema,
  RECOVERY_CODE_COUNT,
  recoveryCodesResponseSchema,
  sessionIdParams,
  sessionsResponseSchema,
  successResponseSchema,
  twoFactorSetupResponseSchema,
} from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, refuse, route } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountPage } from './account-page';

const CURRENT_PASSWORD = 'password-1';
const GOOD_CODE = '123456';
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';
const BOT_KEY: ApiKeyView = {
  id: 7,
  name: 'trading bot',
  prefix: 'sc_abcdefgh',
  created_at: '2026-11-20T10:00:00.000Z',
  last_used_at: '2026-11-25T09:30:00.000Z',
  revoked_at: null,
  allowed_ips: [],
  daily_cap: null,
  total_cap: null,
  max_active_orders: null,
  callback_url: null,
  scope: 'full',
  max_price: null,
  min_delivery_rate: null,
  stop_after_failures: null,
  failures_in_a_row: 0,
  paused_at: null,
  webhook_secret: 'whsec_x',
  spent_today: 0,
  spent_total: 0,
  active_orders: 0,
};
const QR_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><path d="M0 0h1v1H0z"/></svg>';
const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, (_, index) => `code-${index}-abcd`);

let api: FakeApi;
let account: Account;
let sessions: AccountSession[];

/** What the page sent: each call's method, path and body. */
const calls = () => api.calls.map(({ method, path, body }) => ({ method, path, body }));

/**
 * The account endpoints over in-memory state. Bodies are read with the contract's request schemas, so a
 * page that sends a field the server does not read fails here.
 */
function createAccountApi() {
  return createFakeApi([
    route('GET /api/account', () => ok(accountResponseSchema, { success: true, account })),
    route('GET /api/account/sessions', () => ok(sessionsResponseSchema, { success: true, sessions })),
    route('POST /api/account/password', ({ body: raw }) => {
      const body = changePasswordRequestSchema.parse(raw);
      if (body.current_password !== CURRENT_PASSWORD)
        return refuse(400, accountMessages.currentPasswordWrong);
      sessions = sessions.filter((session) => session.current);
      return ok(passwordChangedResponseSchema, {
        success: true,
        message: accountMessages.passwordChanged,
        token: 'fresh.token.sig',
      });
    }),
    route('POST /api/account/two-factor/setup', ({ body }) => {
      expect(body).toEqual({});
      return ok(twoFactorSetupResponseSchema, {
        success: true,
        secret: SECRET,
        otpauth_url: `otpauth://totp/SimCode:alice?secret=${SECRET}`,
        qr_svg: QR_SVG,
      });
    }),
    route('POST /api/account/two-factor/enable', ({ body: raw }) => {
      const body = enableTwoFactorRequestSchema.parse(raw);
      if (body.code !== GOOD_CODE) return refuse(400, accountMessages.twoFactorCodeInvalid);
      account = { ...account, two_factor_enabled: true, recovery_codes_left: RECOVERY_CODE_COUNT };
      return ok(recoveryCodesResponseSchema, {
        success: true,
        message: accountMessages.twoFactorEnabled,
        recovery_codes: recoveryCodes,
      });
    }),
    route('POST /api/account/two-factor/disable', ({ body: raw }) => {
      const body = confirmTwoFactorRequestSchema.parse(raw);
      if (body.current_password !== CURRENT_PASSWORD)
        return refuse(400, accountMessages.currentPasswordWrong);
      account = { ...account, two_factor_enabled: false, recovery_codes_left: 0 };
      return ok(messageResponseSchema, { success: true, message: accountMessages.twoFactorDisabled });
    }),
    route('POST /api/auth/logout-all', () => ok(successResponseSchema, { success: true })),
    route('GET /api/dashboard/api-keys', () => ok(apiKeysResponseSchema, { success: true, keys: [BOT_KEY] })),
    route('PUT /api/account/language', () => ok(successResponseSchema, { success: true })),
    route('PUT /api/account/notifications', ({ body: raw }) => {
      const body = notificationsRequestSchema.parse(raw);
      account = { ...account, code_emails: body.code_emails };
      return ok(messageResponseSchema, { success: true, message: accountMessages.notificationsSaved });
    }),
    route('PUT /api/account/buying', ({ body: raw }) => {
      const body = buyingPreferencesRequestSchema.parse(raw);
      account = { ...account, one_click_buying: body.one_click_buying };
      return ok(messageResponseSchema, { success: true, message: accountMessages.buyingSaved });
    }),
    route(/^DELETE \/api\/account\/sessions\/([^/]+)$/, ({ params }) => {
      const { id } = sessionIdParams.parse({ id: params[0] });
      sessions = sessions.filter((session) => session.id !== id);
      return ok(messageResponseSchema, { success: true, message: accountMessages.sessionSignedOut });
    }),
  ]);
}

function renderPage() {
  return renderWithProviders([{ path: '/dashboard/account', Component: AccountPage }], {
    at: '/dashboard/account',
  }).user;
}

const OTHER_SESSION = '3b241101-e2bb-4255-8caf-4136c566a962';

beforeEach(() => {
  account = {
    username: 'alice',
    email: 'alice@example.com',
    two_factor_enabled: false,
    recovery_codes_left: 0,
    code_emails: false,
    one_click_buying: false,
    language: null,
    created_at: '2026-11-01T09:00:00.000Z',
  };
  sessions = [
    {
      id: OTHER_SESSION,
      created_at: '2026-11-20T08:00:00.000Z',
      last_seen_at: '2026-11-21T08:00:00.000Z',
      user_agent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:140.0) Gecko/20100101 Firefox/140.0',
      address: '198.51.100.7',
      current: false,
    },
    {
      id: '9c5b94b1-35ad-49bb-b118-8e8fc24abf80',
      created_at: '2026-11-25T10:00:00.000Z',
      last_seen_at: '2026-11-25T11:00:00.000Z',
      user_agent:
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
      address: '203.0.113.5',
      current: true,
    },
  ];
  localStorage.setItem('token', 'old.token.sig');
  api = createAccountApi();
  vi.stubGlobal('fetch', api.fetch);
});
afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('AccountPage', () => {
  it('shows the username and the address', async () => {
    renderPage();
    const profile = await screen.findByRole('region', { name: 'Profile' });
    expect(within(profile).getByText('alice')).toBeInTheDocument();
    expect(within(profile).getByText('alice@example.com')).toBeInTheDocument();
  });

  it('turns on two-factor: the QR code and the key, a wrong code refused, then the recovery codes once', async () => {
    const user = renderPage();
    const section = await screen.findByRole('region', { name: 'Two-factor authentication' });
    await user.click(within(section).getByRole('button', { name: 'Turn on' }));

    const qr = await within(section).findByRole('img', { name: /QR code/ });
    expect(qr).toHaveAttribute('src', `data:image/svg+xml;utf8,${encodeURIComponent(QR_SVG)}`);
    expect(within(section).getByTestId('two-factor-secret').textContent?.replace(/\s/g, '')).toBe(SECRET);
    // The panel's heading takes focus, so the instructions are read from the start.
    expect(within(section).getByRole('heading', { name: 'Set up your authenticator app' })).toHaveFocus();

    const code = within(section).getByLabelText('Code from the app');
    await user.type(code, '000000');
    await user.click(within(section).getByRole('button', { name: 'Confirm and turn on' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(accountMessages.twoFactorCodeInvalid);

    await user.clear(code);
    await user.type(code, GOOD_CODE);
    await user.click(within(section).getByRole('button', { name: 'Confirm and turn on' }));
    const list = await within(section).findByRole('list', { name: 'Recovery codes' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(recoveryCodes);
    expect(within(section).getByText(/shown only this once/)).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Copy all' })).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Download .txt' })).toBeInTheDocument();
    expect(within(section).getByTestId('two-factor-status')).toHaveTextContent('On');

    await user.click(within(section).getByRole('button', { name: 'I have saved them' }));
    expect(within(section).queryByRole('list', { name: 'Recovery codes' })).not.toBeInTheDocument();
    expect(within(section).getByTestId('recovery-codes-left')).toHaveTextContent(
      `${RECOVERY_CODE_COUNT} of ${RECOVERY_CODE_COUNT}`,
    );
    expect(within(section).getByRole('button', { name: 'New recovery codes' })).toHaveFocus();
    expect(calls().filter((call) => call.path === '/api/account/two-factor/enable')).toHaveLength(2);
  });

  it('turns two-factor off with the password and a code', async () => {
    account = { ...account, two_factor_enabled: true, recovery_codes_left: 2 };
    const user = renderPage();
    const section = await screen.findByRole('region', { name: 'Two-factor authentication' });
    expect(within(section).getByTestId('recovery-codes-left')).toHaveTextContent('2 of 10');
    await user.click(within(section).getByRole('button', { name: 'Turn off' }));
    const form = within(section).getByRole('form', { name: 'Turn off two-factor authentication' });
    expect(within(form).getByLabelText('Current password')).toHaveFocus();
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(authMessages.fillAllFields);
    await user.type(within(form).getByLabelText('Current password'), CURRENT_PASSWORD);
    await user.type(within(form).getByLabelText('Authentication code'), GOOD_CODE);
    await user.click(within(form).getByRole('button', { name: 'Turn off' }));
    expect(await within(section).findByRole('button', { name: 'Turn on' })).toHaveFocus();
    expect(within(section).getByTestId('two-factor-status')).toHaveTextContent('Off');
    expect(calls().find((call) => call.path === '/api/account/two-factor/disable')?.body).toEqual({
      current_password: CURRENT_PASSWORD,
      code: GOOD_CODE,
    });
  });

  it("changes the password: checks the rules first, shows the server's refusal, keeps the new token", async () => {
    const user = renderPage();
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current password'), 'wrong-password');
    await user.type(within(form).getByLabelText('New password'), 'new-password-1');
    await user.type(within(form).getByLabelText('Repeat new password'), 'new-password-2');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(authMessages.passwordsDoNotMatch);
    expect(calls().some((call) => call.path === '/api/account/password')).toBe(false);

    await user.clear(within(form).getByLabelText('Repeat new password'));
    await user.type(within(form).getByLabelText('Repeat new password'), 'new-password-1');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(accountMessages.currentPasswordWrong);
    expect(localStorage.getItem('token')).toBe('old.token.sig');

    await user.clear(within(form).getByLabelText('Current password'));
    await user.type(within(form).getByLabelText('Current password'), CURRENT_PASSWORD);
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    await vi.waitFor(() => expect(localStorage.getItem('token')).toBe('fresh.token.sig'));
    await vi.waitFor(() => expect(within(form).getByLabelText('Current password')).toHaveValue(''));
    expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    // The other session ended on the server; the list is asked again, with the new token.
    const list = screen.getByRole('list', { name: 'Sessions' });
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    const sessionsCall = api.fetch.mock.calls.findLast(
      ([input]) => String(input) === '/api/account/sessions',
    );
    expect(new Headers(sessionsCall?.[1]?.headers).get('authorization')).toBe('Bearer fresh.token.sig');
  });

  it('lists the sessions with this device marked, and signs out another one', async () => {
    const user = renderPage();
    const list = await screen.findByRole('list', { name: 'Sessions' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Chrome on Linux');
    expect(rows[0]).toHaveTextContent('This device');
    expect(within(rows[0]!).queryByRole('button', { name: /^Sign out/ })).not.toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Firefox on Windows');
    expect(rows[1]).toHaveTextContent('198.51.100.7');

    await user.click(within(rows[1]!).getByRole('button', { name: /^Sign out Firefox on Windows/ }));
    await vi.waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(calls().some((call) => call.method === 'DELETE' && call.path.endsWith(OTHER_SESSION))).toBe(true);
    expect(list).toHaveFocus();
  });

  it('signs out everywhere after a confirmation, then forgets the token here', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const user = renderPage();
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere?' });
    expect(calls().some((call) => call.path === '/api/auth/logout-all')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    // The API keys go too unless the owner unticks it.
    expect(calls().filter((call) => call.path === '/api/auth/logout-all')).toEqual([
      { method: 'POST', path: '/api/auth/logout-all', body: { revoke_api_keys: true } },
    ]);
    expect(localStorage.getItem('token')).toBeNull();
    assign.mockRestore();
  });

  it('keeps the API keys through a sign-out everywhere when unticked, and lists them beside the sessions', async () => {
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    const user = renderPage();
    const keys = await screen.findByRole('list', { name: 'API keys' });
    expect(keys).toHaveTextContent('trading bot');
    expect(keys).toHaveTextContent('Last used');
    await user.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Sign out everywhere?' });
    const box = within(dialog).getByRole('checkbox', { name: /Also revoke my API keys/ });
    expect(box).toBeChecked();
    await user.click(box);
    await user.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('/'));
    expect(calls().filter((call) => call.path === '/api/auth/logout-all')).toEqual([
      { method: 'POST', path: '/api/auth/logout-all', body: { revoke_api_keys: false } },
    ]);
    assign.mockRestore();
  });

  it('saves the code e-mails preference when the box is ticked', async () => {
    const user = renderPage();
    const box = await screen.findByRole('checkbox', { name: /E-mail me when a number receives a code/ });
    expect(box).not.toBeChecked();
    await user.click(box);
    expect(box).toBeChecked();
    await vi.waitFor(() =>
      expect(calls().find((call) => call.method === 'PUT')?.body).toEqual({ code_emails: true }),
    );
    await vi.waitFor(() => expect(account.code_emails).toBe(true));
    expect(box).toBeChecked();
  });

  it('saves the one-click buying preference when the box is ticked, and again when it is cleared', async () => {
    const user = renderPage();
    const box = await screen.findByRole('checkbox', { name: /Buy with one click/ });
    expect(box).not.toBeChecked();
    await user.click(box);
    await vi.waitFor(() => expect(account.one_click_buying).toBe(true));
    expect(box).toBeChecked();
    await user.click(box);
    await vi.waitFor(() => expect(account.one_click_buying).toBe(false));
    expect(box).not.toBeChecked();
    expect(
      calls()
        .filter((call) => call.method === 'PUT')
        .map((call) => call.body),
    ).toEqual([{ one_click_buying: true }, { one_click_buying: false }]);
  });

  it('saves a language choice here and to the account, then loads the page again in it', async () => {
    const reload = vi.spyOn(window.location, 'reload').mockImplementation(() => undefined);
    const user = renderPage();
    const group = await screen.findByRole('radiogroup', { name: 'Language' });
    expect(within(group).getByRole('radio', { name: 'English' })).toBeChecked();
    await user.click(within(group).getByRole('radio', { name: 'Русский' }));
    expect(localStorage.getItem('language')).toBe('ru');
    expect(document.cookie).toContain('simcode_lang=ru');
    expect(calls().find((call) => call.path === '/api/account/language')).toEqual({
      method: 'PUT',
      path: '/api/account/language',
      body: { language: 'ru' },
    });
    expect(reload).toHaveBeenCalledOnce();
    reload.mockRestore();
  });
});
