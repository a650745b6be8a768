import { type AdminPaymentDetailResponse, adminRoutes } from '@simcode/contract';
import { BadgeDollarSign, ReceiptText, RefreshCw, Webhook, Wrench } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { DetailSections } from '@/components/orders/detail-sections';
import { PageHeader } from '@/components/page-header';
import { formatDollars } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { AmountField, amountProblem, parseDollars } from './amount-field';
import { paymentQuery, useCreditPayment, useReconcilePayment } from './api';
import { BackLink, ObjectPage } from './detail-page';
import { historySections } from './history-sections';
import { Collapsible, Fact, Facts, PaymentStatusBadge } from './parts';

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
  const { t } = useTranslation('admin');
  const [amount, setAmount] = useState('');
  const reconcile = useReconcilePayment(payment.id);
  const credit = useCreditPayment(payment.id);
  // A pending invoice is still open at the provider (reconcile it); a completed one credited itself.
  const creditable = payment.status !== 'pending' && payment.status !== 'completed';
  return (
    <div className="flex flex-wrap gap-2">
      <ActionDialog
        label={t('payment.reconcile')}
        icon={RefreshCw}
        title={t('payment.reconcileTitle', { id: payment.id, provider: payment.provider })}
        description={t('payment.reconcileDescription')}
        confirmLabel={t('payment.reconcile')}
        reason={false}
        run={() => reconcile.mutateAsync()}
      />
      {creditable && (
        <ActionDialog
          label={t('payment.creditByHand')}
          icon={BadgeDollarSign}
          title={t('payment.creditTitle', { id: payment.id })}
          description={t('payment.creditDescription', {
            user: payment.username,
            amount: formatDollars(payment.amount),
          })}
          confirmLabel={t('payment.credit')}
          onOpen={() => setAmount('')}
          validate={() => (parseDollars(amount) === null ? amountProblem() : null)}
          run={(reason) => credit.mutateAsync({ amount: parseDollars(amount)!, reason })}
        >
          <AmountField value={amount} onChange={setAmount} label={t('payment.creditAmount')} />
        </ActionDialog>
      )}
    </div>
  );
}

function PaymentFacts({ payment }: { payment: Payment }) {
  const { t } = useTranslation('admin');
  return (
    <Facts>
      <Fact label={t('payment.status')}>
        <PaymentStatusBadge status={payment.status} />
      </Fact>
      <Fact label={t('payment.user')}>
        <Link to={adminRoutes.user(payment.user_id)} className={linkClass}>
          {payment.username}
        </Link>
      </Fact>
      <Fact label={t('payment.amount')}>
        <Money dollars={payment.amount} />
      </Fact>
      <Fact label={t('payment.credited')}>
        <Money dollars={payment.credited} />
      </Fact>
      <Fact label={t('payment.created')}>
        <DateTime value={payment.created_at} />
      </Fact>
      <Fact label={t('payment.provider')}>{payment.provider}</Fact>
      <Fact label={t('payment.orderId')}>
        <span className="break-all">{payment.order_id}</span>
      </Fact>
      <Fact label={t('payment.providerInvoiceId')}>
        <span className="break-all">{payment.provider_payment_id ?? '—'}</span>
      </Fact>
      <Fact label={t('payment.providerStatus')}>{payment.provider_status ?? '—'}</Fact>
    </Facts>
  );
}

function PaymentDetail({ data }: { data: AdminPaymentDetailResponse }) {
  const { t } = useTranslation('admin');
  const { payment } = data;
  return (
    <>
      <BackLink to={adminRoutes.payments} label={t('nav.payments')} />
      <PageHeader
        title={t('payments.paymentId', { id: payment.id })}
        description={t('payment.description', {
          amount: formatDollars(payment.amount),
          user: payment.username,
          provider: payment.provider,
        })}
      />
      <DetailSections
        sections={[
          {
            id: 'payment-facts',
            icon: ReceiptText,
            title: t('payment.facts'),
            content: <PaymentFacts payment={payment} />,
          },
          {
            id: 'payment-actions',
            icon: Wrench,
            title: t('payment.actions'),
            description: t('payment.actionsDescription'),
            content: <PaymentActions payment={payment} />,
          },
          {
            id: 'payment-events',
            icon: Webhook,
            title: t('payment.events'),
            description: t('payment.eventsDescription'),
            empty: data.events.length === 0 && t('payment.noEvents'),
            content: (
              <ul className="divide-y" aria-label={t('payment.events')}>
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
                        <dt className="text-muted-foreground">{t('payment.eventAmount')}</dt>
                        <dd>
                          <Money dollars={event.amount} />
                        </dd>
                      </div>
                      <div className="flex gap-1">
                        <dt className="text-muted-foreground">{t('payment.eventPaid')}</dt>
                        <dd>
                          <Money dollars={event.paid_amount_usd} />
                        </dd>
                      </div>
                    </dl>
                    {event.raw_body && (
                      <Collapsible summary={t('payment.rawBody')}>{prettyBody(event.raw_body)}</Collapsible>
                    )}
                  </li>
                ))}
              </ul>
            ),
          },
          ...historySections('payment', data),
        ]}
      />
    </>
  );
}

/** `/admin/payments/:id`: a top-up invoice, what its provider said about it, its money and its audit. */
export function PaymentPage() {
  const { t } = useTranslation('admin');
  return (
    <ObjectPage
      query={paymentQuery}
      title={(id) => t('payments.paymentId', { id })}
      back={{ to: adminRoutes.payments, label: t('nav.payments') }}
    >
      {(data) => <PaymentDetail data={data} />}
    </ObjectPage>
  );
}
