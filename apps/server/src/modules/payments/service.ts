import { randomBytes } from 'node:crypto';
import { checkTopupAmount, MIN_TOPUP_CENTS, RECENT_TOPUPS_LIMIT, topupMessages } from '@simcode/contract';
import {
  decimalToCents,
  isFailedStatus,
  isRefundStatus,
  type PaymentStatus,
  shouldCredit,
} from '@simcode/cryptomus-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { DatabaseHandle } from '../../db/client';
import type { Payment, PaymentState } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { fail, notFound } from '../../lib/errors';
import {
  type PaymentInfo,
  type PaymentLookup,
  type PaymentProvider,
  PaymentProviderError,
} from '../../providers/payments/types';
import { applyLedgerChange } from '../accounts/ledger';
import { createPaymentsRepository } from './repository';

/** The webhook path under /api/topup; the invoice's callback URL points here. */
export const WEBHOOK_PATH = '/cryptomus/webhook';
/** Unpaid invoices are left alone for this long after their lifetime before we call them expired. */
export const EXPIRY_GRACE_MS = 5 * 60_000;
/**
 * A payment the provider has seen but not confirmed yet (`confirm_check`, `process`...) is watched this long
 * past its lifetime: crypto crediting takes up to 12 hours (spec section 9). A confirmation after that still
 * credits when its webhook arrives.
 */
export const CONFIRMATION_WAIT_MS = 24 * 60 * 60_000;
/** Clocks of two servers disagree a little: a cancel this close to the end of the lifetime is an expiry. */
const CLOCK_SKEW_MS = 60_000;

export interface TopupServiceDeps {
  config: Pick<Config, 'TOPUP_MAX_USD' | 'PUBLIC_URL' | 'TOPUP_INVOICE_LIFETIME_SECONDS'>;
  database: DatabaseHandle;
  payments: PaymentProvider;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Random, so nobody learns or guesses another payer's order; letters, digits, `_` and `-` for Cryptomus. */
function newOrderId(): string {
  return `top_${randomBytes(18).toString('base64url')}`;
}

/** Where a final unpaid provider status leaves our payment. */
function endStateFor(
  status: PaymentStatus,
  expiresAt: Date,
  now: Date,
): Exclude<PaymentState, 'pending' | 'completed'> {
  if (status === 'wrong_amount') return 'underpaid';
  if (status === 'cancel')
    return now.getTime() >= expiresAt.getTime() - CLOCK_SKEW_MS ? 'expired' : 'canceled';
  return 'failed';
}

/**
 * What a paid invoice is worth to the balance: its own amount when paid exactly, and what the provider
 * confirms in US dollars when the payer paid over (never less than the invoice).
 */
function creditFor(payment: Payment, truth: PaymentInfo): number {
  if (truth.status === 'paid_over') return Math.max(payment.amountCents, truth.paidAmountUsdCents ?? 0);
  return payment.amountCents;
}

/**
 * Balance top-ups: invoices at the payment provider, and crediting them exactly once. Nothing a webhook
 * says is trusted beyond "look at this order": the payment's truth is always re-read from the provider's
 * payment info, and only a final paid status credits, in the same transaction as the status change.
 */
export function createTopupService({
  config,
  database,
  payments: provider,
  events,
  clock,
  log,
}: TopupServiceDeps) {
  const { db } = database;
  const repository = createPaymentsRepository(db);
  const maxCents = Math.max(MIN_TOPUP_CENTS, decimalToCents(config.TOPUP_MAX_USD) ?? MIN_TOPUP_CENTS);
  const publicUrl = config.PUBLIC_URL.replace(/\/+$/, '');
  const topupPageUrl = `${publicUrl}/dashboard/topup`;

  async function credit(payment: Payment, truth: PaymentInfo, now: Date): Promise<Payment | undefined> {
    const creditedCents = creditFor(payment, truth);
    const credited = await db.transaction(async (tx) => {
      const changed = await createPaymentsRepository(tx).markCompleted(payment.id, {
        creditedCents,
        providerStatus: truth.status,
        now,
      });
      if (!changed) return undefined;
      await applyLedgerChange(tx, {
        userId: changed.userId,
        amountCents: creditedCents,
        kind: 'topup',
        referenceType: 'payment',
        referenceId: String(changed.id),
        idempotencyKey: `topup:${truth.providerPaymentId}`,
        note: `Top-up ${changed.orderId} (${truth.status})`,
      });
      return changed;
    });
    if (credited) {
      events.publish({ userId: credited.userId, type: 'balance' });
      log.info({ orderId: credited.orderId, creditedCents, providerStatus: truth.status }, 'top-up credited');
    }
    return credited;
  }

  /** Applies the provider's word on one of our payments. */
  async function settle(payment: Payment, truth: PaymentInfo): Promise<void> {
    const now = clock.now();
    await repository.addEvent({
      paymentId: payment.id,
      orderId: truth.orderId,
      providerPaymentId: truth.providerPaymentId,
      source: 'poll',
      status: truth.status,
      isFinal: truth.isFinal,
      amountCents: truth.amountCents,
      paidAmountUsdCents: truth.paidAmountUsdCents ?? null,
      rawBody: null,
      receivedAt: now,
    });
    const sameInvoice =
      truth.orderId === payment.orderId &&
      (payment.providerPaymentId === null || payment.providerPaymentId === truth.providerPaymentId);
    // Our invoices are all USD and never change amount; anything else is a case for a person, not for code.
    const asCreated = truth.currency === 'USD' && truth.amountCents === payment.amountCents;
    if (!sameInvoice || !asCreated) {
      log.error(
        {
          orderId: payment.orderId,
          truth,
          ours: { amountCents: payment.amountCents, providerPaymentId: payment.providerPaymentId },
        },
        'the provider describes a different invoice than ours: not credited, needs review',
      );
      await repository.recordCheck(payment.id, { providerStatus: truth.status, now });
      return;
    }
    let current = payment;
    if (current.providerPaymentId === null) {
      // The invoice was created, though its creation call failed on our side: it is ours from now on.
      current =
        (await repository.attachInvoice(current.id, {
          providerPaymentId: truth.providerPaymentId,
          paymentUrl: null,
          providerStatus: truth.status,
          expiresAt: current.expiresAt,
          now,
        })) ?? current;
    }

    if (shouldCredit(truth)) {
      const credited = await credit(current, truth, now);
      // Credited before (a replay, or a race this attempt lost): only the provider's word is news.
      if (!credited) await repository.recordCheck(current.id, { providerStatus: truth.status, now });
      return;
    }
    if (truth.isFinal && isFailedStatus(truth.status)) {
      const endState = endStateFor(truth.status, current.expiresAt, now);
      const ended = await repository.markEnded(current.id, endState, { providerStatus: truth.status, now });
      if (ended) {
        log.info(
          { orderId: current.orderId, status: endState, providerStatus: truth.status },
          'top-up ended unpaid',
        );
      } else {
        await repository.recordCheck(current.id, { providerStatus: truth.status, now });
      }
      return;
    }
    if (isRefundStatus(truth.status) && current.status === 'completed') {
      log.warn(
        { orderId: current.orderId, providerStatus: truth.status },
        'a credited top-up is being refunded at the provider: review the balance',
      );
    }
    await repository.recordCheck(current.id, { providerStatus: truth.status, now });
    // Still open at the provider, long after its lifetime: nothing was paid, or a payment never confirmed.
    const overdueMs = now.getTime() - current.expiresAt.getTime();
    if (
      !truth.isFinal &&
      (overdueMs >= CONFIRMATION_WAIT_MS || (truth.status === 'check' && overdueMs >= EXPIRY_GRACE_MS))
    ) {
      await repository.markEnded(current.id, 'expired', { providerStatus: truth.status, now });
    }
  }

  function lookupFor(payment: Payment): PaymentLookup {
    return payment.providerPaymentId
      ? { providerPaymentId: payment.providerPaymentId }
      : { orderId: payment.orderId };
  }

  /**
   * Asks the provider about one payment and applies the answer. When the provider cannot answer, the
   * payment waits for the next round, unless its time is long over.
   */
  async function reconcile(payment: Payment): Promise<void> {
    let truth: PaymentInfo;
    try {
      truth = await provider.getPayment(lookupFor(payment));
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      const now = clock.now();
      log.warn({ err: error, orderId: payment.orderId }, 'could not read a payment from the provider');
      await repository.recordCheck(payment.id, { now });
      const overdueMs = now.getTime() - payment.expiresAt.getTime();
      // Unknown to the provider once its lifetime is over: the invoice was never created.
      if (error.kind === 'not_found' && overdueMs >= EXPIRY_GRACE_MS) {
        await repository.markEnded(payment.id, 'failed', { now });
      } else if (overdueMs >= CONFIRMATION_WAIT_MS) {
        await repository.markEnded(payment.id, 'expired', { now });
      }
      return;
    }
    await settle(payment, truth);
  }

  return {
    reconcile,
    /** Pending invoices not asked about since `checkedBefore`, least recently checked first. */
    dueForCheck: (checkedBefore: Date, limit: number) => repository.listDueForCheck(checkedBefore, limit),
    limits: () => ({ minCents: MIN_TOPUP_CENTS, maxCents }),

    /** Creates an invoice for the user; the payer pays it on the provider's page. */
    async createInvoice(userId: number, amount: number): Promise<{ url: string; orderId: string }> {
      const check = checkTopupAmount(amount, maxCents);
      if (check.error !== undefined) throw fail('invalid_amount', check.error);
      const now = clock.now();
      const lifetimeSeconds = config.TOPUP_INVOICE_LIFETIME_SECONDS;
      // The row exists before the provider is asked, so an invoice whose creation answer is lost is still
      // found by its order id and credited when paid.
      const payment = await repository.insertPending({
        userId,
        provider: provider.name,
        orderId: newOrderId(),
        amountCents: check.amountCents,
        expiresAt: new Date(now.getTime() + lifetimeSeconds * 1000),
        now,
      });
      // The payer comes back to the top-up page on PUBLIC_URL, which follows this order to its end.
      const returnUrl = `${topupPageUrl}?order=${encodeURIComponent(payment.orderId)}`;
      try {
        const invoice = await provider.createInvoice({
          orderId: payment.orderId,
          amountCents: payment.amountCents,
          callbackUrl: `${publicUrl}/api/topup${WEBHOOK_PATH}`,
          returnUrl,
          successUrl: returnUrl,
          lifetimeSeconds,
        });
        await repository.attachInvoice(payment.id, {
          providerPaymentId: invoice.providerPaymentId,
          paymentUrl: invoice.url,
          providerStatus: invoice.status,
          expiresAt: invoice.expiresAt,
          now: clock.now(),
        });
        return { url: invoice.url, orderId: payment.orderId };
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.error({ err: error, orderId: payment.orderId }, 'could not create a top-up invoice');
        // 'unavailable' means the invoice may exist after all: the reconciliation job looks it up later.
        if (error.kind !== 'unavailable') {
          await repository.markEnded(payment.id, 'failed', { now: clock.now() });
        }
        throw fail('invoice_failed');
      }
    },

    /** The user's own payment by order id; another user's is not found. */
    async findForUser(userId: number, orderId: string): Promise<Payment> {
      const payment = await repository.findByOrderIdForUser(userId, orderId);
      if (!payment) throw notFound(topupMessages.paymentNotFound);
      return payment;
    },

    listRecent: (userId: number) => repository.listForUser(userId, RECENT_TOPUPS_LIMIT),

    /**
     * A webhook: authenticated by its signature (and source address, when configured), recorded, and
     * then used only as a hint that the order changed: what counts is read from the provider.
     */
    async handleWebhook(rawBody: string, sourceIp: string): Promise<void> {
      const webhook = provider.verifyWebhook(rawBody, sourceIp);
      if (!webhook) {
        log.warn({ sourceIp }, 'refused a payment webhook: bad signature, source or shape');
        throw fail('invalid_webhook');
      }
      const payment = await repository.findByOrderId(webhook.orderId);
      await repository.addEvent({
        paymentId: payment?.id ?? null,
        orderId: webhook.orderId,
        providerPaymentId: webhook.providerPaymentId,
        source: 'webhook',
        status: webhook.status,
        isFinal: webhook.isFinal,
        amountCents: webhook.amountCents,
        paidAmountUsdCents: webhook.paidAmountUsdCents ?? null,
        rawBody,
        receivedAt: clock.now(),
      });
      if (!payment) {
        log.warn(
          { orderId: webhook.orderId, status: webhook.status },
          'payment webhook for an order we do not have',
        );
        return;
      }
      await reconcile(payment);
    },
  };
}

export type TopupService = ReturnType<typeof createTopupService>;
