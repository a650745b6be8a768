import { type Ticket, type TicketSort, ticketMessages, ticketSortOrders } from '@simcode/contract';
import { Inbox, MessageSquare, Plus, UserRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { Button } from '@/components/ui/button';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDate } from '@/lib/format';
import { useRovingFocus } from '@/lib/use-roving-focus';
import { cn } from '@/lib/utils';
import type { TicketAuthor } from './api';

interface TicketListProps {
  heading: string;
  tickets: Ticket[];
  loading: boolean;
  selectedId: number | null;
  /** Messages of the selected ticket once loaded; the others show '-'. */
  selectedMessageCount: number | null;
  /** Administrators: the author of each ticket, by user id. */
  authors?: Map<number, TicketAuthor>;
  sort: TicketSort;
  onSortChange(sort: TicketSort): void;
  onSelect(ticketId: number): void;
  onNewTicket(): void;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore(): void;
}

function TicketListItem({
  ticket,
  selected,
  messageCount,
  author,
  showAuthor,
  onSelect,
  rovingProps,
}: {
  ticket: Ticket;
  selected: boolean;
  messageCount: number | null;
  author: TicketAuthor | undefined;
  showAuthor: boolean;
  onSelect(): void;
  rovingProps: ReturnType<ReturnType<typeof useRovingFocus>['itemProps']>;
}) {
  const { t } = useTranslation('tickets');
  return (
    <button
      type="button"
      onClick={onSelect}
      {...rovingProps}
      aria-current={selected || undefined}
      className={cn(
        'group relative flex w-full flex-col gap-1.5 px-4 py-3.5 text-left transition-colors focus-visible:z-10 focus-visible:outline-offset-[-2px]',
        selected ? 'bg-indigo-50/80' : 'hover:bg-slate-50',
      )}
    >
      {selected && <span className="absolute inset-y-0 left-0 w-1 bg-primary" aria-hidden="true" />}
      <span className="flex items-start justify-between gap-3">
        <span className={cn('min-w-0 truncate font-medium', selected && 'text-primary')}>{ticket.title}</span>
        <span className="flex shrink-0 items-center gap-2">
          {/* The owner's marker: support answered since they last opened it (support's own view has none). */}
          {ticket.unread && !showAuthor && (
            <span className="inline-flex items-center gap-1 text-xs font-semibold text-primary">
              <span className="size-2 rounded-full bg-primary" aria-hidden="true" />
              {t('list.newReply')}
            </span>
          )}
          <TicketStatusBadge status={ticket.status} />
        </span>
      </span>
      <span className="line-clamp-2 text-sm break-words text-muted-foreground">{ticket.description}</span>
      {showAuthor && (
        <span className="flex min-w-0 items-center gap-1.5 text-xs text-slate-600">
          <UserRound className="size-3.5 shrink-0" aria-hidden="true" />
          {author ? (
            <span className="truncate">
              <span className="font-medium">{author.username}</span>
              <span className="text-muted-foreground"> · {author.email}</span>
            </span>
          ) : (
            <Skeleton className="h-3 w-32" />
          )}
        </span>
      )}
      <span className="flex items-center justify-between text-xs text-muted-foreground">
        <span className="inline-flex items-center gap-1" title={t('list.messages')}>
          <MessageSquare className="size-3.5" aria-hidden="true" />
          <span className="sr-only">{t('list.messagesCount')}</span>
          {messageCount ?? '-'}
        </span>
        <time dateTime={ticket.created_at}>{formatDate(ticket.created_at)}</time>
      </span>
    </button>
  );
}

/** The left pane: New Ticket, the sort order and the tickets, the selected one highlighted. */
export function TicketList(props: TicketListProps) {
  const { t } = useTranslation('tickets');
  const { tickets, loading, selectedId, authors } = props;
  // Support sees every ticket: one Tab stop and the arrow keys, so the conversation stays a Tab away.
  const roving = useRovingFocus(
    tickets.map((ticket) => String(ticket.id)),
    selectedId === null ? null : String(selectedId),
  );
  return (
    <>
      <div className="flex flex-col gap-3 border-b p-4">
        {/* Wraps: 'Ваши обращения' and 'Новое обращение' do not fit side by side in the narrow pane. */}
        <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-2">
          <h2 className="min-w-0 text-lg font-semibold tracking-tight">{props.heading}</h2>
          <Button size="sm" onClick={props.onNewTicket}>
            <Plus aria-hidden="true" />
            {t('list.newTicket')}
          </Button>
        </div>
        <div className="flex items-center gap-3">
          <Label htmlFor="ticket-sort" className="shrink-0 text-muted-foreground">
            {t('sort.label')}
          </Label>
          <Select value={props.sort} onValueChange={(value) => props.onSortChange(value as TicketSort)}>
            <SelectTrigger id="ticket-sort" className="h-9">
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              {ticketSortOrders.map((sort) => (
                <SelectItem key={sort} value={sort}>
                  {t(`sort.${sort}`)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">
        {loading ? (
          <div className="divide-y">
            <span role="status" className="sr-only">
              {t('list.loading')}
            </span>
            {[0, 1, 2].map((row) => (
              <div key={row} className="flex flex-col gap-2 px-4 py-4">
                <Skeleton className="h-4 w-2/3" />
                <Skeleton className="h-3 w-full" />
                <Skeleton className="h-3 w-1/3" />
              </div>
            ))}
          </div>
        ) : tickets.length === 0 ? (
          <div className="flex flex-col items-center justify-center gap-2 px-6 py-14 text-center">
            <span className="flex size-12 items-center justify-center rounded-full bg-indigo-50 text-primary">
              <Inbox className="size-6" aria-hidden="true" />
            </span>
            <p className="font-medium">{ticketMessages.noTickets}</p>
            <p className="text-sm text-muted-foreground">{ticketMessages.noTicketsHint}</p>
          </div>
        ) : (
          <ul className="divide-y" aria-label={props.heading} {...roving.listProps}>
            {tickets.map((ticket) => (
              <li key={ticket.id}>
                <TicketListItem
                  ticket={ticket}
                  selected={ticket.id === selectedId}
                  messageCount={ticket.id === selectedId ? props.selectedMessageCount : null}
                  author={authors?.get(ticket.user_id)}
                  showAuthor={authors !== undefined}
                  onSelect={() => props.onSelect(ticket.id)}
                  rovingProps={roving.itemProps(String(ticket.id))}
                />
              </li>
            ))}
          </ul>
        )}
        {props.hasMore && (
          <div className="border-t p-3">
            <Button variant="ghost" className="w-full" busy={props.loadingMore} onClick={props.onLoadMore}>
              {t('list.loadMore')}
            </Button>
          </div>
        )}
      </div>
    </>
  );
}
