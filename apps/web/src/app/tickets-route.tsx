import { lazy, Suspense } from 'react';
import type { OrderControls } from '@/features/tickets/ticket-thread';
import { TicketsPage } from '@/features/tickets/tickets-page';

// The console's part of a ticket about an order: loaded only when an administrator opens one.
const TicketOrderControls = lazy(() =>
  import('@/features/admin/ticket-order-controls').then(({ TicketOrderControls }) => ({
    default: TicketOrderControls,
  })),
);

const OrderControlsOfTicket: OrderControls = (props) => (
  <Suspense fallback={null}>
    <TicketOrderControls {...props} />
  </Suspense>
);

/** Support tickets, where administrators also get the console's controls of the order a ticket is about. */
export function TicketsRoute() {
  return <TicketsPage orderControls={OrderControlsOfTicket} />;
}
