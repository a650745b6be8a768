import {
  type CreateTicketRequest,
  statusUpdatedDescription,
  TICKETS_PAGE_SIZE_DEFAULT,
  TICKETS_REFRESH_MS,
  type TicketListResponse,
  type TicketMessageResponse,
  type TicketResponse,
  type TicketSort,
  type TicketStatus,
  type TicketThreadResponse,
  type TicketUserResponse,
  ticketMessages,
} from '@simcode/contract';
import { useInfiniteQuery, useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ApiError, apiRequest, errorMessage } from '@/lib/api-client';

/** Users see their own tickets; administrators see every ticket, through their own endpoints. */
export type TicketScope = 'user' | 'admin';

const ticketsPath = (scope: TicketScope) =>
  scope === 'admin' ? '/api/tickets/admin/tickets' : '/api/tickets';

export const ticketKeys = {
  all: ['tickets'] as const,
  list: (scope: TicketScope, sort: TicketSort) => ['tickets', scope, 'list', sort] as const,
  thread: (scope: TicketScope, id: number) => ['tickets', scope, 'thread', id] as const,
  /** Outside 'tickets' on purpose: a user's name and e-mail are not refetched after ticket changes. */
  user: (userId: number) => ['ticket-user', userId] as const,
};

/** The listing, page by page, refreshed every 10 s so new tickets and status changes appear on their own. */
export function useTicketList(scope: TicketScope, sort: TicketSort) {
  return useInfiniteQuery({
    queryKey: ticketKeys.list(scope, sort),
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({
        sort,
        limit: String(TICKETS_PAGE_SIZE_DEFAULT),
        offset: String(pageParam),
      });
      return apiRequest<TicketListResponse>(`${ticketsPath(scope)}?${query}`, { signal });
    },
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.tickets.length;
      return last.tickets.length > 0 && next < last.total ? next : undefined;
    },
    refetchInterval: TICKETS_REFRESH_MS,
  });
}

/** The open ticket and its messages, refreshed every 10 s so replies appear without reloading. */
export function useTicketThread(scope: TicketScope, id: number | null) {
  return useQuery({
    queryKey: ticketKeys.thread(scope, id ?? 0),
    queryFn: ({ signal }) => apiRequest<TicketThreadResponse>(`${ticketsPath(scope)}/${id}`, { signal }),
    enabled: id !== null,
    refetchInterval: TICKETS_REFRESH_MS,
  });
}

export interface TicketAuthor {
  username: string;
  email: string;
}

const ticketUserQuery = (userId: number) => ({
  queryKey: ticketKeys.user(userId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest<TicketUserResponse>(`/api/tickets/admin/user/${userId}`, { signal }),
  // Asked once per distinct user and kept for the visit: names and e-mails do not change under a ticket.
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
});

/** Administrators: the author of each ticket, one request per distinct user id. */
export function useTicketAuthors(userIds: number[], enabled: boolean): Map<number, TicketAuthor> {
  const distinct = enabled ? [...new Set(userIds)] : [];
  return useQueries({
    queries: distinct.map(ticketUserQuery),
    combine: (results) => {
      const authors = new Map<number, TicketAuthor>();
      results.forEach((result, index) => {
        if (result.data) authors.set(distinct[index]!, result.data.user);
      });
      return authors;
    },
  });
}

export function useTicketAuthor(userId: number) {
  return useQuery(ticketUserQuery(userId));
}

/**
 * A failed change shows a destructive toast with the server's text or the action's fallback. Network
 * failures are silently ignored (spec section 8): what the user typed stays, so they can simply try again.
 */
function reportFailure(error: unknown, fallback: string): void {
  if (error instanceof ApiError && error.status === 0) return;
  toast.error(ticketMessages.errorTitle, { description: errorMessage(error, fallback) });
}

/** Every change a user or an administrator can make, each refetching the lists and the open ticket. */
export function useTicketActions(scope: TicketScope) {
  const queryClient = useQueryClient();
  /** Refetches the lists and the open ticket; a deleted ticket is left out, it would only answer 404. */
  const refetchTickets = (deletedId?: number) =>
    queryClient.invalidateQueries({
      queryKey: ticketKeys.all,
      predicate: ({ queryKey }) =>
        deletedId === undefined || queryKey[2] !== 'thread' || queryKey[3] !== deletedId,
    });
  const base = ticketsPath(scope);

  const create = useMutation({
    mutationFn: (body: CreateTicketRequest) =>
      apiRequest<TicketResponse>('/api/tickets', {
        method: 'POST',
        body,
        fallbackError: ticketMessages.createFailed,
      }),
    onSuccess: () => {
      toast.success(ticketMessages.ticketCreated, { description: ticketMessages.ticketCreatedDescription });
      return refetchTickets();
    },
    onError: (error) => reportFailure(error, ticketMessages.createFailed),
  });

  const send = useMutation({
    mutationFn: ({ ticketId, content }: { ticketId: number; content: string }) =>
      apiRequest<TicketMessageResponse>(`${base}/${ticketId}/messages`, {
        method: 'POST',
        body: { content },
        fallbackError: ticketMessages.sendFailed,
      }),
    onSuccess: () => {
      if (scope === 'admin') {
        toast.success(ticketMessages.replySent, { description: ticketMessages.replySentDescription });
      } else {
        toast.success(ticketMessages.messageSent, { description: ticketMessages.messageSentDescription });
      }
      return refetchTickets();
    },
    onError: (error) => reportFailure(error, ticketMessages.sendFailed),
  });

  const close = useMutation({
    mutationFn: (ticketId: number) =>
      apiRequest<TicketResponse>(`${base}/${ticketId}/close`, {
        method: 'POST',
        fallbackError: ticketMessages.closeFailed,
      }),
    onSuccess: () => {
      toast.success(ticketMessages.ticketClosed);
      return refetchTickets();
    },
    onError: (error) => reportFailure(error, ticketMessages.closeFailed),
  });

  const setStatus = useMutation({
    mutationFn: ({ ticketId, status, reason }: { ticketId: number; status: TicketStatus; reason: string }) =>
      apiRequest<TicketResponse>(`${ticketsPath('admin')}/${ticketId}/status`, {
        method: 'POST',
        body: { status, reason },
        fallbackError: ticketMessages.statusFailed,
      }),
    onSuccess: (response) => {
      toast.success(ticketMessages.statusUpdated, {
        description: statusUpdatedDescription(response.ticket.status),
      });
      return refetchTickets();
    },
    onError: (error) => reportFailure(error, ticketMessages.statusFailed),
  });

  const remove = useMutation({
    mutationFn: ({ ticketId, reason }: { ticketId: number; reason: string }) =>
      apiRequest<{ success: true }>(`${ticketsPath('admin')}/${ticketId}`, {
        method: 'DELETE',
        body: { reason },
        fallbackError: ticketMessages.deleteFailed,
      }),
    onSuccess: (_response, { ticketId }) => {
      toast.success(ticketMessages.ticketDeleted, { description: ticketMessages.ticketDeletedDescription });
      return refetchTickets(ticketId);
    },
    onError: (error) => reportFailure(error, ticketMessages.deleteFailed),
  });

  return { create, send, close, setStatus, remove };
}

export type TicketActions = ReturnType<typeof useTicketActions>;
