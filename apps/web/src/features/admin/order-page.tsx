import { type AdminOrderDetailResponse, adminRoutes } from '@simcode/contract';
import { Ban, Flag, MessageSquareText, ReceiptText, Server, Wrench } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateTime } from '@/components/date-time';
import { linkClass } from '@/components/link-class';
import { Money } from '@/components/money/money';
import { DetailSections } from '@/components/orders/detail-sections';
import { PageHeader } from '@/components/page-header';
import { Badge } from '@/components/ui/badge';
import { formatPhone } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { orderQuery, useCancelUpstream, useMarkProblem } from './api';
import { BackLink, ObjectPage } from './detail-page';
import { historySections } from './history-sections';
import { countryName, Fact, Facts, OrderStatusBadge, serviceName } from './parts';
import { RefundOrder } from './refund-action';
import { SmsList } from './sms-list';

type Order = AdminOrderDetailResponse['order'];

/** What an administrator can do to an order, each confirmed with a reason for the audit log. */
function OrderActions({ order }: { order: Order }) {
  const { t } = useTranslation('admin');
  const cancel = useCancelUpstream(order.id);
  const problem = useMarkProblem(order.id);
  return (
    <div className="flex flex-wrap gap-2">
      <RefundOrder order={order} />
      <ActionDialog
        label={t('order.cancelUpstream')}
        icon={Ban}
        title={t('order.cancelUpstreamTitle', { id: order.id, provider: order.provider })}
        description={t('order.cancelUpstreamDescription')}
        confirmLabel={t('order.cancelUpstream')}
        run={(reason) => cancel.mutateAsync({ reason })}
      />
      <ActionDialog
        label={t('order.markProblem')}
        icon={Flag}
        title={t('order.markProblemTitle', { id: order.id })}
        description={t('order.markProblemDescription')}
        confirmLabel={t('order.markProblem')}
        reasonLabel={t('order.note')}
        run={(reason) => problem.mutateAsync({ reason })}
      />
    </div>
  );
}

function OrderFacts({ order }: { order: Order }) {
  const { t } = useTranslation('admin');
  return (
    <Facts>
      <Fact label={t('order.status')}>
        <span className="flex flex-wrap items-center gap-1.5">
          <OrderStatusBadge order={order} />
          {order.problem_note !== null && <Badge variant="warning">{t('order.problem')}</Badge>}
        </span>
      </Fact>
      <Fact label={t('order.user')}>
        <Link to={adminRoutes.user(order.user_id)} className={linkClass}>
          {order.username}
        </Link>
      </Fact>
      <Fact label={t('order.price')}>
        <Money dollars={order.price} />
      </Fact>
      <Fact label={t('order.service')}>{serviceName(order.service)}</Fact>
      <Fact label={t('order.country')}>{countryName(order.country_id)}</Fact>
      <Fact label={t('order.operator')}>{order.operator}</Fact>
      <Fact label={t('order.phone')}>{order.phone ? formatPhone(order.phone) : '—'}</Fact>
      <Fact label={t('order.code')}>
        {order.code ? <span className="font-mono">{order.code}</span> : '—'}
      </Fact>
      <Fact label={t('order.bought')}>
        <DateTime value={order.created_at} />
      </Fact>
      <Fact label={t('order.provider')}>{order.provider}</Fact>
      <Fact label={t('order.providerOrderId')}>
        <span className="break-all">{order.provider_order_id ?? '—'}</span>
      </Fact>
      <Fact label={t('order.whyEnded')}>{order.status_reason ?? '—'}</Fact>
      {order.problem_note !== null && <Fact label={t('order.problemNote')}>{order.problem_note}</Fact>}
    </Facts>
  );
}

function OrderDetail({ data }: { data: AdminOrderDetailResponse }) {
  const { t } = useTranslation('admin');
  const { order } = data;
  return (
    <>
      <BackLink to={adminRoutes.orders} label={t('nav.orders')} />
      <PageHeader
        title={t('orders.orderId', { id: order.id })}
        description={t('order.description', {
          service: serviceName(order.service),
          country: countryName(order.country_id),
          user: order.username,
        })}
      />
      <DetailSections
        sections={[
          {
            id: 'order-facts',
            icon: ReceiptText,
            title: t('order.facts'),
            content: <OrderFacts order={order} />,
          },
          {
            id: 'order-actions',
            icon: Wrench,
            title: t('order.actions'),
            description: t('order.actionsDescription'),
            content: <OrderActions order={order} />,
          },
          {
            id: 'order-upstream',
            icon: Server,
            title: t('order.calls'),
            empty: data.upstream.length === 0 && t('order.noCalls'),
            content: (
              <ol className="divide-y" aria-label={t('order.calls')}>
                {data.upstream.map((call) => (
                  <li
                    key={`${call.at}-${call.provider}-${call.action}-${call.outcome}`}
                    className="flex flex-col gap-1 py-2.5 first:pt-0 last:pb-0"
                  >
                    <span className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                      <DateTime value={call.at} />
                      <span className="font-medium text-foreground">
                        {t('order.callAt', { action: call.action, provider: call.provider })}
                      </span>
                      <Badge variant={call.outcome === 'ok' ? 'success' : 'warning'}>
                        {t(`status.call.${call.outcome}`, { defaultValue: call.outcome })}
                      </Badge>
                      {call.latency_ms !== null && (
                        <span>{t('duration.ms', { value: call.latency_ms })}</span>
                      )}
                    </span>
                    {call.detail && <span className="text-sm break-words">{call.detail}</span>}
                  </li>
                ))}
              </ol>
            ),
          },
          {
            id: 'order-sms',
            icon: MessageSquareText,
            title: t('order.sms'),
            empty: data.messages.length === 0 && t('order.noSms'),
            content: <SmsList messages={data.messages} label={t('order.smsLabel')} />,
          },
          ...historySections('order', data),
        ]}
      />
    </>
  );
}

/** `/admin/orders/:id`: an order's facts, its provider calls, its SMS, its money and what administrators did to it. */
export function OrderPage() {
  const { t } = useTranslation('admin');
  return (
    <ObjectPage
      query={orderQuery}
      title={(id) => t('orders.orderId', { id })}
      back={{ to: adminRoutes.orders, label: t('nav.orders') }}
    >
      {(data) => <OrderDetail data={data} />}
    </ObjectPage>
  );
}
