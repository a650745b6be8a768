import {
  apiPaths,
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
import { queryKeys } from '@/lib/query-keys';

/** Users see their own tickets; administrators see every ticket, through their own endpoints. */
export type TicketScope = 'user' | 'admin';

/** A scope's endpoints: support answers, closes and reads through its own. */
const pathsOf = (scope: TicketScope) => (scope === 'admin' ? apiPaths.adminTickets : apiPaths.tickets);

/** The listing, page by page, refreshed every 10 s so new tickets and status changes appear on their own. */
export function useTicketList(scope: TicketScope, sort: TicketSort) {
  return useInfiniteQuery({
    queryKey: queryKeys.tickets.list(scope, sort),
    queryFn: ({ pageParam, signal }) => {
      return apiRequest<TicketListResponse>(pathsOf(scope).list, {
        query: { sort, limit: TICKETS_PAGE_SIZE_DEFAULT, offset: pageParam },
        signal,
      });
    },
    initialPageParam: 0,
    getNextPageParam: (last) => {
      const next = last.offset + last.tickets.length;
      return last.tickets.length > 0 && next < last.total ? next : undefined;
    },
    refetchInterval: TICKETS_REFRESH_MS,
  });
}

/**
 * The open ticket and its messages, refreshed every 10 s so replies appear without reloading. The owner's
 * read of it reads its answers: the bar's unread count is asked again (this page has no live updates).
 */
export function useTicketThread(scope: TicketScope, id: number | null) {
  return useQuery({
    queryKey: queryKeys.tickets.thread(scope, id ?? 0),
    queryFn: async ({ signal, client }) => {
      const thread = await apiRequest<TicketThreadResponse>(pathsOf(scope).ticket(id ?? 0), { signal });
      if (scope === 'user') void client.invalidateQueries({ queryKey: queryKeys.unreadTickets });
      return thread;
    },
    enabled: id !== null,
    refetchInterval: TICKETS_REFRESH_MS,
  });
}

export interface TicketAuthor {
  username: string;
  email: string;
}

const ticketUserQuery = (userId: number) => ({
  queryKey: queryKeys.tickets.user(userId),
  queryFn: ({ signal }: { signal: AbortSignal }) =>
    apiRequest<TicketUserResponse>(apiPaths.adminTickets.user(userId), { signal }),
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

/**
 * A change to tickets, with the spec's toasts: on success `succeeded` says what happened, on failure the
 * server's text or the action's fallback. The lists and the open ticket are asked again afterwards; a
 * deleted ticket is left out, it would only answer 404.
 */
function useTicketMutation<Input, Output>(options: {
  run(input: Input): Promise<Output>;
  succeeded(output: Output): void;
  fallbackError: string;
  deletedId?: (input: Input) => number;
}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: options.run,
    onSuccess: (output, input) => {
      options.succeeded(output);
      const deletedId = options.deletedId?.(input);
      return queryClient.invalidateQueries({
        queryKey: queryKeys.tickets.all,
        predicate: ({ queryKey }) =>
          deletedId === undefined || queryKey[2] !== 'thread' || queryKey[3] !== deletedId,
      });
    },
    onError: (error) => reportFailure(error, options.fallbackError),
  });
}

export const useCreateTicket = () =>
  useTicketMutation({
    run: (body: CreateTicketRequest) =>
      apiRequest<TicketResponse>(apiPaths.tickets.list, {
        method: 'POST',
        body,
        fallbackError: ticketMessages.createFailed,
      }),
    succeeded: () =>
      toast.success(ticketMessages.ticketCreated, { description: ticketMessages.ticketCreatedDescription }),
    fallbackError: ticketMessages.createFailed,
  });

export const useSendTicketMessage = (scope: TicketScope) =>
  useTicketMutation({
    run: ({ ticketId, content }: { ticketId: number; content: string }) =>
      apiRequest<TicketMessageResponse>(pathsOf(scope).messages(ticketId), {
        method: 'POST',
        body: { content },
        fallbackError: ticketMessages.sendFailed,
      }),
    succeeded: () => {
      if (scope === 'admin') {
        toast.success(ticketMessages.replySent, { description: ticketMessages.replySentDescription });
      } else {
        toast.success(ticketMessages.messageSent, { description: ticketMessages.messageSentDescription });
      }
    },
    fallbackError: ticketMessages.sendFailed,
  });

export const useCloseTicket = (scope: TicketScope) =>
  useTicketMutation({
    run: (ticketId: number) =>
      apiRequest<TicketResponse>(pathsOf(scope).close(ticketId), {
        method: 'POST',
        fallbackError: ticketMessages.closeFailed,
      }),
    succeeded: () => toast.success(ticketMessages.ticketClosed),
    fallbackError: ticketMessages.closeFailed,
  });

/** Administrators may set any of the statuses, naming why (audited). */
export const useSetTicketStatus = () =>
  useTicketMutation({
    run: ({ ticketId, status, reason }: { ticketId: number; status: TicketStatus; reason: string }) =>
      apiRequest<TicketResponse>(apiPaths.adminTickets.status(ticketId), {
        method: 'POST',
        body: { status, reason },
        fallbackError: ticketMessages.statusFailed,
      }),
    succeeded: (response) =>
      toast.success(ticketMessages.statusUpdated, {
        description: statusUpdatedDescription(response.ticket.status),
      }),
    fallbackError: ticketMessages.statusFailed,
  });

export const useDeleteTicket = () =>
  useTicketMutation({
    run: ({ ticketId, reason }: { ticketId: number; reason: string }) =>
      apiRequest<{ success: true }>(apiPaths.adminTickets.ticket(ticketId), {
        method: 'DELETE',
        body: { reason },
        fallbackError: ticketMessages.deleteFailed,
      }),
    succeeded: () =>
      toast.success(ticketMessages.ticketDeleted, { description: ticketMessages.ticketDeletedDescription }),
    fallbackError: ticketMessages.deleteFailed,
    deletedId: ({ ticketId }) => ticketId,
  });
