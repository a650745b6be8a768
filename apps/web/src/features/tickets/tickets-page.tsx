import { DEFAULT_TICKET_SORT, type TicketSort, ticketMessages } from '@simcode/contract';
import { LifeBuoy, LogIn, MessageCircle, MessagesSquare, Plus, UserPlus } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageContainer, PageHeader } from '@/components/page-header';
import { TicketStatusLegend } from '@/components/ticket-status-badge';
import { Button } from '@/components/ui/button';
import { publicPath } from '@/i18n';
import { publicConfig } from '@/lib/public-config';
import { useSession } from '@/lib/session';
import { cn } from '@/lib/utils';
import { type TicketScope, useTicketAuthors, useTicketList, useTicketThread } from './api';
import { NewTicketDialog } from './new-ticket-dialog';
import { TicketList } from './ticket-list';
import { type OrderControls, TicketThread, TicketThreadSkeleton } from './ticket-thread';

/** Below Tailwind's md breakpoint the two panes take the screen in turn. */
const PHONE_QUERY = '(max-width: 767.98px)';

/** The selected ticket lives in the address (?ticket=12), so a phone's back button returns to the list. */
function useSelectedTicket() {
  const [searchParams, setSearchParams] = useSearchParams();
  const raw = Number(searchParams.get('ticket'));
  const selectedId = Number.isSafeInteger(raw) && raw > 0 ? raw : null;
  const select = (ticketId: number | null) =>
    setSearchParams(
      (params) => {
        const next = new URLSearchParams(params);
        if (ticketId === null) next.delete('ticket');
        else next.set('ticket', String(ticketId));
        return next;
      },
      // Opening a ticket from the list is a step the back button undoes; switching or closing one is not.
      // Choosing a ticket is not a new page: the scroll position stays.
      { replace: ticketId === null || selectedId !== null, preventScrollReset: true },
    );
  return [selectedId, select] as const;
}

function NothingSelected({ onNewTicket }: { onNewTicket(): void }) {
  const { t } = useTranslation('tickets');
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-3 px-6 py-16 text-center">
      <span className="flex size-14 items-center justify-center rounded-full bg-indigo-50 text-primary">
        <MessagesSquare className="size-7" aria-hidden="true" />
      </span>
      <h2 className="text-lg font-semibold tracking-tight">{ticketMessages.selectTicket}</h2>
      <p className="max-w-sm text-sm text-muted-foreground">{t('page.nothingSelected')}</p>
      <Button className="mt-2" onClick={onNewTicket}>
        <Plus aria-hidden="true" />
        {t('page.create')}
      </Button>
    </div>
  );
}

function TicketWorkspace({ isAdmin, orderControls }: { isAdmin: boolean; orderControls?: OrderControls }) {
  const { t } = useTranslation('tickets');
  const scope: TicketScope = isAdmin ? 'admin' : 'user';
  const heading = isAdmin ? t('page.allTickets') : t('page.yourTickets');
  const [sort, setSort] = useState<TicketSort>(DEFAULT_TICKET_SORT);
  const [creating, setCreating] = useState(false);
  const [selectedId, select] = useSelectedTicket();
  const list = useTicketList(scope, sort);
  const thread = useTicketThread(scope, selectedId);

  const tickets = list.data?.pages.flatMap((page) => page.tickets) ?? [];
  const authors = useTicketAuthors(
    tickets.map((ticket) => ticket.user_id),
    isAdmin,
  );
  const open = thread.data;

  // On a phone the open ticket is a screen of its own: bring it up under the navigation bar.
  const conversationRef = useRef<HTMLElement>(null);
  useEffect(() => {
    // After the New Ticket dialog has gone: it holds the page still while open.
    if (selectedId === null || creating || !window.matchMedia?.(PHONE_QUERY).matches) return;
    const frame = requestAnimationFrame(() =>
      conversationRef.current?.scrollIntoView({ block: 'start', behavior: 'instant' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [selectedId, creating]);

  // A ticket that cannot be loaded (deleted, or not this user's) leaves the selection quietly.
  useEffect(() => {
    if (thread.isError && !thread.data) select(null);
  }, [thread.isError, thread.data, select]);

  return (
    <div className="overflow-hidden rounded-xl border bg-white shadow-sm md:grid md:h-[calc(100dvh-13.5rem)] md:min-h-[34rem] md:grid-cols-[minmax(18rem,22rem)_1fr] lg:grid-cols-[24rem_1fr]">
      <section
        aria-label={heading}
        className={cn('flex min-h-0 flex-col md:border-r', selectedId !== null && 'hidden md:flex')}
      >
        <TicketList
          heading={heading}
          tickets={tickets}
          loading={list.isPending}
          selectedId={selectedId}
          selectedMessageCount={open?.ticket.id === selectedId ? open.messages.length : null}
          authors={isAdmin ? authors : undefined}
          sort={sort}
          onSortChange={setSort}
          onSelect={select}
          onNewTicket={() => setCreating(true)}
          hasMore={list.hasNextPage}
          loadingMore={list.isFetchingNextPage}
          onLoadMore={() => list.fetchNextPage()}
        />
      </section>
      <section
        ref={conversationRef}
        aria-label={t('page.conversation')}
        className={cn(
          'flex min-h-0 flex-col',
          // On phones the open ticket fills the screen below the bar, with the input at the bottom.
          selectedId === null ? 'hidden md:flex' : 'h-[calc(100dvh-4.75rem)] scroll-mt-16 md:h-auto',
        )}
      >
        {selectedId === null ? (
          <NothingSelected onNewTicket={() => setCreating(true)} />
        ) : open && open.ticket.id === selectedId ? (
          <TicketThread
            ticket={open.ticket}
            messages={open.messages}
            isAdmin={isAdmin}
            authorName={authors.get(open.ticket.user_id)?.username}
            orderControls={orderControls}
            onBack={() => select(null)}
            onDeleted={() => select(null)}
          />
        ) : (
          <TicketThreadSkeleton />
        )}
      </section>
      <NewTicketDialog open={creating} onOpenChange={setCreating} onCreated={(ticket) => select(ticket.id)} />
    </div>
  );
}

/**
 * `/dashboard/tickets`. `orderControls` are what administrators get on a ticket about an order (the
 * console's): the app passes them in, so this feature does not reach into the console.
 */
export function TicketsPage({ orderControls }: { orderControls?: OrderControls }) {
  const { t } = useTranslation('tickets');
  const { isSignedIn, isAdmin } = useSession();
  return (
    <PageContainer>
      <PageHeader
        title={t('page.title')}
        description={isAdmin ? t('page.descriptionAdmin') : t('page.descriptionUser')}
        actions={<TicketStatusLegend />}
      />
      {isSignedIn ? (
        <TicketWorkspace isAdmin={isAdmin} orderControls={orderControls} />
      ) : (
        <div className="mx-auto flex max-w-lg flex-col items-center gap-3 rounded-xl border bg-white px-6 py-12 text-center shadow-sm">
          <span className="flex size-14 items-center justify-center rounded-full bg-indigo-50 text-primary">
            <LifeBuoy className="size-7" aria-hidden="true" />
          </span>
          <p className="text-lg font-semibold tracking-tight">{ticketMessages.loginRequired}</p>
          <p className="text-sm text-muted-foreground">{t('page.signInHint')}</p>
          <div className="mt-2 flex flex-wrap justify-center gap-2">
            <Button asChild>
              <Link to={publicPath('/login')}>
                <LogIn aria-hidden="true" />
                {t('page.signIn')}
              </Link>
            </Button>
            <Button asChild variant="outline">
              <Link to={publicPath('/register')}>
                <UserPlus aria-hidden="true" />
                {t('page.createAccount')}
              </Link>
            </Button>
          </div>
          {/* A question before there is an account goes to the chat. */}
          <a
            href={publicConfig().supportChatUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1.5 text-sm font-medium text-primary underline underline-offset-2"
          >
            <MessageCircle className="size-4" aria-hidden="true" />
            {t('common:support.chat')}
            <span className="sr-only">{t('common:newTab')}</span>
          </a>
        </div>
      )}
    </PageContainer>
  );
}
