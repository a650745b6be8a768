import {
  accountMessages,
  authMessages,
  confirmEmailRequestSchema,
  forgotPasswordRequestSchema,
  messageResponseSchema,
  resetPasswordRequestSchema,
} from '@simcode/contract';
import { createFakeApi, type FakeApi, ok, refuse } from '@test/fake-api';
import { renderWithProviders } from '@test/render';
import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfirmEmailPage, RevertEmailPage } from './confirm-email-page';
import { ForgotPasswordPage } from './forgot-password-page';
import { ResetPasswordPage } from './reset-password-page';

// The captcha solves itself when its button is pressed.
vi.mock('./captcha-field', () => import('@test/captcha-field'));

let api: FakeApi;
beforeEach(() => {
  api = createFakeApi();
  vi.stubGlobal('fetch', api.fetch);
  localStorage.clear();
});
afterEach(() => vi.unstubAllGlobals());

const sentBody = (call: number) => JSON.parse(String(api.fetch.mock.calls[call]![1]?.body));

function renderAt(entry: string) {
  // The pages reached from an e-mail have no query cache.
  return renderWithProviders(
    [
      { path: '/forgot-password', Component: ForgotPasswordPage },
      { path: '/reset-password', Component: ResetPasswordPage },
      { path: '/confirm-email', Component: ConfirmEmailPage },
      { path: '/revert-email', Component: RevertEmailPage },
      { path: '/login', Component: () => <h1>Sign in page</h1> },
    ],
    { at: entry, queryClient: null },
  ).user;
}

describe('the forgotten password page', () => {
  it("asks for the captcha, then shows the server's sentence in place of the form", async () => {
    const user = renderAt('/forgot-password');
    await user.type(screen.getByLabelText('Email'), ' alice@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.captchaRequired);
    expect(api.fetch).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    api.answerNext(ok(messageResponseSchema, { success: true, message: accountMessages.resetRequested }));
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    const outcome = await screen.findByRole('status');
    expect(outcome).toHaveTextContent(accountMessages.resetRequested);
    expect(outcome).toHaveFocus();
    expect(api.fetch.mock.calls[0]![0]).toBe('/api/auth/password/forgot');
    expect(forgotPasswordRequestSchema.parse(sentBody(0))).toEqual({
      email: 'alice@example.com',
      'g-recaptcha-response': 'solved-payload',
    });
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
  });
});

describe('the password reset page', () => {
  it('reads the token from the fragment and sends it with the new password', async () => {
    localStorage.setItem('token', 'a.signed-in.token');
    const user = renderAt('/reset-password#token=reset-token-1');
    await user.type(screen.getByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(authMessages.passwordsDoNotMatch);
    expect(api.fetch).not.toHaveBeenCalled();

    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'new-password-1');
    api.answerNext(refuse(400, accountMessages.resetLinkInvalid));
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.resetLinkInvalid);

    api.answerNext(ok(messageResponseSchema, { success: true, message: accountMessages.passwordReset }));
    await user.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent(accountMessages.passwordReset);
    expect(resetPasswordRequestSchema.parse(sentBody(1))).toEqual({
      token: 'reset-token-1',
      password: 'new-password-1',
      repeat_password: 'new-password-1',
      // "Also revoke my API keys" is ticked unless the owner unticks it.
      revoke_api_keys: true,
    });
    // Every session ended on the server: this browser forgets its token too.
    expect(localStorage.getItem('token')).toBeNull();
    await user.click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Sign in page' })).toBeInTheDocument();
  });

  it('explains a link without its token and offers a new one', () => {
    renderAt('/reset-password');
    expect(screen.getByRole('status')).toHaveTextContent(/This link is incomplete/);
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
  });
});

describe('the e-mail confirmation page', () => {
  it('confirms on a press of the button, not on load', async () => {
    const user = renderAt('/confirm-email#token=email-token-1');
    expect(api.fetch).not.toHaveBeenCalled();
    api.answerNext(
      ok(messageResponseSchema, { success: true, message: accountMessages.emailChanged('new@example.com') }),
    );
    await user.click(screen.getByRole('button', { name: 'Confirm my new address' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      accountMessages.emailChanged('new@example.com'),
    );
    expect(api.fetch.mock.calls[0]![0]).toBe('/api/auth/email/confirm');
    expect(confirmEmailRequestSchema.parse(sentBody(0))).toEqual({ token: 'email-token-1' });
  });

  it("shows the server's refusal", async () => {
    const user = renderAt('/confirm-email#token=used');
    api.answerNext(refuse(400, accountMessages.emailLinkInvalid));
    await user.click(screen.getByRole('button', { name: 'Confirm my new address' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(accountMessages.emailLinkInvalid);
  });
});

describe('the page that takes an e-mail change back', () => {
  it('moves the address back on a press of the button, forgets this browser’s token and leads to sign in', async () => {
    localStorage.setItem('token', 'a.signed-in.token');
    const user = renderAt('/revert-email#token=revert-token-1');
    expect(screen.getByRole('heading', { name: 'Take your account back' })).toBeInTheDocument();
    expect(api.fetch).not.toHaveBeenCalled();
    api.answerNext(
      ok(messageResponseSchema, { success: true, message: accountMessages.emailReverted('old@example.com') }),
    );
    await user.click(screen.getByRole('button', { name: 'Move my account back' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      accountMessages.emailReverted('old@example.com'),
    );
    expect(api.fetch.mock.calls[0]![0]).toBe('/api/auth/email/revert');
    expect(confirmEmailRequestSchema.parse(sentBody(0))).toEqual({ token: 'revert-token-1' });
    expect(localStorage.getItem('token')).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' })).toBeInTheDocument();
  });
});
