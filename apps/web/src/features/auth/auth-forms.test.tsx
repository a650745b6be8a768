import {
  accountMessages,
  authMessages,
  authResponseSchema,
  generalMessages,
  loginRequestSchema,
  loginResponseSchema,
  sessionMessages,
  twoFactorLoginRequestSchema,
} from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, refuse, unchecked } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginPage } from './login-page';
import { RegisterPage } from './register-page';

// The captcha solves itself when its button is pressed.
vi.mock('./captcha-field', () => import('@test/captcha-field'));

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  vi.stubGlobal('fetch', api.fetch);
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

function DashboardStandIn() {
  return <h1>Dashboard page</h1>;
}

function renderAt(path: '/login' | '/register' | `/login?${string}`) {
  // The sign-in pages have no query cache.
  return renderWithProviders(
    [
      { path: '/login', Component: LoginPage },
      { path: '/register', Component: RegisterPage },
      { path: '/dashboard', Component: DashboardStandIn },
    ],
    { at: path, queryClient: null },
  ).user;
}

describe('the login form', () => {
  it.each([
    ['', '', false, authMessages.fillAllFields],
    ['ab', 'password-1', true, authMessages.usernameTooShort],
    ['abc', 'short', true, authMessages.passwordTooShort],
    ['abc', 'password-1', false, authMessages.captchaRequired],
    ['a'.repeat(20), 'password-1', true, authMessages.usernameTooLong],
    ['abc', 'p'.repeat(80), true, authMessages.passwordTooLong],
    // An e-mail address is not held to a username's length.
    [`${'a'.repeat(250)}@example.com`, 'password-1', true, authMessages.emailTooLong],
  ])(
    'username %j, password %j, captcha solved %s: shows "%s" and sends nothing',
    async (username, password, solved, text) => {
      const user = renderAt('/login');
      if (username) await user.type(screen.getByLabelText('Username or email'), username);
      if (password) await user.type(screen.getByLabelText('Password'), password);
      if (solved) await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
      await user.click(screen.getByRole('button', { name: 'Sign In' }));
      expect(await screen.findByRole('alert')).toHaveTextContent(text);
      expect(api.fetch).not.toHaveBeenCalled();
    },
  );

  it('says why the session ended when it ended elsewhere, and nothing for an unknown reason', async () => {
    renderAt('/login?ended=password_changed');
    expect(await screen.findByRole('status')).toHaveTextContent(sessionMessages.endedPasswordChanged);
  });

  it("shows the server's error text, and the spec's fallback when there is none", async () => {
    const user = renderAt('/login');
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'password-1');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(refuse(401, authMessages.invalidCredentials));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.invalidCredentials);

    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(unchecked(500, { success: false }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.loginFailed);
    const [url, init] = api.fetch.mock.calls[0]!;
    expect(url).toBe('/api/auth/login');
    expect(JSON.parse(String(init?.body))).toEqual({
      username: 'alice',
      password: 'password-1',
      'g-recaptcha-response': 'solved-payload',
    });
  });

  it('stores the token and opens the dashboard on success', async () => {
    const user = renderAt('/login');
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'password-1');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(ok(loginResponseSchema, { success: true, token: 'header.payload.signature' }));
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('header.payload.signature');
  });
});

describe('the login form with two-factor authentication on', () => {
  it('asks for a code after the password, shows a refusal, then signs in with the challenge', async () => {
    const user = renderAt('/login');
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'password-1');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(
      ok(loginResponseSchema, { success: true, two_factor_required: true, challenge: 'challenge-1' }),
    );
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const code = await screen.findByLabelText('Authentication code');
    expect(code).toHaveFocus();
    expect(code).toHaveAccessibleDescription(accountMessages.twoFactorPrompt);
    expect(localStorage.getItem('token')).toBeNull();
    expect(loginRequestSchema.parse(JSON.parse(String(api.fetch.mock.calls[0]![1]?.body)))).toMatchObject({
      username: 'alice',
      password: 'password-1',
    });

    await user.type(code, '000000');
    api.answerNext(refuse(400, accountMessages.twoFactorCodeInvalid));
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.twoFactorCodeInvalid);

    await user.clear(code);
    await user.type(code, ' 123456 ');
    api.answerNext(ok(authResponseSchema, { success: true, token: 'header.payload.2fa' }));
    await user.click(screen.getByRole('button', { name: 'Verify and sign in' }));
    expect(await screen.findByRole('heading', { name: 'Dashboard page' })).toBeInTheDocument();
    expect(localStorage.getItem('token')).toBe('header.payload.2fa');
    const [url, init] = api.fetch.mock.calls[2]!;
    expect(url).toBe('/api/auth/login/two-factor');
    expect(twoFactorLoginRequestSchema.parse(JSON.parse(String(init?.body)))).toEqual({
      challenge: 'challenge-1',
      code: '123456',
    });
  });

  it('goes back to the password form to start over', async () => {
    const user = renderAt('/login');
    await user.type(screen.getByLabelText('Username or email'), 'alice');
    await user.type(screen.getByLabelText('Password'), 'password-1');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(
      ok(loginResponseSchema, { success: true, two_factor_required: true, challenge: 'challenge-1' }),
    );
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(await screen.findByRole('button', { name: 'Start over' }));
    expect(screen.getByLabelText('Username or email')).toHaveValue('alice');
    expect(screen.getByLabelText('Password')).toHaveValue('');
  });

  it('links to the password reset', () => {
    renderAt('/login');
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});

describe('the register form', () => {
  const valid = {
    email: 'alice@example.com',
    username: 'alice_1',
    password: 'password-1',
    repeat: 'password-1',
  };
  it.each([
    [{ email: '', username: '', password: '', repeat: '' }, false, authMessages.fillAllFields],
    [{ ...valid, repeat: '' }, true, authMessages.fillAllFields],
    [{ ...valid, username: 'ab' }, true, authMessages.usernameTooShort],
    [{ ...valid, password: 'short', repeat: 'short' }, true, authMessages.passwordTooShort],
    [valid, false, authMessages.captchaRequired],
    [{ ...valid, username: 'a'.repeat(20) }, true, authMessages.usernameTooLong],
    [{ ...valid, password: 'p'.repeat(80), repeat: 'p'.repeat(80) }, true, authMessages.passwordTooLong],
    [{ ...valid, email: `${'e'.repeat(70)}@example.com` }, true, authMessages.emailTooLong],
    [{ ...valid, username: 'alice smith' }, true, authMessages.usernameCharacters],
    [{ ...valid, repeat: 'password-2' }, true, authMessages.passwordsDoNotMatch],
    [{ ...valid, email: 'alice.example.com' }, true, authMessages.invalidEmail],
  ])('%j with captcha solved %s shows "%s" and sends nothing', async (fields, solved, text) => {
    const user = renderAt('/register');
    if (fields.email) await user.type(screen.getByLabelText('Email'), fields.email);
    if (fields.username) await user.type(screen.getByLabelText('Username'), fields.username);
    if (fields.password) await user.type(screen.getByLabelText('Password'), fields.password);
    if (fields.repeat) await user.type(screen.getByLabelText('Repeat password'), fields.repeat);
    if (solved) await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it('says at each field what is wrong with it, and stops once the field is fixed', async () => {
    const user = renderAt('/register');
    await user.type(screen.getByLabelText('Email'), 'alice.example.com');
    await user.type(screen.getByLabelText('Username'), 'ab');
    await user.type(screen.getByLabelText('Password'), valid.password);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.fillAllFields);
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription(authMessages.invalidEmail);
    expect(screen.getByLabelText('Username')).toHaveAccessibleDescription(authMessages.usernameTooShort);
    expect(screen.getByLabelText('Password')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Repeat password')).toHaveAccessibleDescription(
      generalMessages.fieldRequired,
    );
    await user.type(screen.getByLabelText('Username'), 'c');
    expect(screen.getByLabelText('Username')).not.toHaveAttribute('aria-invalid');
    expect(api.fetch).not.toHaveBeenCalled();
  });

  it("shows the server's duplicate text and the spec's fallback", async () => {
    const user = renderAt('/register');
    await user.type(screen.getByLabelText('Email'), valid.email);
    await user.type(screen.getByLabelText('Username'), valid.username);
    await user.type(screen.getByLabelText('Password'), valid.password);
    await user.type(screen.getByLabelText('Repeat password'), valid.repeat);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(refuse(409, authMessages.usernameTaken));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.usernameTaken);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext('network');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.registrationFailed);
  });
});
