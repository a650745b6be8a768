import type { AuthResponse, LoginRequest, RegisterRequest } from '@simcode/contract';
import { apiRequest } from '@/lib/api-client';

export function login(body: LoginRequest, fallbackError: string) {
  return apiRequest<AuthResponse>('/api/auth/login', { method: 'POST', body, fallbackError });
}

export function register(body: RegisterRequest, fallbackError: string) {
  return apiRequest<AuthResponse>('/api/auth/register', { method: 'POST', body, fallbackError });
}
