import { randomBytes } from 'node:crypto';
import {
  checkTopupAmount,
  MIN_TOPUP_CENTS,
  paymentProviderBrand,
  RECENT_TOPUPS_LIMIT,
  topupMessages,
} from '@simcode/contract';
import { decimalToCents } from '@simcode/cryptomus-protocol';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { DatabaseHandle } from '../../db/client';
import type { Payment } from '../../db/schema';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { fail, notFound } from '../../lib/errors';
import {
  type PaymentInfo,
  type PaymentLookup,
  type PaymentMethod,
  type PaymentProvider,
  PaymentProviderError,
  type ProcessorBalance,
  type WebhookHeaders,
} from '../../providers/payments/types';
import { createCrediting } from './credit';
import { CONFIRMATION_WAIT_MS, ENDED_UNPAID, endStateFor, shouldCredit } from './credit-rules';
import { createDepositService } from './deposits';
import type { PaymentHealth } from './health';
import { createPaymentsRepository } from './repository';

/** The webhook path of a provider under /api/topup; its invoices' callback URL points here. */
export const webhookPath = (provider: string) => `/${provider}/webhook`;
/** A healthy provider's methods are asked for again after this long. */
const METHODS_CACHE_MS = 60_000;
/** Unpaid invoices are left alone for this long after their lifetime before we call them expired. */
export const EXPIRY_GRACE_MS = 5 * 60_000;
export { CONFIRMATION_WAIT_MS } from './credit-rules';
export interface TopupServiceDeps {
  config: Pick<Config, 'TOPUP_MAX_USD' | 'PUBLIC_URL' | 'TOPUP_INVOICE_LIFETIME_SECONDS'>;
  database: DatabaseHandle;
  /** The payment pool in order of preference: the first healthy one is the default for a new invoice. */
  paymentProviders: readonly PaymentProvider[];
  paymentHealth: PaymentHealth;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Random, so nobody learns or guesses another payer's order; letters, digits, `_` and `-` for Cryptomus. */
function newOrderId(): string {
  return `top_${randomBytes(18).toString('base64url')}`;
}

/**
 * What a paid invoice is worth to the balance: its own amount when paid exactly, and what the provider
 * confirms in US dollars when the payer paid over (never less than the invoice).
 */
function creditFor(payment: Payment, truth: PaymentInfo): number {
  if (truth.outcome === 'paid_over') return Math.max(payment.amountCents, truth.paidAmountUsdCents ?? 0);
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
  paymentProviders,
  paymentHealth: health,
  events,
  clock,
  log,
}: TopupServiceDeps) {
  const { db } = database;
  const repository = createPaymentsRepository(db);
  const maxCents = Math.max(MIN_TOPUP_CENTS, decimalToCents(config.TOPUP_MAX_USD) ?? MIN_TOPUP_CENTS);
  const publicUrl = config.PUBLIC_URL.replace(/\/+$/, '');
  const topupPageUrl = `${publicUrl}/dashboard/topup`;
  const providersByName = new Map(paymentProviders.map((provider) => [provider.name, provider]));
  const methodsCache = new Map<string, { methods: PaymentMethod[]; atMs: number }>();

  /** Calls a provider, keeping its health: a failure that says it is unreachable hides it. */
  async function track<T>(provider: PaymentProvider, call: () => Promise<T>): Promise<T> {
    try {
      const result = await call();
      health.succeeded(provider.name);
      return result;
    } catch (error) {
      health.failed(provider.name, error);
      throw error;
    }
  }

  const credit = createCrediting({ db, events, log });
  const deposits = createDepositService({
    database,
    paymentProviders,
    health,
    track,
    methodsOf: (provider) => methodsOf(provider),
    credit,
    callbackUrl: (provider) => `${publicUrl}/api/topup${webhookPath(provider)}`,
    clock,
    log,
  });

  /** The provider's methods, cached while it is healthy; null while it is down (asked again now and then). */
  async function methodsOf(provider: PaymentProvider): Promise<PaymentMethod[] | null> {
    const nowMs = clock.now().getTime();
    const cached = methodsCache.get(provider.name);
    if (health.isUp(provider.name) && cached && nowMs - cached.atMs < METHODS_CACHE_MS) return cached.methods;
    if (!health.isUp(provider.name) && !health.probeDue(provider.name)) return null;
    try {
      const methods = await track(provider, () => provider.listMethods());
      methodsCache.set(provider.name, { methods, atMs: nowMs });
      return methods;
    } catch (error) {
      if (!(error instanceof PaymentProviderError)) throw error;
      log.warn({ err: error, provider: provider.name }, "could not list a payment provider's methods");
      return null;
    }
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
      amountCents: truth.amountCents ?? null,
      paidAmountUsdCents: truth.paidAmountUsdCents ?? null,
      rawBody: null,
      receivedAt: now,
    });
    const sameInvoice =
      truth.orderId === payment.orderId &&
      (payment.providerPaymentId === null || payment.providerPaymentId === truth.providerPaymentId);
    // Our invoices are all USD and never change amount; anything else is a case for a person, not for code.
    // A provider may not know the amount yet (nothing chosen or paid): that says nothing against the invoice.
    const asCreated =
      truth.currency === 'USD' &&
      (truth.amountCents === payment.amountCents ||
        (truth.amountCents === undefined && !shouldCredit(truth)));
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
      const credited = await credit(current, {
        creditedCents: creditFor(current, truth),
        providerStatus: truth.status,
        providerPaymentId: truth.providerPaymentId,
        now,
      });
      // Credited before (a replay, or a race this attempt lost): only the provider's word is news.
      if (!credited) await repository.recordCheck(current.id, { providerStatus: truth.status, now });
      return;
    }
    if (truth.isFinal && ENDED_UNPAID.has(truth.outcome)) {
      const endState = endStateFor(truth.outcome, current.expiresAt, now);
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
    if (truth.outcome === 'refunding' && current.status === 'completed') {
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
      (overdueMs >= CONFIRMATION_WAIT_MS || (truth.outcome === 'unpaid' && overdueMs >= EXPIRY_GRACE_MS))
    ) {
      await repository.markEnded(current.id, 'expired', { providerStatus: truth.status, now });
    }
  }

  function lookupFor(payment: Payment): PaymentLookup {
    return payment.providerPaymentId
      ? { providerPaymentId: payment.providerPaymentId, orderId: payment.orderId }
      : { orderId: payment.orderId };
  }

  /**
   * Asks the provider about one payment and applies the answer. When the provider cannot answer, the
   * payment waits for the next round, unless its time is long over.
   */
  async function reconcile(payment: Payment): Promise<void> {
    if (payment.depositAddressId !== null) return deposits.reconcile(payment);
    const provider = providersByName.get(payment.provider);
    if (!provider) {
      // Taken out of PAYMENT_PROVIDERS while this payment was open: an operator settles it in the console.
      log.error(
        { orderId: payment.orderId, provider: payment.provider },
        'payment of a provider no longer configured',
      );
      await repository.recordCheck(payment.id, { now: clock.now() });
      return;
    }
    let truth: PaymentInfo;
    try {
      truth = await track(provider, () => provider.getPayment(lookupFor(payment)));
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
    deposits,
    /** Pending invoices not asked about since `checkedBefore`, least recently checked first. */
    dueForCheck: (checkedBefore: Date, limit: number) => repository.listDueForCheck(checkedBefore, limit),
    limits: () => ({ minCents: MIN_TOPUP_CENTS, maxCents }),

    /** Every healthy provider with its ways to pay, in the pool's order; down providers are left out. */
    async methods(): Promise<{ provider: string; kind: string; methods: PaymentMethod[] }[]> {
      const listed = await Promise.all(
        paymentProviders.map(async (provider) => ({ provider, methods: await methodsOf(provider) })),
      );
      return listed.flatMap(({ provider, methods }) =>
        methods === null ? [] : [{ provider: provider.name, kind: provider.kind, methods }],
      );
    },

    /** Each configured provider and its health, for the console. */
    providers: () =>
      paymentProviders.map((provider) => ({
        name: provider.name,
        kind: provider.kind,
        depositAddresses: provider.staticWallets !== undefined,
        ...health.view(provider.name),
      })),

    /**
     * What the merchant holds at a provider, for the console: null while the provider is down (the console
     * is not kept waiting for it) or when it cannot say now. A failed read leaves the health alone: invoices
     * may still work when the balance call does not.
     */
    async balancesOf(name: string): Promise<ProcessorBalance[] | null> {
      const provider = providersByName.get(name);
      if (!provider || !health.isUp(name)) return null;
      try {
        return await provider.readBalances();
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.warn({ err: error, provider: name }, "could not read a payment provider's balance");
        return null;
      }
    },

    /**
     * Creates an invoice for the user at the named provider, or the first healthy one; the payer pays it
     * on the provider's page.
     */
    async createInvoice(
      userId: number,
      amount: number,
      providerName?: string,
    ): Promise<{ url: string; orderId: string; provider: string }> {
      const check = checkTopupAmount(amount, maxCents);
      if (check.error !== undefined) throw fail('invalid_amount', check.error);
      const provider =
        providerName === undefined
          ? (paymentProviders.find((candidate) => health.isUp(candidate.name)) ?? paymentProviders[0]!)
          : providersByName.get(providerName);
      if (!provider) throw fail('invalid_payment_provider');
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
        const invoice = await track(provider, () =>
          provider.createInvoice({
            orderId: payment.orderId,
            amountCents: payment.amountCents,
            callbackUrl: `${publicUrl}/api/topup${webhookPath(provider.name)}`,
            returnUrl,
            successUrl: returnUrl,
            lifetimeSeconds,
          }),
        );
        await repository.attachInvoice(payment.id, {
          providerPaymentId: invoice.providerPaymentId,
          paymentUrl: invoice.url,
          providerStatus: invoice.status,
          expiresAt: invoice.expiresAt,
          now: clock.now(),
        });
        return { url: invoice.url, orderId: payment.orderId, provider: provider.name };
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.error(
          { err: error, orderId: payment.orderId, provider: provider.name },
          'could not create a top-up invoice',
        );
        // 'unavailable' means the invoice may exist after all: the reconciliation job looks it up later.
        if (error.kind !== 'unavailable') {
          await repository.markEnded(payment.id, 'failed', { now: clock.now() });
        }
        throw fail('invoice_failed', topupMessages.invoiceFailedAt(paymentProviderBrand(provider.name)));
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
    async handleWebhook(
      providerName: string,
      rawBody: string,
      sourceIp: string,
      headers: WebhookHeaders = {},
    ): Promise<void> {
      const provider = providersByName.get(providerName);
      const webhook = provider?.verifyWebhook(rawBody, sourceIp, headers);
      if (!provider || !webhook) {
        log.warn(
          { sourceIp, provider: providerName },
          'refused a payment webhook: bad signature, source or shape',
        );
        throw fail('invalid_webhook');
      }
      if (webhook.kind === 'deposit') {
        await repository.addEvent({
          paymentId: (await repository.findByProviderPaymentId(webhook.providerPaymentId))?.id ?? null,
          orderId: webhook.orderId,
          providerPaymentId: webhook.providerPaymentId,
          source: 'webhook',
          status: webhook.status,
          isFinal: webhook.isFinal,
          amountCents: null,
          paidAmountUsdCents: webhook.paidAmountUsdCents ?? null,
          rawBody,
          receivedAt: clock.now(),
        });
        await deposits.handleWebhook(provider, webhook);
        return;
      }
      const found = await repository.findByOrderId(webhook.orderId);
      // A provider speaks only for its own payments: another provider's order is not its to change.
      const payment = found?.provider === provider.name ? found : undefined;
      await repository.addEvent({
        paymentId: payment?.id ?? null,
        orderId: webhook.orderId,
        providerPaymentId: webhook.providerPaymentId,
        source: 'webhook',
        status: webhook.status,
        isFinal: webhook.isFinal,
        amountCents: webhook.amountCents ?? null,
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
