import { type AdminUserDetailResponse, adminRoutes } from '@simcode/contract';
import { useInfiniteQuery } from '@tanstack/react-query';
import {
  CalendarClock,
  CreditCard,
  History,
  KeyRound,
  LifeBuoy,
  ListOrdered,
  MonitorSmartphone,
  ReceiptText,
  UserRound,
} from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { EmptyText } from '@/components/empty-text';
import { linkClass } from '@/components/link-class';
import { PageHeader } from '@/components/page-header';
import { SectionCard } from '@/components/section-card';
import { TicketStatusBadge } from '@/components/ticket-status-badge';
import { Badge } from '@/components/ui/badge';
import { deviceName } from '@/lib/device-name';
import { formatDollars } from '@/lib/format';
import { ledgerQuery, ordersQuery, paymentsQuery, rentsQuery, userQuery } from './api';
import { BackLink, ObjectPage } from './detail-page';
import { OrdersTable } from './orders-page';
import { AuditEntries, Fact, Facts, LedgerTable, ListState, LoadMore, YesNo } from './parts';
import { PaymentsTable } from './payments-page';
import { RentsTable } from './rents-page';
import { UserActions } from './user-actions';

type Detail = AdminUserDetailResponse;

function AccountFacts({ user }: { user: Detail['user'] }) {
  const { t } = useTranslation('admin');
  return (
    <SectionCard id="user-account" icon={UserRound} title={t('user.account')}>
      <div className="flex flex-col gap-1">
        <p className="text-sm font-medium text-muted-foreground">{t('user.balance')}</p>
        <p className="text-3xl font-bold tracking-tight tabular-nums" data-testid="user-balance">
          {formatDollars(user.balance)}
        </p>
      </div>
      <Facts className="xl:grid-cols-2">
        <Fact label={t('user.id')}>{user.id}</Fact>
        <Fact label={t('user.email')}>
          <span className="break-all">{user.email}</span>
        </Fact>
        <Fact label={t('user.role')}>
          <Badge variant={user.role === 'admin' ? 'info' : 'muted'}>
            {t(user.role === 'admin' ? 'role.admin' : 'role.user')}
          </Badge>
        </Fact>
        <Fact label={t('user.created')}>
          <DateTime value={user.created_at} />
        </Fact>
        <Fact label={t('user.twoFactor')}>
          <YesNo value={user.two_factor} yes={t('on')} no={t('off')} />
        </Fact>
        <Fact label={t('user.blocked')}>
          {user.blocked ? (
            <span className="flex flex-col gap-1">
              <Badge variant="destructive" className="self-start">
                {t('user.blocked')}
              </Badge>
              {user.blocked_at && (
                <span className="text-xs text-muted-foreground">
                  <Trans
                    t={t}
                    i18nKey="user.blockedSince"
                    components={{ date: <DateTime value={user.blocked_at} /> }}
                  />
                </span>
              )}
              {user.blocked_reason && <span className="font-normal">{user.blocked_reason}</span>}
            </span>
          ) : (
            <YesNo value={false} />
          )}
        </Fact>
      </Facts>
    </SectionCard>
  );
}

function LedgerSection({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const ledger = useInfiniteQuery(ledgerQuery(userId));
  const entries = ledger.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <SectionCard
      id="user-ledger"
      icon={ReceiptText}
      title={t('ledger.label')}
      description={t('user.ledgerDescription')}
    >
      <ListState query={ledger} empty={entries.length === 0} emptyText={t('user.noLedger')} />
      {entries.length > 0 && <LedgerTable entries={entries} />}
      <LoadMore query={ledger} />
    </SectionCard>
  );
}

function OrdersSection({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const orders = useInfiniteQuery(ordersQuery({ user_id: String(userId) }));
  const rows = orders.data?.pages.flatMap((page) => page.orders) ?? [];
  return (
    <SectionCard
      id="user-orders"
      icon={ListOrdered}
      title={t('nav.orders')}
      actions={
        <Link to={`${adminRoutes.orders}?user_id=${userId}`} className={`${linkClass} text-sm`}>
          {t('user.filterOrders')}
        </Link>
      }
    >
      <ListState query={orders} empty={rows.length === 0} emptyText={t('user.noOrders')} />
      {rows.length > 0 && <OrdersTable orders={rows} showUser={false} />}
      <LoadMore query={orders} />
    </SectionCard>
  );
}

function PaymentsSection({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const payments = useInfiniteQuery(paymentsQuery({ user_id: String(userId) }));
  const rows = payments.data?.pages.flatMap((page) => page.payments) ?? [];
  return (
    <SectionCard
      id="user-payments"
      icon={CreditCard}
      title={t('nav.payments')}
      actions={
        <Link to={`${adminRoutes.payments}?user_id=${userId}`} className={`${linkClass} text-sm`}>
          {t('user.filterPayments')}
        </Link>
      }
    >
      <ListState query={payments} empty={rows.length === 0} emptyText={t('user.noPayments')} />
      {rows.length > 0 && <PaymentsTable payments={rows} showUser={false} />}
      <LoadMore query={payments} />
    </SectionCard>
  );
}

function RentsSection({ userId }: { userId: number }) {
  const { t } = useTranslation('admin');
  const rents = useInfiniteQuery(rentsQuery({ user_id: String(userId) }));
  const rows = rents.data?.pages.flatMap((page) => page.rents) ?? [];
  return (
    <SectionCard
      id="user-rents"
      icon={CalendarClock}
      title={t('nav.rents')}
      actions={
        <Link to={`${adminRoutes.rents}?user_id=${userId}`} className={`${linkClass} text-sm`}>
          {t('user.filterRents')}
        </Link>
      }
    >
      <ListState query={rents} empty={rows.length === 0} emptyText={t('user.noRents')} />
      {rows.length > 0 && <RentsTable rents={rows} showUser={false} />}
      <LoadMore query={rents} />
    </SectionCard>
  );
}

function TicketsSection({ tickets }: { tickets: Detail['tickets'] }) {
  const { t } = useTranslation('admin');
  return (
    <SectionCard
      id="user-tickets"
      icon={LifeBuoy}
      title={t('user.tickets')}
      actions={
        <Link to="/dashboard/tickets" className={`${linkClass} text-sm`}>
          {t('user.allTickets')}
        </Link>
      }
    >
      {tickets.length === 0 ? (
        <EmptyText>{t('user.noTickets')}</EmptyText>
      ) : (
        <ul className="divide-y" aria-label={t('user.tickets')}>
          {tickets.map((ticket) => (
            <li
              key={ticket.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5 first:pt-0 last:pb-0"
            >
              <Link
                to={`/dashboard/tickets?ticket=${ticket.id}`}
                className={`${linkClass} min-w-0 break-words`}
              >
                {ticket.subject}
              </Link>
              <TicketStatusBadge status={ticket.status} />
              <span className="text-xs text-muted-foreground">
                <DateTime value={ticket.created_at} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function ApiKeysSection({ keys }: { keys: Detail['api_keys'] }) {
  const { t } = useTranslation('admin');
  return (
    <SectionCard id="user-api-keys" icon={KeyRound} title={t('user.apiKeys')}>
      {keys.length === 0 ? (
        <EmptyText>{t('user.noApiKeys')}</EmptyText>
      ) : (
        <ul className="divide-y" aria-label={t('user.apiKeys')}>
          {keys.map((key) => (
            <li
              key={key.id}
              className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5 first:pt-0 last:pb-0"
            >
              <span className="min-w-0 font-medium break-words">{key.name}</span>
              {key.revoked_at ? (
                <Badge variant="muted">{t('user.revoked')}</Badge>
              ) : (
                <Badge variant="success">{t('user.active')}</Badge>
              )}
              <span className="text-xs text-muted-foreground">
                <Trans
                  t={t}
                  i18nKey="user.keyCreated"
                  components={{ date: <DateTime value={key.created_at} /> }}
                />
                {key.revoked_at && (
                  <Trans
                    t={t}
                    i18nKey="user.keyRevoked"
                    components={{ date: <DateTime value={key.revoked_at} /> }}
                  />
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function SessionsSection({ sessions }: { sessions: Detail['sessions'] }) {
  const { t } = useTranslation('admin');
  return (
    <SectionCard id="user-sessions" icon={MonitorSmartphone} title={t('user.sessions')}>
      {sessions.length === 0 ? (
        <EmptyText>{t('user.noSessions')}</EmptyText>
      ) : (
        <ul className="divide-y" aria-label={t('user.sessionsLabel')}>
          {sessions.map((session) => (
            <li key={session.id} className="flex min-w-0 flex-col gap-1 py-2.5 first:pt-0 last:pb-0">
              <p className="flex flex-wrap items-center gap-2 text-sm font-medium">
                {deviceName(session.user_agent)}
                {session.revoked_at ? (
                  <Badge variant="muted">{t('user.ended')}</Badge>
                ) : (
                  <Badge variant="success">{t('user.active')}</Badge>
                )}
              </p>
              <dl className="flex flex-wrap gap-x-4 gap-y-0.5 text-xs text-muted-foreground">
                <div className="flex gap-1">
                  <dt>{t('user.address')}</dt>
                  <dd className="break-all text-foreground">{session.address ?? t('user.unknownAddress')}</dd>
                </div>
                <div className="flex gap-1">
                  <dt>{t('user.signedIn')}</dt>
                  <dd className="text-foreground">
                    <DateTime value={session.created_at} />
                  </dd>
                </div>
                <div className="flex gap-1">
                  <dt>{t('user.lastSeen')}</dt>
                  <dd className="text-foreground">
                    <DateTime value={session.last_seen_at} />
                  </dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}

function UserDetail({ data }: { data: Detail }) {
  const { t } = useTranslation('admin');
  const { user } = data;
  return (
    <>
      <BackLink to={adminRoutes.users} label={t('nav.users')} />
      <PageHeader
        title={user.username}
        description={
          <>
            {t('user.title', { id: user.id })} · <span className="break-all">{user.email}</span>
          </>
        }
      />
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6 xl:grid-cols-2">
        <AccountFacts user={user} />
        <UserActions user={user} />
        <div className="min-w-0 xl:col-span-2">
          <LedgerSection userId={user.id} />
        </div>
        <div className="min-w-0 xl:col-span-2">
          <OrdersSection userId={user.id} />
        </div>
        <PaymentsSection userId={user.id} />
        <RentsSection userId={user.id} />
        <TicketsSection tickets={data.tickets} />
        <ApiKeysSection keys={data.api_keys} />
        <div className="min-w-0 xl:col-span-2">
          <SessionsSection sessions={data.sessions} />
        </div>
        <div className="min-w-0 xl:col-span-2">
          <SectionCard id="user-audit" icon={History} title={t('user.audit')}>
            {data.audit.length === 0 ? (
              <EmptyText>{t('user.noAudit')}</EmptyText>
            ) : (
              <AuditEntries entries={data.audit} showObject={false} />
            )}
          </SectionCard>
        </div>
      </div>
    </>
  );
}

/** `/admin/users/:id`: an account with its money, orders, sessions and everything done to it. */
export function UserPage() {
  const { t } = useTranslation('admin');
  return (
    <ObjectPage
      query={userQuery}
      title={(id) => t('user.title', { id })}
      back={{ to: adminRoutes.users, label: t('nav.users') }}
    >
      {(data) => <UserDetail data={data} />}
    </ObjectPage>
  );
}
