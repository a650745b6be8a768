import type {
  AuthResponse,
  ForgotPasswordRequest,
  LoginRequest,
  LoginResponse,
  RegisterRequest,
  ResetPasswordRequest,
} from '@simcode/contract';
import { apiRequest } from '@/lib/api-client';

interface MessageResponse {
  success: true;
  message: string;
}

/** A token, or (two-factor on) a challenge to send back with the code. */
export function login(body: LoginRequest, fallbackError: string) {
  return apiRequest<LoginResponse>('/api/auth/login', { method: 'POST', body, fallbackError });
}

export function loginTwoFactor(body: { challenge: string; code: string }, fallbackError: string) {
  return apiRequest<AuthResponse>('/api/auth/login/two-factor', { method: 'POST', body, fallbackError });
}

export function register(body: RegisterRequest, fallbackError: string) {
  return apiRequest<AuthResponse>('/api/auth/register', { method: 'POST', body, fallbackError });
}

// The pages reached from an e-mail or from the sign-in form have no query cache: plain calls, like sign-in.

export function requestPasswordReset(body: ForgotPasswordRequest) {
  return apiRequest<MessageResponse>('/api/auth/password/forgot', { method: 'POST', body });
}

export function resetPassword(body: ResetPasswordRequest) {
  return apiRequest<MessageResponse>('/api/auth/password/reset', { method: 'POST', body });
}

export function confirmEmail(token: string) {
  return apiRequest<MessageResponse>('/api/auth/email/confirm', { method: 'POST', body: { token } });
}

export function revertEmail(token: string) {
  return apiRequest<MessageResponse>('/api/auth/email/revert', { method: 'POST', body: { token } });
}
