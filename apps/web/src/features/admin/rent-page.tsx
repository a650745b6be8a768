import { type AdminRentDetailResponse, adminRoutes } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import {
  CalendarClock,
  CalendarPlus,
  History,
  MessageSquareText,
  ReceiptText,
  Undo2,
  Wrench,
} from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { formatDollars, formatPhone } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { type AdminRentActionResponse, rentActions, rentQuery, useAdminAction } from './api';
import { BackLink, DetailFrame, useObjectId } from './detail-page';
import {
  AuditEntries,
  ConsoleSection,
  countryName,
  DateTime,
  EmptyText,
  Fact,
  Facts,
  LedgerTable,
  linkClass,
  Money,
  RentStatusBadge,
  rentName,
} from './parts';

type Detail = AdminRentDetailResponse;
type Rent = Detail['rent'];

/** Refund: the rent's first period and every renewal back. One that received SMS (or ended) needs the box. */
function RefundRent({ rent, hasSms }: { rent: Rent; hasSms: boolean }) {
  const forceId = useId();
  const [force, setForce] = useState(false);
  const refund = useAdminAction<{ reason: string; force: boolean }, AdminRentActionResponse>(
    ({ reason, force }) => rentActions.refund(rent.id)({ reason, force }),
  );
  const needsForce = hasSms || rent.status === 'expired';
  return (
    <ActionDialog
      label="Refund"
      icon={Undo2}
      title={`Refund rent #${rent.id}?`}
      description={
        <>
          {formatDollars(rent.charged)} (the first period and every renewal) goes back to {rent.username}'s
          balance and the rent ends as canceled.
          {needsForce && ' SMS arrived on this number: refund it only if the rent did not serve its purpose.'}
        </>
      }
      confirmLabel={`Refund ${formatDollars(rent.charged)}`}
      destructive
      onOpen={() => setForce(false)}
      run={(reason) => refund.mutateAsync({ reason, force })}
    >
      {needsForce && (
        <label htmlFor={forceId} className="flex cursor-pointer items-start gap-2 text-sm">
          <input
            id={forceId}
            type="checkbox"
            checked={force}
            onChange={(event) => setForce(event.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-primary"
          />
          <span>Refund although SMS arrived</span>
        </label>
      )}
    </ActionDialog>
  );
}

function RentDetail({ data }: { data: Detail }) {
  const { rent } = data;
  return (
    <>
      <BackLink to={adminRoutes.rents} label="Rents" />
      <PageHeader
        title={`Rent #${rent.id}`}
        description={`${rentName(rent.service)} number in ${countryName(rent.country_id)} for ${rent.period}, rented by ${rent.username}.`}
      />
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6">
        <ConsoleSection id="rent-facts" icon={CalendarClock} title="Rent">
          <Facts>
            <Fact label="Status">
              <RentStatusBadge status={rent.status} />
            </Fact>
            <Fact label="User">
              <Link to={adminRoutes.user(rent.user_id)} className={linkClass}>
                {rent.username}
              </Link>
            </Fact>
            <Fact label="Charged">
              <Money dollars={rent.charged} />
            </Fact>
            <Fact label="First period">
              <Money dollars={rent.price} />
            </Fact>
            <Fact label="Period">{rent.period}</Fact>
            <Fact label="Service">{rentName(rent.service)}</Fact>
            <Fact label="Country">{countryName(rent.country_id)}</Fact>
            <Fact label="Phone">{rent.phone ? formatPhone(rent.phone) : '—'}</Fact>
            <Fact label="Rented">
              <DateTime value={rent.created_at} />
            </Fact>
            <Fact label="Ends">{rent.ends_at ? <DateTime value={rent.ends_at} /> : '—'}</Fact>
            <Fact label="Provider">{rent.provider}</Fact>
            <Fact label="Provider's rent id">{rent.provider_rent_id ?? '—'}</Fact>
            <Fact label="Why it ended">{rent.status_reason ?? '—'}</Fact>
          </Facts>
        </ConsoleSection>
        <ConsoleSection
          id="rent-actions"
          icon={Wrench}
          title="Actions"
          description="Each action is recorded in the audit log with its reason."
        >
          <div className="flex flex-wrap gap-2">
            <RefundRent rent={rent} hasSms={data.messages.length > 0} />
          </div>
        </ConsoleSection>
        <ConsoleSection id="rent-sms" icon={MessageSquareText} title="SMS">
          {data.messages.length === 0 ? (
            <EmptyText>No SMS arrived on this number.</EmptyText>
          ) : (
            <ul className="divide-y" aria-label="SMS">
              {data.messages.map((message) => (
                <li
                  key={`${message.received_at}-${message.text}`}
                  className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
                >
                  <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <DateTime value={message.received_at} />
                    <span className="font-medium text-foreground">{message.sender}</span>
                    {message.code && (
                      <span className="font-mono text-sm text-foreground">{message.code}</span>
                    )}
                  </span>
                  <span className="text-sm wrap-anywhere">{message.text}</span>
                </li>
              ))}
            </ul>
          )}
        </ConsoleSection>
        <ConsoleSection id="rent-renewals" icon={CalendarPlus} title="Renewals">
          {data.renewals.length === 0 ? (
            <EmptyText>Not renewed.</EmptyText>
          ) : (
            <ul className="divide-y" aria-label="Renewals">
              {data.renewals.map((renewal) => (
                <li
                  key={renewal.id}
                  className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2.5 text-sm first:pt-0 last:pb-0"
                >
                  <span className="font-medium">
                    {renewal.hours} h for <Money dollars={renewal.price} />
                  </span>
                  <Badge variant="muted">{renewal.status}</Badge>
                  {renewal.automatic && <Badge variant="info">Automatic</Badge>}
                  <span className="text-xs text-muted-foreground">
                    <DateTime value={renewal.created_at} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </ConsoleSection>
        <ConsoleSection id="rent-ledger" icon={ReceiptText} title="Ledger entries">
          {data.ledger.length === 0 ? (
            <EmptyText>No ledger entry refers to this rent.</EmptyText>
          ) : (
            <LedgerTable entries={data.ledger} />
          )}
        </ConsoleSection>
        <ConsoleSection id="rent-audit" icon={History} title="Audit">
          {data.audit.length === 0 ? (
            <EmptyText>No administrator has acted on this rent.</EmptyText>
          ) : (
            <AuditEntries entries={data.audit} showObject={false} />
          )}
        </ConsoleSection>
      </div>
    </>
  );
}

/** `/admin/rents/:id`: a rent's facts, its SMS, renewals, money and what administrators did to it. */
export function RentPage() {
  const id = useObjectId();
  const rent = useQuery({ ...rentQuery(id ?? 0), enabled: id !== null });
  return (
    <DetailFrame id={id} query={rent} title={`Rent #${id}`} back={{ to: adminRoutes.rents, label: 'Rents' }}>
      {() => <RentDetail data={rent.data!} />}
    </DetailFrame>
  );
}
