import {
  type Account,
  type AuthResponse,
  apiPaths,
  type ForgotPasswordRequest,
  type LoginRequest,
  type LoginResponse,
  type RegisterRequest,
  type ResetPasswordRequest,
} from '@simcode/contract';
import { apiRequest } from '@/lib/api-client';

interface MessageResponse {
  success: true;
  message: string;
}

/** A token, or (two-factor on) a challenge to send back with the code. */
export function login(body: LoginRequest, fallbackError: string) {
  return apiRequest<LoginResponse>(apiPaths.auth.login, { method: 'POST', body, fallbackError });
}

export function loginTwoFactor(body: { challenge: string; code: string }, fallbackError: string) {
  return apiRequest<AuthResponse>(apiPaths.auth.loginTwoFactor, { method: 'POST', body, fallbackError });
}

export function register(body: RegisterRequest, fallbackError: string) {
  return apiRequest<AuthResponse>(apiPaths.auth.register, { method: 'POST', body, fallbackError });
}

// The pages reached from an e-mail or from the sign-in form have no query cache: plain calls, like sign-in.

export function requestPasswordReset(body: ForgotPasswordRequest) {
  return apiRequest<MessageResponse>(apiPaths.auth.forgotPassword, { method: 'POST', body });
}

export function resetPassword(body: ResetPasswordRequest) {
  return apiRequest<MessageResponse>(apiPaths.auth.resetPassword, { method: 'POST', body });
}

export function confirmEmail(token: string) {
  return apiRequest<MessageResponse>(apiPaths.auth.confirmEmail, { method: 'POST', body: { token } });
}

/** The language saved to the account just signed in to: null when it has none, undefined when unknown. */
export function savedLanguage() {
  return apiRequest<{ account: Account }>(apiPaths.account.account).then(
    (answer) => answer.account.language,
    () => undefined,
  );
}

export function revertEmail(token: string) {
  return apiRequest<MessageResponse>('/api/auth/email/revert', { method: 'POST', body: { token } });
}
