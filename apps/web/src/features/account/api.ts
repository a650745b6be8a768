import {
  apiPaths,
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
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';
import { setToken } from '@/lib/session';

type SessionsResponse = z.infer<typeof sessionsResponseSchema>;
type MessageResponse = z.infer<typeof messageResponseSchema>;
type PasswordChangedResponse = z.infer<typeof passwordChangedResponseSchema>;
type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;

export const sessionsQuery = queryOptions({
  queryKey: queryKeys.account.sessions,
  queryFn: ({ signal }) => apiRequest<SessionsResponse>(apiPaths.account.sessions, { signal }),
});

/** A change that may alter what the page shows: the account and its sessions are asked again after it. */
function useAccountMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.all }),
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
      apiRequest<PasswordChangedResponse>(apiPaths.account.password, { method: 'POST', body }),
    onSuccess: (answer) => setToken(answer.token),
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.account.all }),
  });
}

export const useChangeEmail = () =>
  useAccountMutation((body: ChangeEmailRequest) =>
    apiRequest<MessageResponse>(apiPaths.account.email, { method: 'POST', body }),
  );

/** Starts (or starts again) the setup: a new secret each time, nothing changes until a code confirms it. */
export const useTwoFactorSetup = () =>
  useMutation({
    mutationFn: () =>
      apiRequest<TwoFactorSetup>(apiPaths.account.twoFactorSetup, { method: 'POST', body: {} }),
  });

export const useEnableTwoFactor = () =>
  useAccountMutation((code: string) =>
    apiRequest<RecoveryCodesResponse>(apiPaths.account.twoFactorEnable, { method: 'POST', body: { code } }),
  );

export const useDisableTwoFactor = () =>
  useAccountMutation((body: ConfirmTwoFactorRequest) =>
    apiRequest<MessageResponse>(apiPaths.account.twoFactorDisable, { method: 'POST', body }),
  );

export const useRenewRecoveryCodes = () =>
  useAccountMutation((body: ConfirmTwoFactorRequest) =>
    apiRequest<RecoveryCodesResponse>(apiPaths.account.recoveryCodes, { method: 'POST', body }),
  );

export const useSaveNotifications = () =>
  useAccountMutation((codeEmails: boolean) =>
    apiRequest<MessageResponse>(apiPaths.account.notifications, {
      method: 'PUT',
      body: { code_emails: codeEmails },
    }),
  );

export const useSaveBuying = () =>
  useAccountMutation((oneClickBuying: boolean) =>
    apiRequest<MessageResponse>(apiPaths.account.buying, {
      method: 'PUT',
      body: { one_click_buying: oneClickBuying },
    }),
  );

export const useSignOutSession = () =>
  useAccountMutation((id: string) =>
    apiRequest<MessageResponse>(apiPaths.account.session(id), { method: 'DELETE' }),
  );

/**
 * Every token and unused mailed link of the user stops working, this one included, and the API keys unless
 * kept; the caller then signs out here.
 */
export const useSignOutEverywhere = () =>
  useMutation({
    mutationFn: (body: LogoutEverywhereRequest) =>
      apiRequest<{ success: true }>(apiPaths.auth.logoutAll, { method: 'POST', body }),
  });
