import { centsToDollars, type DepositAddress, type Topup, type TopupStatus } from '@simcode/contract';
import type { DepositAddress as DepositAddressRow, Payment, PaymentState } from '../../db/schema';

const WIRE_STATUS: Record<PaymentState, TopupStatus> = {
  pending: 'PENDING',
  completed: 'COMPLETED',
  underpaid: 'UNDERPAID',
  canceled: 'CANCELED',
  failed: 'FAILED',
  expired: 'EXPIRED',
};

export function wireStatus(payment: Pick<Payment, 'status'>): TopupStatus {
  return WIRE_STATUS[payment.status];
}

/** The API shape of a top-up; the payment page is offered only while the invoice can still be paid. */
export function presentTopup(payment: Payment, now: Date): Topup {
  const payable = payment.status === 'pending' && now.getTime() < payment.expiresAt.getTime();
  return {
    order_id: payment.orderId,
    amount: centsToDollars(payment.amountCents),
    credited_amount: payment.creditedCents === null ? null : centsToDollars(payment.creditedCents),
    status: wireStatus(payment),
    provider_status: payment.providerStatus,
    created_at: payment.createdAt.toISOString(),
    expires_at: payment.expiresAt.toISOString(),
    credited_at: payment.creditedAt?.toISOString() ?? null,
    url: payable ? payment.paymentUrl : null,
  };
}

/** The API shape of a deposit address; only rows whose wallet exists are presented. */
export function presentDepositAddress(row: DepositAddressRow): DepositAddress {
  return {
    provider: row.provider,
    currency: row.currency,
    network: row.network,
    address: row.address ?? '',
    url: row.paymentUrl,
    created_at: row.createdAt.toISOString(),
  };
}
