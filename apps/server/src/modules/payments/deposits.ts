import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client';
import type { DepositAddress, Payment } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import {
  type DepositInfo,
  type PaymentMethod,
  type PaymentProvider,
  PaymentProviderError,
  type PaymentWebhook,
} from '../../providers/payments/types';
import type { createCrediting } from './credit';
import { CONFIRMATION_WAIT_MS, ENDED_UNPAID, endStateFor, shouldCredit } from './credit-rules';
import { createDepositAddressRepository } from './deposit-repository';
import type { PaymentHealth } from './health';
import { createPaymentsRepository } from './repository';

export interface DepositServiceDeps {
  database: DatabaseHandle;
  paymentProviders: readonly PaymentProvider[];
  health: PaymentHealth;
  /** Calls a provider, keeping its health. */
  track<T>(provider: PaymentProvider, call: () => Promise<T>): Promise<T>;
  /** The provider's methods while it is healthy; null while it is down. */
  methodsOf(provider: PaymentProvider): Promise<PaymentMethod[] | null>;
  credit: ReturnType<typeof createCrediting>;
  /** The webhook URL of a provider, which its wallets' deposits are announced to. */
  callbackUrl(provider: string): string;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** One way to get a deposit address now: a healthy provider with static wallets, and one of its coins. */
export interface DepositOption {
  provider: string;
  currency: string;
  network: string;
  minAmount: string;
}

/**
 * Permanent deposit addresses (Cryptomus-kind static wallets): one per user, provider, coin and network,
 * created once however many requests race for it; every confirmed deposit to one becomes a payment row of
 * its own and is credited once at the processor's US dollar value. As with invoices, a webhook is only a
 * hint: the deposit is re-read from the provider, and only its answer credits.
 */
export function createDepositService(deps: DepositServiceDeps) {
  const { clock, log } = deps;
  const { db } = deps.database;
  const addresses = createDepositAddressRepository(db);
  const payments = createPaymentsRepository(db);
  const providersByName = new Map(deps.paymentProviders.map((provider) => [provider.name, provider]));

  /** Applies the provider's word on one deposit to one of our addresses. */
  async function settle(provider: PaymentProvider, address: DepositAddress, truth: DepositInfo) {
    const now = clock.now();
    if (truth.orderId !== address.orderId) {
      log.error(
        { address: address.orderId, truth },
        'a deposit names another wallet than ours: not credited',
      );
      return;
    }
    let payment = await payments.findByProviderPaymentId(truth.providerPaymentId);
    if (!payment) {
      // Nothing to show or credit before the processor states a dollar value.
      if (!truth.paidAmountUsdCents || truth.paidAmountUsdCents <= 0) return;
      payment = await payments.insertDeposit({
        userId: address.userId,
        provider: provider.name,
        orderId: `dep_${randomBytes(18).toString('base64url')}`,
        providerPaymentId: truth.providerPaymentId,
        depositAddressId: address.id,
        amountCents: truth.paidAmountUsdCents,
        // Watched by the reconciliation while it confirms; a confirmation after that still credits.
        expiresAt: new Date(now.getTime() + CONFIRMATION_WAIT_MS),
        now,
      });
    }
    if (!payment || payment.depositAddressId !== address.id) {
      log.error({ providerPaymentId: truth.providerPaymentId }, 'a deposit id already names another payment');
      return;
    }
    if (shouldCredit(truth) && truth.paidAmountUsdCents && truth.paidAmountUsdCents > 0) {
      const credited = await deps.credit(payment, {
        creditedCents: truth.paidAmountUsdCents,
        providerStatus: truth.status,
        providerPaymentId: truth.providerPaymentId,
        now,
      });
      if (!credited) await payments.recordCheck(payment.id, { providerStatus: truth.status, now });
      return;
    }
    if (truth.isFinal && ENDED_UNPAID.has(truth.outcome)) {
      const endState = endStateFor(truth.outcome, payment.expiresAt, now);
      const ended = await payments.markEnded(payment.id, endState, { providerStatus: truth.status, now });
      if (!ended) await payments.recordCheck(payment.id, { providerStatus: truth.status, now });
      return;
    }
    await payments.recordCheck(payment.id, { providerStatus: truth.status, now });
    if (!truth.isFinal && now.getTime() >= payment.expiresAt.getTime()) {
      await payments.markEnded(payment.id, 'expired', { providerStatus: truth.status, now });
    }
  }

  async function readAndSettle(
    provider: PaymentProvider,
    address: DepositAddress,
    providerPaymentId: string,
  ) {
    const wallets = provider.staticWallets;
    if (!wallets) return;
    const truth = await deps.track(provider, () => wallets.getDeposit(providerPaymentId));
    await settle(provider, address, truth);
  }

  return {
    /** Every coin a healthy provider with static wallets offers an address in, in the pool's order. */
    async options(): Promise<DepositOption[]> {
      const withWallets = deps.paymentProviders.filter((provider) => provider.staticWallets);
      const listed = await Promise.all(
        withWallets.map(async (provider) => ({ provider, methods: await deps.methodsOf(provider) })),
      );
      return listed.flatMap(({ provider, methods }) =>
        (methods ?? []).map((method) => ({
          provider: provider.name,
          currency: method.currency,
          network: method.network,
          minAmount: method.minAmount,
        })),
      );
    },

    /** The user's addresses, whether or not their provider answers now (they stay valid). */
    list: (userId: number) => addresses.listForUser(userId),

    /**
     * The user's address for a coin and network at a provider: created at the provider on the first call,
     * the same one on every later or concurrent call.
     */
    async addressFor(
      userId: number,
      request: { provider: string; currency: string; network: string },
    ): Promise<DepositAddress> {
      const provider = providersByName.get(request.provider);
      const wallets = provider?.staticWallets;
      if (!provider || !wallets) throw fail('invalid_payment_provider');
      const key = { userId, ...request };
      const now = clock.now();
      const claimed = await addresses.claim(key, `dep_${randomBytes(18).toString('base64url')}`, now);
      if (claimed.address !== null) return claimed;
      const methods = await deps.methodsOf(provider);
      const offered = methods?.some(
        (method) => method.currency === request.currency && method.network === request.network,
      );
      if (!offered) throw fail('invalid_payment_provider');
      try {
        const wallet = await deps.track(provider, () =>
          wallets.create({
            orderId: claimed.orderId,
            currency: request.currency,
            network: request.network,
            callbackUrl: deps.callbackUrl(provider.name),
          }),
        );
        return await addresses.attachWallet(claimed.id, {
          walletUuid: wallet.walletUuid,
          address: wallet.address,
          paymentUrl: wallet.url,
          now: clock.now(),
        });
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.error({ err: error, provider: provider.name }, 'could not create a deposit address');
        // The row keeps its order id: the next request asks for the same wallet again.
        throw fail('deposit_address_failed');
      }
    },

    /** A signed deposit webhook: re-read from the provider, then settled. */
    async handleWebhook(provider: PaymentProvider, webhook: PaymentWebhook): Promise<void> {
      const address = await addresses.findByOrderId(webhook.orderId);
      if (!address || address.provider !== provider.name) {
        log.warn({ orderId: webhook.orderId }, 'deposit webhook for a wallet we do not have');
        return;
      }
      await readAndSettle(provider, address, webhook.providerPaymentId);
    },

    /** The reconciliation's turn at a pending deposit. */
    async reconcile(payment: Payment): Promise<void> {
      const provider = providersByName.get(payment.provider);
      const address =
        payment.depositAddressId === null ? undefined : await addresses.findById(payment.depositAddressId);
      if (!provider || !address || payment.providerPaymentId === null) {
        await payments.recordCheck(payment.id, { now: clock.now() });
        return;
      }
      try {
        await readAndSettle(provider, address, payment.providerPaymentId);
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        log.warn({ err: error, orderId: payment.orderId }, 'could not read a deposit from the provider');
        await payments.recordCheck(payment.id, { now: clock.now() });
      }
    },
  };
}

export type DepositService = ReturnType<typeof createDepositService>;
