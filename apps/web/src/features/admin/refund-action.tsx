import type { AdminOrderDetailResponse, AdminRentDetailResponse, RefundRequest } from '@simcode/contract';
import { Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDollars } from '@/lib/format';
import { ActionDialog } from './action-dialog';
import { useRefundOrder, useRefundRent } from './api';

/**
 * Refund: everything the user paid for an order or a rent back, once. One that delivered needs the box
 * ticked (`needsForce`): refunding it must be meant.
 */
function RefundAction({
  kind,
  id,
  dollars,
  username,
  needsForce,
  refunded,
  refund,
  label,
  defaultReason,
}: {
  kind: 'order' | 'rent';
  id: number;
  dollars: number;
  username: string;
  needsForce: boolean;
  /** Refunded already (or ended with its money back): the server would refuse, so the button is off. */
  refunded: boolean;
  refund(body: RefundRequest): Promise<{ message: string }>;
  label?: string;
  defaultReason?: string;
}) {
  const { t } = useTranslation('admin');
  const forceId = useId();
  const [force, setForce] = useState(false);
  const amount = formatDollars(dollars);
  return (
    <ActionDialog
      label={label ?? t(`${kind}.refund`)}
      icon={Undo2}
      title={t(`${kind}.refundTitle`, { id })}
      description={
        <>
          {t(`${kind}.refundDescription`, { amount, user: username })}
          {needsForce && t(kind === 'order' ? 'order.refundHasCode' : 'rent.refundHasSms')}
        </>
      }
      confirmLabel={t(`${kind}.refundAmount`, { amount })}
      destructive
      disabled={refunded}
      defaultReason={defaultReason}
      onOpen={() => setForce(false)}
      run={(reason) => refund({ reason, force })}
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
          <span>{t(`${kind}.force`)}</span>
        </label>
      )}
    </ActionDialog>
  );
}

/** An order's refund; one with a code needs the box ticked (the code did not work). */
export function RefundOrder({
  order,
  label,
  defaultReason,
}: {
  order: AdminOrderDetailResponse['order'];
  /** The button's text where "Refund" alone would not say what (a support ticket). */
  label?: string;
  defaultReason?: string;
}) {
  const refund = useRefundOrder(order.id);
  return (
    <RefundAction
      kind="order"
      id={order.id}
      dollars={order.price}
      username={order.username}
      needsForce={order.code !== null || order.status === 'received' || order.status === 'completed'}
      refunded={order.refund_reason !== null}
      refund={refund.mutateAsync}
      label={label}
      defaultReason={defaultReason}
    />
  );
}

/** A rent's refund, the first period and every renewal; one that received SMS (or ended) needs the box. */
export function RefundRent({ rent, hasSms }: { rent: AdminRentDetailResponse['rent']; hasSms: boolean }) {
  const refund = useRefundRent(rent.id);
  return (
    <RefundAction
      kind="rent"
      id={rent.id}
      dollars={rent.charged}
      username={rent.username}
      needsForce={hasSms || rent.status === 'expired'}
      refunded={rent.status === 'canceled' || rent.status === 'failed'}
      refund={refund.mutateAsync}
    />
  );
}
