import { adminRoutes, type Ticket } from '@simcode/contract';
import { useQuery } from '@tanstack/react-query';
import { ReceiptText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { orderQuery } from './api';
import { RefundOrder } from './refund-action';

/**
 * A ticket a problem report opened is about one order: "Order #N" opens its history in the console, and
 * "Refund order" refunds it in one confirmed step, the reason naming the ticket for the audit log.
 */
export function TicketOrderControls({ ticket, orderId }: { ticket: Ticket; orderId: number }) {
  const { t } = useTranslation('tickets');
  const order = useQuery(orderQuery(orderId));
  return (
    <>
      <Button asChild variant="outline" size="sm">
        <Link to={adminRoutes.order(orderId)}>
          <ReceiptText aria-hidden="true" />
          {t('admin.order', { id: orderId })}
        </Link>
      </Button>
      {order.data && (
        <RefundOrder
          order={order.data.order}
          label={t('admin.refundOrder')}
          defaultReason={t('admin.refundReason', { id: ticket.id, title: ticket.title })}
        />
      )}
    </>
  );
}
