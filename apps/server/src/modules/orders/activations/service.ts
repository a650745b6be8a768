import {
  ACTIVATION_LIFETIME_MS,
  buyingMessages,
  centsToDollars,
  currentLanguage,
  english,
  formatCents,
  NUMBER_STATUS,
  numberMessages,
  type PurchasedNumber,
} from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor, Transaction } from '../../../db/client';
import type { Activation, ActivationMessage, ActivationStatus } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { AppError, conflict, isUniqueViolation, notFound } from '../../../lib/errors';
import type { UserEventBus } from '../../../lib/events';
import { UserCache } from '../../../lib/user-cache';
import { placeWithFailover } from '../../../providers/sms/failover';
import type { ProviderPool } from '../../../providers/sms/pool';
import { type ActivationProvider, UpstreamError } from '../../../providers/sms/types';
import { applyLedgerChange, createOrderWithDebit, InsufficientBalanceError } from '../../accounts/ledger';
import { salePriceCents } from '../../catalog/pricing';
import type { CatalogService, QuoteCandidate } from '../../catalog/service';
import { presentNumber } from './presenter';
import { createActivationsRepository, type NumberListFilter } from './repository';

/** Why an order was refunded: stored with it in English, shown in the reader's language. */
export const activationReasons = english.activationReasons;

/** The candidates with `provider`'s moved to the end, keeping the others' routing order. */
function tryLast(candidates: readonly QuoteCandidate[], provider: string): QuoteCandidate[] {
  return [
    ...candidates.filter((candidate) => candidate.provider !== provider),
    ...candidates.filter((candidate) => candidate.provider === provider),
  ];
}

export interface BuyRequest {
  countryId: string;
  operator: string;
  service: string;
  /** The price the buyer was shown: a higher price now is refused with the new one, to confirm. */
  shownPriceCents?: number;
}

/**
 * How a purchase made with an API key differs: the order carries the key, and `admit` runs in the
 * transaction that holds the money, before it, to refuse the purchase (the key's caps) under the key's lock.
 */
export interface ApiPurchase {
  apiKeyId: number;
  admit(tx: Executor, priceCents: number): Promise<void>;
}

export interface IncomingSms {
  code: string | null;
  text: string;
  receivedAt: Date;
  /** Who pushed it (the webhook's source address); absent when our sync read it. */
  sourceAddress?: string;
}

interface ActivationServiceDeps {
  db: Database;
  providers: ProviderPool;
  catalog: CatalogService;
  events: UserEventBus;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** Turns an upstream failure into the answer the user gets; the money is already back by then. */
export function upstreamFailure(error: UpstreamError): AppError {
  switch (error.kind) {
    case 'no_numbers':
    case 'bad_request':
      return new AppError(409, error.userMessage, `upstream_${error.kind}`);
    default:
      return new AppError(503, error.userMessage, `upstream_${error.kind}`);
  }
}

function dedupeKeyOf(sms: IncomingSms): string {
  // The webhook and the sync report the same SMS with different timestamps, and the sync sometimes with
  // the code alone as its text: the code identifies it (another SMS brings another code).
  return sms.code ? `code:${sms.code}` : `text:${sms.text}`;
}

const MAX_ORDER_ID = 2_147_483_647;

/** Status reads are served from memory between changes; this bounds staleness should an event be lost. */
const STATUS_CACHE_TTL_MS = 10_000;

export function createActivationService({
  db,
  providers,
  catalog,
  events,
  clock,
  log,
}: ActivationServiceDeps) {
  const repository = createActivationsRepository(db);
  // Every change to an order publishes a `numbers` event for its owner, which drops these entries.
  const listCache = new UserCache<PurchasedNumber[]>({
    clock,
    ttlMs: STATUS_CACHE_TTL_MS,
    maxEntries: 20_000,
    events,
    invalidatedBy: (event) => event.type === 'numbers',
  });
  const statusCache = new UserCache<{ status: string; code: string | null }>({
    clock,
    ttlMs: STATUS_CACHE_TTL_MS,
    maxEntries: 100_000,
    events,
    invalidatedBy: (event) => event.type === 'numbers',
  });

  /**
   * Refunds an order at most once: the status change and the ledger credit commit together, the status
   * update is conditional and the ledger key is unique, so racing paths cannot both pay out.
   */
  async function refund(
    order: Pick<Activation, 'id'>,
    from: readonly ActivationStatus[],
    to: 'canceled' | 'expired' | 'failed',
    reason: string,
    /** Runs in the refund's transaction once it is sure to happen (the console's audit entry). */
    alongside?: (tx: Transaction, refunded: Activation) => Promise<void>,
  ): Promise<Activation | undefined> {
    const refunded = await db.transaction(async (tx) => {
      const changed = await createActivationsRepository(tx).transition(
        order.id,
        from,
        to,
        clock.now(),
        reason,
      );
      if (!changed) return undefined;
      await applyLedgerChange(tx, {
        userId: changed.userId,
        amountCents: changed.priceCents,
        kind: 'refund',
        referenceType: 'activation',
        referenceId: String(changed.id),
        idempotencyKey: `refund:activation:${changed.id}`,
        note: reason,
      });
      await alongside?.(tx, changed);
      return changed;
    });
    if (refunded) {
      events.publish({ userId: refunded.userId, type: 'numbers' });
      events.publish({ userId: refunded.userId, type: 'balance' });
      // A number that ended without a code counts against its provider's delivery rate.
      if (to === 'expired' && providers.has(refunded.provider))
        providers.health.recordDelivery(refunded.provider, pairOf(refunded), false);
    }
    return refunded;
  }

  /**
   * `avoidProvider` (a repeat of an order that did not work out) tries that provider last, when another one
   * can serve at the same price: a user who replaces a number rarely wants the same supplier's next one.
   */
  async function buy(
    userId: number,
    request: BuyRequest,
    api?: ApiPurchase,
    avoidProvider?: string,
  ): Promise<Activation> {
    const quoted = catalog.quote(request.countryId, request.operator, request.service);
    if (request.shownPriceCents !== undefined && quoted.priceCents > request.shownPriceCents) {
      throw new AppError(409, buyingMessages.priceChanged(formatCents(quoted.priceCents)), 'price_changed', {
        price: centsToDollars(quoted.priceCents),
      });
    }
    const quote = avoidProvider
      ? { ...quoted, candidates: tryLast(quoted.candidates, avoidProvider) }
      : quoted;
    const now = clock.now();
    // Hold the money first, committed (order and debit in one statement), before anyone upstream is asked.
    let order: { id: number };
    try {
      const hold = (executor: Executor) =>
        createOrderWithDebit(
          executor,
          repository.pendingOrderInsert({
            userId,
            provider: quote.candidates[0]!.provider,
            countryId: quote.countryId,
            operator: quote.operator,
            service: quote.service,
            priceCents: quote.priceCents,
            upstreamMaxPrice: quote.candidates[0]!.upstreamCost,
            createdAt: now,
            expiresAt: new Date(now.getTime() + ACTIVATION_LIFETIME_MS),
            apiKeyId: api?.apiKeyId,
          }),
          { kind: 'purchase', referenceType: 'activation' },
        );
      const id = api
        ? await db.transaction(async (tx) => {
            await api.admit(tx, quote.priceCents);
            return hold(tx);
          })
        : await hold(db);
      order = { id };
    } catch (error) {
      if (error instanceof InsufficientBalanceError) {
        throw new AppError(402, numberMessages.insufficientBalance, 'insufficient_balance');
      }
      throw error;
    }
    events.publish({ userId, type: 'balance' });

    const placement = await placeWithFailover({
      clock,
      candidates: quote.candidates,
      pool: providers,
      pair: { service: quote.service, countryId: quote.countryId },
      what: 'purchase',
      orderId: order.id,
      log,
      moveTo: async (candidate) =>
        (await repository.reassign(order.id, candidate.provider, candidate.upstreamCost, clock.now())) !==
        undefined,
      place: (candidate) =>
        providers.get(candidate.provider).buyActivation({
          service: quote.service,
          countryId: quote.countryId,
          operator: quote.operator,
          maxPrice: candidate.upstreamCost,
        }),
      // Asked once more at the minimum it named when the quoted price still covers it.
      mayRetryAt: (provider, minimum) =>
        salePriceCents(minimum, providers.member(provider).usdRate, 0) <= quote.priceCents,
    });
    await repository.addEvents(
      placement.attempts.map((attempt) => ({
        activationId: order.id,
        at: attempt.at,
        provider: attempt.provider,
        action: 'buy',
        outcome: attempt.outcome,
        // What the provider was allowed to charge (in its currency), and why it refused when it did.
        detail: [attempt.detail, `Ceiling ${attempt.upstreamCost} in the provider's currency.`]
          .filter(Boolean)
          .join(' '),
        latencyMs: attempt.latencyMs,
      })),
    );
    if (placement.kind === 'superseded')
      throw new AppError(503, numberMessages.outcomeUnknown, 'purchase_superseded');
    if (placement.kind === 'unknown') {
      log.warn(
        { orderId: order.id, provider: placement.provider },
        'purchase outcome unknown; left for reconciliation',
      );
      throw new AppError(503, numberMessages.outcomeUnknown, 'purchase_outcome_unknown');
    }
    if (placement.kind === 'refused') {
      await refund(order, ['pending'], 'failed', placement.error.userMessage);
      throw upstreamFailure(placement.error);
    }
    const { value: bought, provider } = placement;

    let issued: Activation | undefined;
    try {
      issued = await repository.markIssued(order.id, {
        providerActivationId: bought.activationId,
        phoneNumber: bought.phoneNumber,
        now: clock.now(),
      });
    } catch (error) {
      if (!isUniqueViolation(error, 'activations_provider_activation_key')) throw error;
      // The upstream handed out an id one of our orders already holds: its fault, not the buyer's. The
      // activation is not cancelled upstream, since the id is the earlier order's.
      log.error(
        { orderId: order.id, provider, activationId: bought.activationId },
        'the upstream issued an activation id it had issued before; the purchase is refunded',
      );
      await refund(order, ['pending'], 'failed', activationReasons.notIssued);
      throw new AppError(502, numberMessages.providerFault, 'upstream_duplicate_id');
    }
    if (!issued) {
      // The reconciler gave up on this order and refunded it while the upstream was answering.
      await callProvider({ id: order.id, provider }, 'cancel', (upstream) =>
        upstream.cancelActivation(bought.activationId),
      ).catch(() => {});
      throw new AppError(503, numberMessages.outcomeUnknown, 'purchase_superseded');
    }
    events.publish({ userId, type: 'numbers' });
    return issued;
  }

  /**
   * Makes a call to the order's provider and writes it, with its answer, to the order's history; the
   * call's own result or error comes back unchanged.
   */
  async function callProvider<T>(
    order: Pick<Activation, 'id' | 'provider'>,
    action: 'cancel' | 'finish' | 'another_sms',
    call: (provider: ActivationProvider) => Promise<T>,
  ): Promise<T> {
    const at = clock.now();
    const startedAtMs = performance.now();
    const record = (outcome: string, detail?: string) =>
      repository
        .addEvents([
          {
            activationId: order.id,
            at,
            provider: order.provider,
            action,
            outcome,
            detail,
            latencyMs: Math.round(performance.now() - startedAtMs),
          },
        ])
        .catch((error: unknown) =>
          log.warn({ err: error, orderId: order.id }, 'could not record a provider call'),
        );
    try {
      const result = await call(providers.get(order.provider));
      await record('ok');
      return result;
    } catch (error) {
      await record(
        error instanceof UpstreamError ? error.token : 'error',
        error instanceof Error ? error.message : String(error),
      );
      throw error;
    }
  }

  async function cancel(userId: number, id: number): Promise<Activation> {
    const order = await repository.findForUser(userId, id);
    if (!order) throw notFound();
    assertCancellable(order, clock.now());
    try {
      await callProvider(order, 'cancel', (provider) =>
        provider.cancelActivation(order.providerActivationId!),
      );
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      if (error.kind === 'cannot_cancel' || error.kind === 'not_found') {
        // The upstream knows better: a code may have arrived, or it ended the activation already.
        await syncOne(order);
        const now = await repository.findForUser(userId, id);
        if (now?.status === 'canceled' || now?.status === 'expired')
          throw conflict(numberMessages.alreadyCanceled);
        throw conflict(
          error.kind === 'cannot_cancel' ? numberMessages.cancelAfterCode : error.userMessage,
          'cannot_cancel',
        );
      }
      if (error.kind === 'early_cancel_denied') throw conflict(numberMessages.cancelTooEarly, 'early_cancel');
      throw upstreamFailure(error);
    }
    const refunded = await refund(order, ['waiting'], 'canceled', activationReasons.canceledByUser);
    if (refunded) return refunded;
    // Something else won the race: a code arrived (the code wins) or the order expired and was refunded.
    const latest = await repository.findForUser(userId, id);
    if (latest?.status === 'received' || latest?.status === 'completed')
      throw conflict(numberMessages.cancelAfterCode, 'code_arrived');
    throw conflict(numberMessages.alreadyCanceled, 'already_canceled');
  }

  function assertCancellable(order: Activation, now: Date): void {
    switch (order.status) {
      case 'received':
      case 'completed':
        throw conflict(numberMessages.cancelAfterCode, 'code_arrived');
      case 'canceled':
      case 'expired':
      case 'failed':
        throw conflict(numberMessages.alreadyCanceled, 'already_canceled');
      case 'pending':
        throw conflict(numberMessages.stillIssuing, 'pending');
      case 'waiting':
        break;
    }
    if (now.getTime() >= order.expiresAt.getTime())
      throw conflict(numberMessages.cancelAfterExpiry, 'expired');
    // How soon a cancel is allowed is the upstream's rule (two minutes in the SMS-Activate family): it answers.
  }

  /**
   * Stores an SMS for an order; a new one makes a waiting order `received` (not refundable any more) in the
   * same transaction, so a crash cannot leave a stored SMS on an order that still looks refundable. An SMS
   * for a closed order (refunded, or completed) is kept for audit, marked late: it never becomes the order's
   * code nor changes its status or money. Returns whether it became one of the order's messages.
   */
  async function recordSms(order: Activation, sms: IncomingSms): Promise<boolean> {
    const { inserted, late, received } = await db.transaction(async (tx) => {
      const inTransaction = createActivationsRepository(tx);
      // A code arriving while a cancel is in flight wins if it is first: the row lock orders this and the
      // cancel's refund, and each needs the order waiting.
      const status = await inTransaction.lockStatus(order.id);
      const late = status !== 'waiting' && status !== 'received';
      const inserted = await inTransaction.addMessage(order.id, {
        ...sms,
        dedupeKey: dedupeKeyOf(sms),
        late,
      });
      const received =
        inserted && !late
          ? await inTransaction.transition(order.id, ['waiting'], 'received', clock.now())
          : undefined;
      return { inserted, late, received };
    });
    if (received && providers.has(order.provider)) {
      providers.health.recordDelivery(
        order.provider,
        pairOf(order),
        true,
        clock.now().getTime() - order.createdAt.getTime(),
      );
    }
    if (inserted && late) {
      log.warn({ orderId: order.id, provider: order.provider }, 'SMS for a closed order kept for audit only');
    }
    if (!inserted || late) return false;
    events.publish({ userId: order.userId, type: 'numbers' });
    return true;
  }

  /**
   * Tells the provider we are done with a number that got its code (status 6, 5sim's finish), so it stops
   * counting against our channel limit there for the rest of its 20 minutes. Best effort: the order and
   * money do not depend on it, and the sync finishes a completed order it still sees listed.
   */
  async function finishUpstream(order: Activation): Promise<boolean> {
    if (!order.providerActivationId || !providers.has(order.provider)) return false;
    try {
      await callProvider(order, 'finish', (provider) =>
        provider.finishActivation(order.providerActivationId!),
      );
      return true;
    } catch (error) {
      log.warn(
        { err: error, orderId: order.id, provider: order.provider },
        'could not finish a completed activation upstream; the sync tries again',
      );
      return false;
    }
  }

  /** Marks an order with a code done (the user is done, or its code is final) and frees its number upstream. */
  async function complete(order: Activation): Promise<Activation | undefined> {
    const completed = await repository.transition(order.id, ['received'], 'completed', clock.now());
    if (!completed) return undefined;
    events.publish({ userId: completed.userId, type: 'numbers' });
    await finishUpstream(completed);
    return completed;
  }

  /** Asks the upstream about one order and applies what it says (used after a refused cancel). */
  async function syncOne(order: Activation): Promise<void> {
    if (!order.providerActivationId) return;
    try {
      const provider = providers.get(order.provider);
      const state = await provider.getActivationState(order.providerActivationId);
      if (state.kind === 'code') {
        // Every SMS with its full text where the provider lists them (a second code after "another SMS"
        // included); the state's own code otherwise, or when the list cannot be read.
        const messages = await provider.listActivationMessages?.(order.providerActivationId).catch(() => []);
        const listed = (messages ?? []).filter((message) => message.code);
        for (const message of listed)
          await recordSms(order, {
            code: message.code!,
            text: message.text,
            receivedAt: message.receivedAt ?? clock.now(),
          });
        if (!listed.some((message) => message.code === state.code))
          await recordSms(order, {
            code: state.code,
            text: state.text ?? state.code,
            receivedAt: clock.now(),
          });
      } else if (state.kind === 'waiting_retry')
        await recordSms(order, { code: state.lastCode, text: state.lastCode, receivedAt: clock.now() });
      else if (state.kind === 'cancelled')
        await refund(order, ['waiting', 'pending'], 'expired', activationReasons.withdrawn);
    } catch (error) {
      log.warn({ err: error, orderId: order.id }, 'could not read an activation from the upstream');
    }
  }

  return {
    repository,
    buy,
    cancel,
    refund,
    recordSms,
    syncOne,
    callProvider,
    complete,
    finishUpstream,

    /**
     * A new purchase of the same country, operator and service, at today's price (the second half of
     * Replace), from another provider when one sells at that price.
     */
    async repeat(userId: number, id: number, shownPriceCents?: number): Promise<Activation> {
      const order = await repository.findForUser(userId, id);
      if (!order) throw notFound();
      return buy(
        userId,
        { countryId: order.countryId, operator: order.operator, service: order.service, shownPriceCents },
        undefined,
        order.provider,
      );
    },

    /**
     * Asks for another SMS on a number that received its code and is still within its lifetime, at no
     * charge (protocol status 3): the order waits for an SMS beyond the ones it has. Where the provider has
     * no such call (5sim), every SMS of the order's lifetime comes through anyway, so only the wait is
     * recorded.
     */
    async requestAnotherSms(order: Activation): Promise<void> {
      if (order.status !== 'received') throw conflict(buyingMessages.anotherSmsNeedsCode, 'no_code_yet');
      if (order.expiresAt.getTime() <= clock.now().getTime())
        throw conflict(buyingMessages.anotherSmsEnded, 'expired');
      const provider = providers.has(order.provider) ? providers.get(order.provider) : undefined;
      if (provider?.requestAnotherSms) {
        try {
          await callProvider(order, 'another_sms', (upstream) =>
            upstream.requestAnotherSms!(order.providerActivationId!),
          );
        } catch (error) {
          if (error instanceof UpstreamError) throw upstreamFailure(error);
          throw error;
        }
      }
      await repository.recordRetryRequest(order.id, clock.now());
      events.publish({ userId: order.userId, type: 'numbers' });
    },

    /** One number of the user as the API shows it, with every SMS. */
    async numberOf(userId: number, id: number): Promise<PurchasedNumber> {
      const order = await repository.findForUser(userId, id);
      if (!order) throw notFound();
      const [messages, retries] = await Promise.all([
        repository.messagesFor([id]),
        repository.retryRequestsFor([id]),
      ]);
      return presentNumber(order, messages, retries.get(id));
    },

    /** The status string of spec section 4 for a number of the user, read from our database only. */
    statusOf(userId: number, numberId: string): Promise<{ status: string; code: string | null }> {
      return statusCache.getOrLoad(userId, numberId, async () => {
        // Our ids are 32-bit serials: anything else names no order.
        const id = /^[1-9]\d{0,9}$/.test(numberId) ? Number(numberId) : 0;
        const order = id > 0 && id <= MAX_ORDER_ID ? await repository.findForUser(userId, id) : undefined;
        if (!order) throw notFound();
        const hasCode = order.status === 'received' || order.status === 'completed';
        return statusString(order.status, hasCode ? await repository.latestCode(order.id) : null);
      });
    },

    /**
     * The user's numbers, newest first. The first page is what My Numbers polls every 20 seconds: it is
     * kept in memory until the user's orders change.
     */
    listNumbers(
      userId: number,
      limit: number,
      beforeId?: number,
      filter?: NumberListFilter,
    ): Promise<PurchasedNumber[]> {
      const load = async () => {
        const orders = await repository.listForUser(userId, limit, beforeId, filter);
        const ids = orders.map((order) => order.id);
        const [messages, retries] = await Promise.all([
          repository.messagesFor(ids),
          repository.retryRequestsFor(ids),
        ]);
        const messagesByOrder = new Map<number, typeof messages>();
        for (const message of messages) {
          const list = messagesByOrder.get(message.activationId);
          if (list) list.push(message);
          else messagesByOrder.set(message.activationId, [message]);
        }
        return orders.map((order) =>
          presentNumber(order, messagesByOrder.get(order.id) ?? [], retries.get(order.id)),
        );
      };
      // Only the first page of the whole list is cached: it is what every open My Numbers page polls.
      return beforeId === undefined && filter === undefined
        ? // Per language: the list carries sentences (refund reasons) in the reader's language.
          listCache.getOrLoad(userId, `list:${limit}:${currentLanguage()}`, load)
        : load();
    },

    /** Tells the owner's pages and caches that an order changed outside the paths above (the sync job). */
    changed(order: Pick<Activation, 'userId'>): void {
      events.publish({ userId: order.userId, type: 'numbers' });
    },

    /** An SMS pushed by a provider (webhook) for one of our activations there. */
    async recordPushedSms(
      provider: string,
      providerActivationId: string,
      sms: IncomingSms,
    ): Promise<boolean> {
      const order = await repository.findByProviderActivationId(provider, providerActivationId);
      if (!order) return false;
      await recordSms(order, sms);
      return true;
    },
  };
}

export type ActivationService = ReturnType<typeof createActivationService>;

function pairOf(order: Pick<Activation, 'service' | 'countryId'>) {
  return { service: order.service, countryId: order.countryId };
}

export function statusString(
  status: ActivationStatus,
  code: string | null,
): { status: string; code: string | null } {
  switch (status) {
    case 'received':
    case 'completed':
      return {
        status: code ? `${NUMBER_STATUS.okPrefix}${code}` : NUMBER_STATUS.okPrefix.slice(0, -1),
        code,
      };
    case 'pending':
    case 'waiting':
      return { status: NUMBER_STATUS.waiting, code: null };
    default:
      return { status: NUMBER_STATUS.canceled, code: null };
  }
}

export interface NumberView {
  order: Activation;
  messages: ActivationMessage[];
}
