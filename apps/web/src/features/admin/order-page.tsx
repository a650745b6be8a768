import { type AdminOrderDetailResponse, adminRoutes } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { Ban, Flag, History, MessageSquareText, ReceiptText, Server, Undo2, Wrench } from 'lucide-react';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { formatDollars, formatPhone } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { type AdminOrderActionResponse, orderActions, orderQuery, useAdminAction } from './api';
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
  OrderStatusBadge,
  serviceName,
} from './parts';

type Order = AdminOrderDetailResponse['order'];

/** Refund: the order's price back to the user. One with a code needs the box ticked (the code did not work). */
export function RefundAction({ order }: { order: Order }) {
  const forceId = useId();
  const [force, setForce] = useState(false);
  const refund = useAdminAction<{ reason: string; force: boolean }, AdminOrderActionResponse>(
    ({ reason, force }) => orderActions.refund(order.id)({ reason, force }),
  );
  const hasCode = order.code !== null || order.status === 'received' || order.status === 'completed';
  return (
    <ActionDialog
      label="Refund"
      icon={Undo2}
      title={`Refund order #${order.id}?`}
      description={
        <>
          {formatDollars(order.price)} goes back to {order.username}'s balance and the order ends as canceled.
          {hasCode && ' A code arrived for this order: refund it only if the code did not work.'}
        </>
      }
      confirmLabel={`Refund ${formatDollars(order.price)}`}
      destructive
      onOpen={() => setForce(false)}
      run={(reason) => refund.mutateAsync({ reason, force })}
    >
      {hasCode && (
        <label htmlFor={forceId} className="flex cursor-pointer items-start gap-2 text-sm">
          <input
            id={forceId}
            type="checkbox"
            checked={force}
            onChange={(event) => setForce(event.target.checked)}
            className="mt-0.5 size-4 shrink-0 accent-primary"
          />
          <span>Refund although a code arrived</span>
        </label>
      )}
    </ActionDialog>
  );
}

function OrderActions({ order }: { order: Order }) {
  const cancel = useAdminAction<string, AdminOrderActionResponse>((reason) =>
    orderActions.cancelUpstream(order.id)({ reason }),
  );
  const problem = useAdminAction<string, AdminOrderActionResponse>((reason) =>
    orderActions.problem(order.id)({ reason }),
  );
  return (
    <ConsoleSection
      id="order-actions"
      icon={Wrench}
      title="Actions"
      description="Each action is recorded in the audit log with its reason."
    >
      <div className="flex flex-wrap gap-2">
        <RefundAction order={order} />
        <ActionDialog
          label="Cancel at provider"
          icon={Ban}
          title={`Cancel order #${order.id}'s number at ${order.provider}?`}
          description="The number is given back to the provider, so it stops costing there. The user's money is not touched: refund the order for that."
          confirmLabel="Cancel at provider"
          run={(reason) => cancel.mutateAsync(reason)}
        />
        <ActionDialog
          label="Mark as problem"
          icon={Flag}
          title={`Mark order #${order.id} as a problem?`}
          description="The order shows as a problem in the lists (Problems only finds it), with your note."
          confirmLabel="Mark as problem"
          reasonLabel="Note (recorded in the audit log)"
          run={(reason) => problem.mutateAsync(reason)}
        />
      </div>
    </ConsoleSection>
  );
}

function OrderDetail({ data }: { data: AdminOrderDetailResponse }) {
  const { order } = data;
  return (
    <>
      <BackLink to={adminRoutes.orders} label="Orders" />
      <PageHeader
        title={`Order #${order.id}`}
        description={`${serviceName(order.service)} number in ${countryName(order.country_id)}, bought by ${order.username}.`}
      />
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6">
        <ConsoleSection id="order-facts" icon={ReceiptText} title="Order">
          <Facts>
            <Fact label="Status">
              <span className="flex flex-wrap items-center gap-1.5">
                <OrderStatusBadge status={order.status} />
                {order.problem_note !== null && <Badge variant="warning">Problem</Badge>}
              </span>
            </Fact>
            <Fact label="User">
              <Link to={adminRoutes.user(order.user_id)} className={linkClass}>
                {order.username}
              </Link>
            </Fact>
            <Fact label="Price">
              <Money dollars={order.price} />
            </Fact>
            <Fact label="Service">{serviceName(order.service)}</Fact>
            <Fact label="Country">{countryName(order.country_id)}</Fact>
            <Fact label="Operator">{order.operator}</Fact>
            <Fact label="Phone">{order.phone ? formatPhone(order.phone) : '—'}</Fact>
            <Fact label="Code">{order.code ? <span className="font-mono">{order.code}</span> : '—'}</Fact>
            <Fact label="Bought">
              <DateTime value={order.created_at} />
            </Fact>
            <Fact label="Provider">{order.provider}</Fact>
            <Fact label="Provider's order id">
              <span className="break-all">{order.provider_order_id ?? '—'}</span>
            </Fact>
            <Fact label="Why it ended">{order.status_reason ?? '—'}</Fact>
            {order.problem_note !== null && <Fact label="Problem note">{order.problem_note}</Fact>}
          </Facts>
        </ConsoleSection>
        <OrderActions order={order} />
        <ConsoleSection id="order-upstream" icon={Server} title="Provider calls">
          {data.upstream.length === 0 ? (
            <EmptyText>No call to a provider is recorded for this order.</EmptyText>
          ) : (
            <ol className="divide-y" aria-label="Provider calls">
              {data.upstream.map((call) => (
                <li
                  key={`${call.at}-${call.provider}-${call.action}-${call.outcome}`}
                  className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
                >
                  <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <DateTime value={call.at} />
                    <span className="font-medium text-foreground">
                      {call.action} at {call.provider}
                    </span>
                    <Badge variant={call.outcome === 'ok' ? 'success' : 'warning'}>{call.outcome}</Badge>
                    {call.latency_ms !== null && <span>{call.latency_ms} ms</span>}
                  </span>
                  {call.detail && <span className="text-sm break-words">{call.detail}</span>}
                </li>
              ))}
            </ol>
          )}
        </ConsoleSection>
        <ConsoleSection id="order-sms" icon={MessageSquareText} title="SMS history">
          {data.messages.length === 0 ? (
            <EmptyText>No SMS arrived for this order.</EmptyText>
          ) : (
            <ul className="divide-y" aria-label="SMS">
              {data.messages.map((message) => (
                <li
                  key={`${message.received_at}-${message.text}`}
                  className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
                >
                  <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                    <DateTime value={message.received_at} />
                    {message.code && (
                      <span className="font-mono text-sm text-foreground">{message.code}</span>
                    )}
                    {message.late && <Badge variant="warning">Late: after the order ended</Badge>}
                  </span>
                  <span className="text-sm break-words">{message.text}</span>
                </li>
              ))}
            </ul>
          )}
        </ConsoleSection>
        <ConsoleSection id="order-ledger" icon={ReceiptText} title="Ledger entries">
          {data.ledger.length === 0 ? (
            <EmptyText>No ledger entry refers to this order.</EmptyText>
          ) : (
            <LedgerTable entries={data.ledger} />
          )}
        </ConsoleSection>
        <ConsoleSection id="order-audit" icon={History} title="Audit">
          {data.audit.length === 0 ? (
            <EmptyText>No administrator has acted on this order.</EmptyText>
          ) : (
            <AuditEntries entries={data.audit} showObject={false} />
          )}
        </ConsoleSection>
      </div>
    </>
  );
}

/** `/admin/orders/:id`: an order's facts, its provider calls, its SMS, its money and what administrators did to it. */
export function OrderPage() {
  const id = useObjectId();
  const order = useQuery({ ...orderQuery(id ?? 0), enabled: id !== null });
  return (
    <DetailFrame
      id={id}
      query={order}
      title={`Order #${id}`}
      back={{ to: adminRoutes.orders, label: 'Orders' }}
    >
      {() => <OrderDetail data={order.data!} />}
    </DetailFrame>
  );
}
