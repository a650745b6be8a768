import {
  type AdminIncidentsResponse,
  adminMessages,
  type LocalizedText,
  statusPaths,
} from '@simcode/contract';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

const INCIDENTS_KEY = ['admin', 'incidents'] as const;

export const incidentsQuery = queryOptions({
  queryKey: INCIDENTS_KEY,
  queryFn: ({ signal }) =>
    apiRequest<AdminIncidentsResponse>(statusPaths.adminIncidents, {
      signal,
      fallbackError: adminMessages.loadFailed,
    }),
});

export interface IncidentAction {
  /** Where the action goes: open (the list), an update, or the close of one incident. */
  path: string;
  body: { text: LocalizedText; reason: string } & Record<string, unknown>;
}

/** Opens, updates or closes an incident, then reloads the list. */
export function useIncidentAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ path, body }: IncidentAction) =>
      apiRequest<{ id: number }>(path, { method: 'POST', body }),
    onSuccess: () => client.invalidateQueries({ queryKey: INCIDENTS_KEY }),
  });
}
