import type {
  ApiKeyLogResponse,
  ApiKeyResponse,
  ApiKeysResponse,
  CreateApiKeyRequest,
  CreatedApiKeyResponse,
  UpdateApiKeyRequest,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const base = '/api/dashboard/api-keys';

export const apiKeyKeys = {
  all: ['api-keys'] as const,
  list: ['api-keys', 'list'] as const,
  log: (id: number) => ['api-keys', 'log', id] as const,
};

export const apiKeysQuery = queryOptions({
  queryKey: apiKeyKeys.list,
  queryFn: ({ signal }) => apiRequest<ApiKeysResponse>(base, { signal }),
});

/** A key's deliveries and refusals, refreshed while it is open so retries show up. */
export const apiKeyLogQuery = (id: number) =>
  queryOptions({
    queryKey: apiKeyKeys.log(id),
    queryFn: ({ signal }) => apiRequest<ApiKeyLogResponse>(`${base}/${id}/log`, { signal }),
    refetchInterval: 10_000,
  });

function useInvalidatingMutation<Input, Output>(run: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeyKeys.all }),
  });
}

export const useCreateApiKey = () =>
  useInvalidatingMutation((body: CreateApiKeyRequest) =>
    apiRequest<CreatedApiKeyResponse>(base, { method: 'POST', body }),
  );

export const useUpdateApiKey = () =>
  useInvalidatingMutation(({ id, body }: { id: number; body: UpdateApiKeyRequest }) =>
    apiRequest<ApiKeyResponse>(`${base}/${id}`, { method: 'PATCH', body }),
  );

export const useRevokeApiKey = () =>
  useInvalidatingMutation((id: number) =>
    apiRequest<ApiKeyResponse>(`${base}/${id}/revoke`, { method: 'POST' }),
  );

export const useTestDelivery = () =>
  useInvalidatingMutation((id: number) =>
    apiRequest<{ success: true }>(`${base}/${id}/test-delivery`, { method: 'POST' }),
  );
