import {
  accountMessages,
  type accountResponseSchema,
  type ChangeEmailRequest,
  type ChangePasswordRequest,
  type ConfirmTwoFactorRequest,
  type LogoutEverywhereRequest,
  type messageResponseSchema,
  type passwordChangedResponseSchema,
  type recoveryCodesResponseSchema,
  type sessionsResponseSchema,
  type TwoFactorSetup,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { setToken } from '@/features/auth/session';
import { apiRequest } from '@/lib/api-client';

type AccountResponse = z.infer<typeof accountResponseSchema>;
type SessionsResponse = z.infer<typeof sessionsResponseSchema>;
type MessageResponse = z.infer<typeof messageResponseSchema>;
type PasswordChangedResponse = z.infer<typeof passwordChangedResponseSchema>;
type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

const base = '/api/account';

export const accountKeys = {
  all: ['account'] as const,
  account: ['account', 'details'] as const,
  sessions: ['account', 'sessions'] as const,
};

export const accountQuery = queryOptions({
  queryKey: accountKeys.account,
  queryFn: ({ signal }) =>
    apiRequest<AccountResponse>(base, { signal, fallbackError: accountMessages.fetchAccountFailed }),
});

export const sessionsQuery = queryOptions({
  queryKey: accountKeys.sessions,
  queryFn: ({ signal }) => apiRequest<SessionsResponse>(`${base}/sessions`, { signal }),
});

/** A change that may alter what the page shows: the account and its sessions are asked again after it. */
function useAccountMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

/**
 * The server ends every other session and answers a fresh token for this device, kept as a sign-in keeps
 * its token (before the queries are asked again, so they go with the new one).
 */
export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ChangePasswordRequest) =>
      apiRequest<PasswordChangedResponse>(`${base}/password`, { method: 'POST', body }),
    onSuccess: (answer) => setToken(answer.token),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.all }),
  });
}

export const useChangeEmail = () =>
  useAccountMutation((body: ChangeEmailRequest) =>
    apiRequest<MessageResponse>(`${base}/email`, { method: 'POST', body }),
  );

/** Starts (or starts again) the setup: a new secret each time, nothing changes until a code confirms it. */
export const useTwoFactorSetup = () =>
  useMutation({
    mutationFn: () => apiRequest<TwoFactorSetup>(`${base}/two-factor/setup`, { method: 'POST', body: {} }),
  });

export const useEnableTwoFactor = () =>
  useAccountMutation((code: string) =>
    apiRequest<RecoveryCodesResponse>(`${base}/two-factor/enable`, { method: 'POST', body: { code } }),
  );

export const useDisableTwoFactor = () =>
  useAccountMutation((body: ConfirmTwoFactorRequest) =>
    apiRequest<MessageResponse>(`${base}/two-factor/disable`, { method: 'POST', body }),
  );

export const useRenewRecoveryCodes = () =>
  useAccountMutation((body: ConfirmTwoFactorRequest) =>
    apiRequest<RecoveryCodesResponse>(`${base}/two-factor/recovery-codes`, { method: 'POST', body }),
  );

export const useSaveNotifications = () =>
  useAccountMutation((codeEmails: boolean) =>
    apiRequest<MessageResponse>(`${base}/notifications`, {
      method: 'PUT',
      body: { code_emails: codeEmails },
    }),
  );

export const useSignOutSession = () =>
  useAccountMutation((id: string) =>
    apiRequest<MessageResponse>(`${base}/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  );

/**
 * Every token and unused mailed link of the user stops working, this one included, and the API keys unless
 * kept; the caller then signs out here.
 */
export const useSignOutEverywhere = () =>
  useMutation({
    mutationFn: (body: LogoutEverywhereRequest) =>
      apiRequest<{ success: true }>('/api/auth/logout-all', { method: 'POST', body }),
  });
