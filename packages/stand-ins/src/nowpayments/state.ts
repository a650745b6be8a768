import { randomBytes, randomInt } from 'node:crypto';
import { isFinalStatus, SIGNATURE_HEADER, signIpn } from '@simcode/nowpayments-protocol';
import type { Clock } from '../clock';
import type { StandInLogger } from '../logger';
import { type Coin, centsToUnits, fakeAddress, type Invoice, IPN_TIMEOUT_MS, type Payment } from './model';
import { paymentObject } from './views';

/**
 * The sandbox's memory: invoices, payments, dashboard tokens and the fault switch, and what moves a payment
 * on (its status, its IPN with retries, its expiry). The routes read and change it; nothing else does.
 */
export function createNowPaymentsState(options: {
  clock: Clock;
  logger: StandInLogger;
  ipnSecret: string;
  lifetimeMs: number;
  retryDelaysMs: number[];
}) {
  const { clock, logger, lifetimeMs, retryDelaysMs } = options;
  const invoices = new Map<string, Invoice>();
  const payments = new Map<number, Payment>();
  const tokens = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  // Ids look like a busy provider's, and differ between runs as real ones would.
  let nextInvoiceId = 5_000_000_000 + randomInt(1_000_000);
  let nextPaymentId = 4_000_000_000 + randomInt(1_000_000);
  const nowMs = () => clock.now().getTime();

  /** Posts the payment's IPN, retrying refused deliveries on the configured schedule. */
  function sendIpn(payment: Payment, attempt = 0): void {
    const url = payment.invoice.ipnCallbackUrl;
    if (!url) return;
    const payload = paymentObject(payment);
    const body = JSON.stringify(payload);
    const retry = () => {
      const delayMs = retryDelaysMs[attempt];
      if (delayMs === undefined) return;
      const timer = setTimeout(() => {
        timers.delete(timer);
        sendIpn(payment, attempt + 1);
      }, delayMs);
      timer.unref();
      timers.add(timer);
    };
    fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SIGNATURE_HEADER]: signIpn(payload, options.ipnSecret),
      },
      body,
      signal: AbortSignal.timeout(IPN_TIMEOUT_MS),
    })
      .then(async (response) => {
        await response.body?.cancel();
        logger.info(
          { paymentId: payment.paymentId, status: response.status },
          'nowpayments sandbox IPN sent',
        );
        if (response.status >= 300) retry();
      })
      .catch((error: unknown) => {
        logger.warn({ paymentId: payment.paymentId, err: String(error) }, 'nowpayments sandbox IPN failed');
        retry();
      });
  }

  /** Moves a payment on and announces it, unless a test wants the IPN lost (`announce: false`). */
  function setStatus(payment: Payment, status: string, paidUnits?: number, announce = true): void {
    payment.status = status;
    if (paidUnits !== undefined) {
      payment.paidUnits = paidUnits;
      payment.payinHash ??= randomBytes(32).toString('hex');
    }
    payment.updatedAtMs = nowMs();
    logger.info({ paymentId: payment.paymentId, status }, 'nowpayments sandbox payment changed');
    if (announce) sendIpn(payment);
  }

  function expireDue(): void {
    const now = nowMs();
    for (const payment of payments.values()) {
      if (payment.status === 'waiting' && payment.createdAtMs + lifetimeMs <= now)
        setStatus(payment, 'expired');
    }
  }

  /** The payer picks a coin on the invoice page: NOWPayments opens a payment for it. */
  function openPayment(invoice: Invoice, coin: Coin): Payment {
    const existing = [...payments.values()].find(
      (payment) => payment.invoice === invoice && payment.coin === coin && !isFinalStatus(payment.status),
    );
    if (existing) return existing;
    const now = nowMs();
    const payment: Payment = {
      paymentId: nextPaymentId++,
      invoice,
      status: 'waiting',
      coin,
      payAddress: fakeAddress(coin),
      payUnits: centsToUnits(invoice.priceCents, coin),
      paidUnits: 0,
      payinHash: null,
      createdAtMs: now,
      updatedAtMs: now,
    };
    payments.set(payment.paymentId, payment);
    return payment;
  }

  return {
    invoices,
    payments,
    tokens,
    /** While true, every merchant call answers 503 (the control API's fault injection). */
    faulty: false,
    nowMs,
    newInvoiceId: () => String(nextInvoiceId++),
    sendIpn,
    setStatus,
    expireDue,
    openPayment,
    /** Stops IPN retries. */
    stop(): void {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

export type NowPaymentsState = ReturnType<typeof createNowPaymentsState>;

/** What a payment of `status` received when a test does not say: exact, half, or 10% more. */
export function defaultPaidUnits(payment: Payment, status: string): number | undefined {
  if (status === 'partially_paid') return Math.floor(payment.payUnits / 2);
  if (status === 'finished' && payment.paidUnits === 0) return payment.payUnits;
  if (['confirming', 'confirmed', 'sending'].includes(status) && payment.paidUnits === 0)
    return payment.payUnits;
  return undefined;
}
