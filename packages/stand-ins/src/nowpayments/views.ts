import { COIN_DECIMALS, unitsToAmount } from '@simcode/nowpayments-protocol';
import { type Invoice, iso, NOWPAYMENTS_SERVICE_FEE_BPS, type Payment, unitsToCents } from './model';

/** NOWPayments' service fee on what a payer paid, in the coin's units. */
const serviceFeeUnits = (paidUnits: number) => Math.floor((paidUnits * NOWPAYMENTS_SERVICE_FEE_BPS) / 10_000);
/** Payments whose money the merchant holds (less the fee), and ones still on their way to it. */
const HELD_STATUSES = new Set(['finished', 'partially_paid']);
const ARRIVING_STATUSES = new Set(['confirming', 'confirmed', 'sending']);

/** A payment as NOWPayments' payment status, payment list and IPN all show it. */
export function paymentObject(payment: Payment): Record<string, unknown> {
  const { invoice, coin } = payment;
  const feeUnits = serviceFeeUnits(payment.paidUnits);
  return {
    payment_id: payment.paymentId,
    invoice_id: Number(invoice.id),
    payment_status: payment.status,
    pay_address: payment.payAddress,
    payin_extra_id: null,
    price_amount: unitsToAmount(invoice.priceCents, 2),
    price_currency: invoice.priceCurrency,
    pay_amount: unitsToAmount(payment.payUnits, COIN_DECIMALS),
    actually_paid: unitsToAmount(payment.paidUnits, COIN_DECIMALS),
    actually_paid_at_fiat: unitsToAmount(unitsToCents(payment.paidUnits, coin), 2),
    pay_currency: coin.code,
    order_id: invoice.orderId,
    order_description: invoice.orderDescription,
    purchase_id: String(payment.paymentId + 1),
    outcome_amount: unitsToAmount(payment.paidUnits - feeUnits, COIN_DECIMALS),
    outcome_currency: coin.code,
    payin_hash: payment.payinHash,
    payout_hash: null,
    fee: {
      currency: coin.code,
      depositFee: 0,
      withdrawalFee: 0,
      serviceFee: unitsToAmount(feeUnits, COIN_DECIMALS),
    },
    created_at: iso(payment.createdAtMs),
    updated_at: iso(payment.updatedAtMs),
    type: 'crypto2crypto',
  };
}

/** An invoice as `POST /v1/invoice` answers it. */
export function invoiceObject(invoice: Invoice, invoiceUrl: string): Record<string, unknown> {
  return {
    id: invoice.id,
    token_id: invoice.tokenId,
    order_id: invoice.orderId,
    order_description: invoice.orderDescription,
    price_amount: unitsToAmount(invoice.priceCents, 2).toString(),
    price_currency: invoice.priceCurrency,
    pay_currency: invoice.payCurrency,
    ipn_callback_url: invoice.ipnCallbackUrl,
    invoice_url: invoiceUrl,
    success_url: invoice.successUrl,
    cancel_url: invoice.cancelUrl,
    created_at: iso(invoice.createdAtMs),
    updated_at: iso(invoice.updatedAtMs),
  };
}

/** The merchant's balance per coin that holds anything: `{<code>: {amount, pendingAmount}}`. */
export function balanceObject(payments: Iterable<Payment>): Record<string, unknown> {
  const held = new Map<string, { amount: number; pending: number }>();
  for (const payment of payments) {
    const kept = HELD_STATUSES.has(payment.status);
    if (!kept && !ARRIVING_STATUSES.has(payment.status)) continue;
    const coin = held.get(payment.coin.code) ?? { amount: 0, pending: 0 };
    if (kept) coin.amount += payment.paidUnits - serviceFeeUnits(payment.paidUnits);
    else coin.pending += payment.paidUnits;
    held.set(payment.coin.code, coin);
  }
  return Object.fromEntries(
    [...held].map(([code, units]) => [
      code,
      {
        amount: unitsToAmount(units.amount, COIN_DECIMALS),
        pendingAmount: unitsToAmount(units.pending, COIN_DECIMALS),
      },
    ]),
  );
}
