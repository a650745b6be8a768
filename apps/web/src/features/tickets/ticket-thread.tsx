import { type Ticket, type TicketMessage, ticketMessages } from '@simcode/contract';
import { ArrowLeft, CircleCheck, Clock, Headset, Lock } from 'lucide-react';
import { type ComponentType, useEffect, useRef } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatLongDate, formatTime } from '@/lib/format';
import { cn } from '@/lib/utils';
import { DeleteTicketButton, TicketStatusSelect, UserInfoDialog } from './admin-controls';
import { useCloseTicket, useSendTicketMessage } from './api';
import { MessageComposer } from './message-composer';

/** Administrators' controls of the order a problem report is about (the console's, passed in by the app). */
export type OrderControls = ComponentType<{ ticket: Ticket; orderId: number }>;

interface ThreadProps {
  ticket: Ticket;
  messages: TicketMessage[];
  /** Administrators see every ticket and answer as support; users see their own and write to support. */
  isAdmin: boolean;
  /** Administrators: the username of the ticket's author, once known. */
  authorName?: string;
  orderControls?: OrderControls;
  onBack(): void;
  onDeleted(): void;
}

function MessageBubble({
  message,
  isAdmin,
  authorName,
}: {
  message: TicketMessage;
  isAdmin: boolean;
  authorName?: string;
}) {
  const { t } = useTranslation('tickets');
  // Each side sees its own messages on the right, as in any chat: a user sees support on the left.
  const mine = message.is_admin === isAdmin;
  const label = message.is_admin
    ? t('thread.support')
    : isAdmin
      ? (authorName ?? t('thread.user'))
      : t('thread.you');
  const sent = new Date(message.created_at);
  return (
    <li
      className="flex max-w-[88%] flex-col items-start gap-1 data-[side=end]:ml-auto data-[side=end]:items-end sm:max-w-[75%]"
      data-author={message.is_admin ? 'support' : 'user'}
      data-side={mine ? 'end' : 'start'}
    >
      <span className="flex items-center gap-1.5 px-1 text-xs text-muted-foreground">
        {message.is_admin && <Headset className="size-3.5 text-primary" aria-hidden="true" />}
        <span className="font-medium text-slate-700">{label}</span>
        <span aria-hidden="true">·</span>
        <time dateTime={message.created_at} title={`${formatLongDate(sent)} ${formatTime(sent)}`}>
          {formatTime(sent)}
        </time>
      </span>
      {/* Plain text: React escapes it, pre-wrap keeps the line breaks, and links stay inert text. */}
      <p
        className={cn(
          'rounded-2xl px-4 py-2.5 text-sm leading-relaxed break-words whitespace-pre-wrap shadow-xs [overflow-wrap:anywhere]',
          mine
            ? 'rounded-br-md bg-primary text-primary-foreground'
            : 'rounded-bl-md border bg-white text-foreground',
        )}
      >
        {message.content}
      </p>
    </li>
  );
}

function ThreadNote({ status }: { status: string }) {
  if (status === 'closed') {
    return (
      <p className="flex items-center gap-2 rounded-lg border border-slate-200 bg-slate-100 px-3 py-2 text-sm text-slate-700">
        <Lock className="size-4 shrink-0" aria-hidden="true" />
        {ticketMessages.closedNote}
      </p>
    );
  }
  if (status === 'waiting_for_reply') {
    return (
      <p className="flex items-center gap-2 rounded-lg border border-yellow-300 bg-warning-soft px-3 py-2 text-sm text-yellow-950">
        <Clock className="size-4 shrink-0 text-yellow-700" aria-hidden="true" />
        {ticketMessages.waitingNote}
      </p>
    );
  }
  return null;
}

/** The right pane with a ticket open: its header and actions, the conversation and the message input. */
export function TicketThread({
  ticket,
  messages,
  isAdmin,
  authorName,
  orderControls: OrderControlsOfTicket,
  onBack,
  onDeleted,
}: ThreadProps) {
  const { t } = useTranslation('tickets');
  const scope = isAdmin ? 'admin' : 'user';
  const close = useCloseTicket(scope);
  const send = useSendTicketMessage(scope);
  const scrollRef = useRef<HTMLDivElement>(null);
  const closed = ticket.status === 'closed';
  // A user may close only an open ticket; support may close anything not closed yet.
  const canClose = isAdmin ? !closed : ticket.status === 'open';

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the newest message when one arrives or another ticket opens.
  useEffect(() => {
    const container = scrollRef.current;
    if (container) container.scrollTop = container.scrollHeight;
  }, [ticket.id, messages.length]);

  return (
    <>
      <header className="flex flex-col gap-2.5 border-b p-4">
        <div className="flex items-start gap-1">
          <Button variant="ghost" size="icon-sm" className="-ml-2 shrink-0 md:hidden" onClick={onBack}>
            <ArrowLeft aria-hidden="true" />
            <span className="sr-only">{t('thread.back')}</span>
          </Button>
          <h2 className="min-w-0 text-lg leading-snug font-semibold tracking-tight break-words">
            {ticket.title}
          </h2>
        </div>
        <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-muted-foreground">
          <TicketStatusBadge status={ticket.status} />
          <span>
            <Trans
              t={t}
              i18nKey="thread.openedOn"
              values={{ date: formatLongDate(ticket.created_at) }}
              components={{ time: <time dateTime={ticket.created_at} /> }}
            />
          </span>
          <span className="whitespace-nowrap">
            <span aria-hidden="true">· </span>
            {t('thread.ticketId', { id: ticket.id })}
          </span>
        </div>
        {(isAdmin || canClose) && (
          <div className="flex flex-wrap items-center gap-2">
            {isAdmin && <UserInfoDialog userId={ticket.user_id} />}
            {isAdmin && <TicketStatusSelect ticket={ticket} />}
            {isAdmin && OrderControlsOfTicket && ticket.activation_id && (
              <OrderControlsOfTicket ticket={ticket} orderId={ticket.activation_id} />
            )}
            {canClose && (
              <Button
                variant="outline"
                size="sm"
                busy={close.isPending}
                onClick={() => close.mutate(ticket.id)}
              >
                {!close.isPending && <CircleCheck aria-hidden="true" />}
                {t('thread.close')}
              </Button>
            )}
            {isAdmin && <DeleteTicketButton ticketId={ticket.id} onDeleted={onDeleted} />}
          </div>
        )}
      </header>
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto bg-slate-50/70 px-4 py-5">
        <ol className="flex flex-col gap-4" aria-label={t('thread.messages')}>
          {messages.map((message) => (
            <MessageBubble key={message.id} message={message} isAdmin={isAdmin} authorName={authorName} />
          ))}
        </ol>
      </div>
      <footer className="flex flex-col gap-3 border-t bg-white p-4">
        <ThreadNote status={ticket.status} />
        <MessageComposer
          key={ticket.id}
          disabled={closed}
          busy={send.isPending}
          placeholder={
            closed
              ? t('thread.closedPlaceholder')
              : isAdmin
                ? t('thread.replyPlaceholder')
                : t('thread.messagePlaceholder')
          }
          onSend={(content) => send.mutateAsync({ ticketId: ticket.id, content })}
        />
      </footer>
    </>
  );
}

export function TicketThreadSkeleton() {
  const { t } = useTranslation('tickets');
  return (
    <div className="flex flex-1 flex-col">
      <span role="status" className="sr-only">
        {t('thread.loading')}
      </span>
      <div className="flex flex-col gap-2 border-b p-4">
        <Skeleton className="h-5 w-1/2" />
        <Skeleton className="h-3.5 w-40" />
      </div>
      <div className="flex flex-1 flex-col gap-4 p-4">
        <Skeleton className="h-14 w-2/3" />
        <Skeleton className="ml-auto h-10 w-1/2" />
        <Skeleton className="h-16 w-3/5" />
      </div>
    </div>
  );
}
