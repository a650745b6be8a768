import { type AdminPaymentDetailResponse, adminRoutes } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { BadgeDollarSign, History, ReceiptText, RefreshCw, Webhook, Wrench } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { formatDollars } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { AmountField, amountProblem, parseDollars } from './amount-field';
import { type AdminPaymentActionResponse, paymentActions, paymentQuery, useAdminAction } from './api';
import { BackLink, DetailFrame, useObjectId } from './detail-page';
import {
  AuditEntries,
  Collapsible,
  ConsoleSection,
  DateTime,
  EmptyText,
  Fact,
  Facts,
  LedgerTable,
  linkClass,
  Money,
  PaymentStatusBadge,
} from './parts';

type Payment = AdminPaymentDetailResponse['payment'];

/** A raw body as received; JSON is shown indented. */
function prettyBody(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function PaymentActions({ payment }: { payment: Payment }) {
  const [amount, setAmount] = useState('');
  const reconcile = useAdminAction<void, AdminPaymentActionResponse>(() =>
    paymentActions.reconcile(payment.id)(),
  );
  const credit = useAdminAction<{ amount: number; reason: string }, AdminPaymentActionResponse>((body) =>
    paymentActions.credit(payment.id)(body),
  );
  // A pending invoice is still open at the provider (reconcile it); a completed one credited itself.
  const creditable = payment.status !== 'pending' && payment.status !== 'completed';
  return (
    <ConsoleSection
      id="payment-actions"
      icon={Wrench}
      title="Actions"
      description="Each action is recorded in the audit log."
    >
      <div className="flex flex-wrap gap-2">
        <ActionDialog
          label="Reconcile now"
          icon={RefreshCw}
          title={`Check payment #${payment.id} with ${payment.provider}?`}
          description="The payment provider is asked about this invoice now and its answer applied, as its webhook would: a paid invoice is credited once."
          confirmLabel="Reconcile now"
          reason={false}
          run={() => reconcile.mutateAsync()}
        />
        {creditable && (
          <ActionDialog
            label="Credit by hand"
            icon={BadgeDollarSign}
            title={`Credit payment #${payment.id} by hand?`}
            description={
              <>
                The amount you enter is added to {payment.username}'s balance and the payment is marked
                completed. The invoice was for {formatDollars(payment.amount)}. This happens once per payment.
              </>
            }
            confirmLabel="Credit"
            onOpen={() => setAmount('')}
            validate={() => (parseDollars(amount) === null ? amountProblem : null)}
            run={(reason) => credit.mutateAsync({ amount: parseDollars(amount)!, reason })}
          >
            <AmountField value={amount} onChange={setAmount} label="Amount to credit (USD)" />
          </ActionDialog>
        )}
      </div>
    </ConsoleSection>
  );
}

function PaymentDetail({ data }: { data: AdminPaymentDetailResponse }) {
  const { payment } = data;
  return (
    <>
      <BackLink to={adminRoutes.payments} label="Payments" />
      <PageHeader
        title={`Payment #${payment.id}`}
        description={`A ${formatDollars(payment.amount)} top-up by ${payment.username} through ${payment.provider}.`}
      />
      <div className="grid min-w-0 grid-cols-1 gap-4 lg:gap-6">
        <ConsoleSection id="payment-facts" icon={ReceiptText} title="Payment">
          <Facts>
            <Fact label="Status">
              <PaymentStatusBadge status={payment.status} />
            </Fact>
            <Fact label="User">
              <Link to={adminRoutes.user(payment.user_id)} className={linkClass}>
                {payment.username}
              </Link>
            </Fact>
            <Fact label="Amount">
              <Money dollars={payment.amount} />
            </Fact>
            <Fact label="Credited">
              <Money dollars={payment.credited} />
            </Fact>
            <Fact label="Created">
              <DateTime value={payment.created_at} />
            </Fact>
            <Fact label="Provider">{payment.provider}</Fact>
            <Fact label="Order id">
              <span className="break-all">{payment.order_id}</span>
            </Fact>
            <Fact label="Provider's invoice id">
              <span className="break-all">{payment.provider_payment_id ?? '—'}</span>
            </Fact>
            <Fact label="Provider's status">{payment.provider_status ?? '—'}</Fact>
          </Facts>
        </ConsoleSection>
        <PaymentActions payment={payment} />
        <ConsoleSection
          id="payment-events"
          icon={Webhook}
          title="Provider events"
          description="Every authenticated webhook and payment-info answer about this invoice, as received."
        >
          {data.events.length === 0 ? (
            <EmptyText>The provider has said nothing about this invoice yet.</EmptyText>
          ) : (
            <ul className="divide-y" aria-label="Provider events">
              {data.events.map((event, index) => (
                <li
                  // Events have no id; their order is the order they arrived in.
                  // biome-ignore lint/suspicious/noArrayIndexKey: the list only grows at its end.
                  key={index}
                  className="flex min-w-0 flex-col gap-2 py-3 first:pt-0 last:pb-0"
                >
                  <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                    <span className="font-medium">{event.source}</span>
                    <PaymentStatusBadge status={event.status} />
                    <span className="text-muted-foreground">
                      <DateTime value={event.received_at} />
                    </span>
                  </div>
                  <dl className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Amount:</dt>
                      <dd>
                        <Money dollars={event.amount} />
                      </dd>
                    </div>
                    <div className="flex gap-1">
                      <dt className="text-muted-foreground">Paid (USD):</dt>
                      <dd>
                        <Money dollars={event.paid_amount_usd} />
                      </dd>
                    </div>
                  </dl>
                  {event.raw_body && (
                    <Collapsible summary="Raw body">{prettyBody(event.raw_body)}</Collapsible>
                  )}
                </li>
              ))}
            </ul>
          )}
        </ConsoleSection>
        <ConsoleSection id="payment-ledger" icon={ReceiptText} title="Ledger entries">
          {data.ledger.length === 0 ? (
            <EmptyText>No ledger entry refers to this payment.</EmptyText>
          ) : (
            <LedgerTable entries={data.ledger} />
          )}
        </ConsoleSection>
        <ConsoleSection id="payment-audit" icon={History} title="Audit">
          {data.audit.length === 0 ? (
            <EmptyText>No administrator has acted on this payment.</EmptyText>
          ) : (
            <AuditEntries entries={data.audit} showObject={false} />
          )}
        </ConsoleSection>
      </div>
    </>
  );
}

/** `/admin/payments/:id`: a top-up invoice, what its provider said about it, its money and its audit. */
export function PaymentPage() {
  const id = useObjectId();
  const payment = useQuery({ ...paymentQuery(id ?? 0), enabled: id !== null });
  return (
    <DetailFrame
      id={id}
      query={payment}
      title={`Payment #${id}`}
      back={{ to: adminRoutes.payments, label: 'Payments' }}
    >
      {() => <PaymentDetail data={payment.data!} />}
    </DetailFrame>
  );
}
