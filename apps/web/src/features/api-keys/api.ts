import {
  type ApiKeyLogResponse,
  type ApiKeyResponse,
  apiPaths,
  type CreateApiKeyRequest,
  type CreatedApiKeyResponse,
  type UpdateApiKeyRequest,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { queryKeys } from '@/lib/query-keys';

export { apiKeysQuery } from '@/lib/api-keys-query';

/** A key's deliveries and refusals, refreshed while it is open so retries show up. */
export const apiKeyLogQuery = (id: number) =>
  queryOptions({
    queryKey: queryKeys.apiKeys.log(id),
    queryFn: ({ signal }) => apiRequest<ApiKeyLogResponse>(apiPaths.apiKeys.log(id), { signal }),
    refetchInterval: 10_000,
  });

function useInvalidatingMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.apiKeys.all }),
  });
}

export const useCreateApiKey = () =>
  useInvalidatingMutation((body: CreateApiKeyRequest) =>
    apiRequest<CreatedApiKeyResponse>(apiPaths.apiKeys.list, { method: 'POST', body }),
  );

export const useUpdateApiKey = () =>
  useInvalidatingMutation(({ id, body }: { id: number; body: UpdateApiKeyRequest }) =>
    apiRequest<ApiKeyResponse>(apiPaths.apiKeys.key(id), { method: 'PATCH', body }),
  );

export const useRevokeApiKey = () =>
  useInvalidatingMutation((id: number) =>
    apiRequest<ApiKeyResponse>(apiPaths.apiKeys.revoke(id), { method: 'POST' }),
  );

export const useResumeApiKey = () =>
  useInvalidatingMutation((id: number) =>
    apiRequest<ApiKeyResponse>(apiPaths.apiKeys.resume(id), { method: 'POST' }),
  );

export const useTestDelivery = () =>
  useInvalidatingMutation((id: number) =>
    apiRequest<{ success: true }>(apiPaths.apiKeys.testDelivery(id), { method: 'POST' }),
  );
