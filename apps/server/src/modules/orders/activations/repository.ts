import type { NumberStatus } from '@simcode/contract';
import { and, count, desc, eq, gte, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import {
  type Activation,
  type ActivationMessage,
  type ActivationStatus,
  activationMessages,
  activationRetryRequests,
  activations,
  liveActivationStatuses,
} from '../../../db/schema';
import { purchaseChargeUpsert } from '../../reconciliation/charges';
import { type OrderCallRecord, orderCallsInsert } from '../history';

const refundedBySupport = sql`${activations.statusReason} = 'refunded_by_support'`;

/** The rows whose status as the buyer sees it (wireNumberStatus) is one of these: the same rule in SQL. */
function wireStatusIn(statuses: readonly NumberStatus[]): SQL {
  const conditions = statuses.map((status) => {
    if (status === 'expired')
      return sql`(${activations.status} = 'expired' or (${activations.status} = 'canceled' and ${refundedBySupport}))`;
    if (status === 'canceled')
      return sql`(${activations.status} = 'canceled' and not coalesce(${refundedBySupport}, false))`;
    return eq(activations.status, status);
  });
  return or(...conditions) ?? sql`false`;
}

export type RetryRequest = typeof activationRetryRequests.$inferSelect;

export interface NewActivation {
  userId: number;
  provider: string;
  countryId: string;
  operator: string;
  service: string;
  priceCents: number;
  upstreamMaxPrice: number;
  /** From the app's clock, like every other time of the order, so lifetimes are measured on one clock. */
  createdAt: Date;
  expiresAt: Date;
  /** The reseller API key that bought it, if any. */
  apiKeyId?: number | null;
}

export interface NewMessage {
  code: string | null;
  text: string;
  receivedAt: Date;
  dedupeKey: string;
  /** Who sent it, where the upstream says. */
  sender?: string;
  /** Who pushed it (the webhook's source address); absent when our sync read it. */
  sourceAddress?: string;
  /** The order was closed when it arrived: kept for audit, never the order's code. */
  late: boolean;
}

/** The update that records an issued number on a pending order, from a prepared statement's placeholders. */
function issuedUpdate(db: Pick<Executor, 'update'>) {
  return db
    .update(activations)
    .set({
      providerActivationId: sql`${sql.placeholder('providerActivationId')}`,
      phoneNumber: sql`${sql.placeholder('phoneNumber')}`,
      status: 'waiting',
      updatedAt: sql`${sql.placeholder('now')}`,
    })
    .where(and(eq(activations.id, sql.placeholder('id')), eq(activations.status, 'pending')))
    .returning();
}

/**
 * Prepared once per executor, as is the next one: on every purchase, building this update with drizzle's
 * query builder cost more CPU (about 180 µs) than the database's own work for it.
 */
function prepareMarkIssued(db: Executor) {
  return issuedUpdate(db).prepare('activations_mark_issued');
}

/**
 * A purchase's one statement after the supplier's answer: the issued number, the placement's calls to the
 * order's history and the supplier's charge (ADR 0036). The two inserts run whether or not the order was
 * still pending, as they did as statements of their own.
 */
function prepareSettlePurchase(db: Executor) {
  const calls = db.$with('calls', {}).as(orderCallsInsert('activation', sql.placeholder('calls')));
  const charge = db.$with('charge', {}).as(
    purchaseChargeUpsert({
      provider: sql.placeholder('provider'),
      orderKind: 'activation',
      providerOrderId: sql.placeholder('providerActivationId'),
      orderId: sql.placeholder('id'),
      boughtAt: sql.placeholder('now'),
      chargedCents: sql.placeholder('chargedCents'),
      now: sql.placeholder('now'),
    }),
  );
  return issuedUpdate(db.with(calls, charge)).prepare('activations_settle_purchase');
}

export interface NumberListFilter {
  /** The statuses the buyer sees (see wireNumberStatus): a support refund is 'expired' (Refunded), not 'canceled'. */
  statuses?: readonly NumberStatus[];
  /** Only orders bought through this API key. */
  apiKeyId?: number;
  service?: string;
  /** First instant included. */
  from?: Date;
  /** First instant excluded. */
  toExclusive?: Date;
}

export function createActivationsRepository(db: Executor) {
  let markIssuedQuery: ReturnType<typeof prepareMarkIssued> | undefined;
  let settlePurchaseQuery: ReturnType<typeof prepareSettlePurchase> | undefined;
  return {
    /**
     * The INSERT of a pending order, for the accounts module to run together with the debit of its price
     * (createOrderWithDebit): returns id, user_id and price_cents.
     */
    pendingOrderInsert(order: NewActivation): SQL {
      return sql`insert into activations (user_id, provider, country_id, operator, service, price_cents,
          upstream_max_price, status, created_at, expires_at, updated_at, api_key_id)
        values (${order.userId}, ${order.provider}, ${order.countryId}, ${order.operator}, ${order.service},
          ${order.priceCents}, ${order.upstreamMaxPrice.toFixed(6)}, 'pending', ${order.createdAt}, ${order.expiresAt},
          ${order.createdAt}, ${order.apiKeyId ?? null})
        returning id, user_id, price_cents`;
    },

    /** Records the upstream's number on a pending order; undefined when the order is not pending any more. */
    async markIssued(
      id: number,
      issued: { providerActivationId: string; phoneNumber: string; now: Date },
    ): Promise<Activation | undefined> {
      markIssuedQuery ??= prepareMarkIssued(db);
      const [row] = await markIssuedQuery.execute({ id, ...issued });
      return row;
    },

    /**
     * Settles a purchase the supplier answered (prepareSettlePurchase): undefined when the order is not
     * pending any more.
     */
    async settlePurchase(
      id: number,
      issued: {
        providerActivationId: string;
        phoneNumber: string;
        now: Date;
        provider: string;
        /** What the supplier's answer says it charged, in our cents; null when it did not say. */
        chargedCents: number | null;
        calls: readonly OrderCallRecord[];
      },
    ): Promise<Activation | undefined> {
      settlePurchaseQuery ??= prepareSettlePurchase(db);
      const [row] = await settlePurchaseQuery.execute({ id, ...issued, calls: JSON.stringify(issued.calls) });
      return row;
    },

    /**
     * Points a pending order at the next provider of its failover, with that provider's ceiling; undefined
     * when the order is not pending any more (the reconciler settled it meanwhile).
     */
    async reassign(
      id: number,
      provider: string,
      upstreamMaxPrice: number,
      now: Date,
    ): Promise<Activation | undefined> {
      const [row] = await db
        .update(activations)
        .set({ provider, upstreamMaxPrice: upstreamMaxPrice.toFixed(6), updatedAt: now })
        .where(and(eq(activations.id, id), eq(activations.status, 'pending')))
        .returning();
      return row;
    },

    /**
     * Moves an order from one of `from` to `to` in one conditional update: of several paths racing for the
     * same order (cancel, expiry, SMS arrival), exactly one wins and the others get undefined.
     */
    async transition(
      id: number,
      from: readonly ActivationStatus[],
      to: ActivationStatus,
      now: Date,
      reason?: string,
    ): Promise<Activation | undefined> {
      const [row] = await db
        .update(activations)
        .set({ status: to, updatedAt: now, ...(reason !== undefined ? { statusReason: reason } : {}) })
        .where(and(eq(activations.id, id), inArray(activations.status, from)))
        .returning();
      return row;
    },

    /** The order's status, its row locked until the transaction ends (an SMS and a refund decide one way). */
    async lockStatus(id: number): Promise<ActivationStatus | undefined> {
      const [row] = await db
        .select({ status: activations.status })
        .from(activations)
        .where(eq(activations.id, id))
        .for('update');
      return row?.status;
    },

    async findForUser(userId: number, id: number): Promise<Activation | undefined> {
      const [row] = await db
        .select()
        .from(activations)
        .where(and(eq(activations.id, id), eq(activations.userId, userId)));
      return row;
    },

    async findByProviderActivationId(
      provider: string,
      providerActivationId: string,
    ): Promise<Activation | undefined> {
      const [row] = await db
        .select()
        .from(activations)
        .where(
          and(eq(activations.provider, provider), eq(activations.providerActivationId, providerActivationId)),
        );
      return row;
    },

    /**
     * The user's orders, newest first, one page at a time (keyset on id, so deep pages stay fast), narrowed
     * by status, service and creation time when asked.
     */
    async listForUser(
      userId: number,
      limit: number,
      beforeId?: number,
      filter: NumberListFilter = {},
      offset = 0,
    ): Promise<Activation[]> {
      return db
        .select()
        .from(activations)
        .where(
          and(
            eq(activations.userId, userId),
            sql`${activations.status} <> 'failed'`,
            beforeId ? lt(activations.id, beforeId) : undefined,
            filter.statuses ? wireStatusIn(filter.statuses) : undefined,
            filter.service ? eq(activations.service, filter.service) : undefined,
            filter.apiKeyId !== undefined ? eq(activations.apiKeyId, filter.apiKeyId) : undefined,
            filter.from ? gte(activations.createdAt, filter.from) : undefined,
            filter.toExclusive ? lt(activations.createdAt, filter.toExclusive) : undefined,
          ),
        )
        .orderBy(desc(activations.id))
        .limit(limit)
        .offset(offset);
    },

    async messagesFor(activationIds: number[]): Promise<ActivationMessage[]> {
      if (activationIds.length === 0) return [];
      return db
        .select()
        .from(activationMessages)
        .where(
          and(inArray(activationMessages.activationId, activationIds), eq(activationMessages.late, false)),
        )
        .orderBy(activationMessages.activationId, activationMessages.id);
    },

    async latestCode(activationId: number): Promise<string | null> {
      const [row] = await db
        .select({ code: activationMessages.code })
        .from(activationMessages)
        .where(
          and(
            eq(activationMessages.activationId, activationId),
            eq(activationMessages.late, false),
            sql`${activationMessages.code} is not null`,
          ),
        )
        .orderBy(desc(activationMessages.id))
        .limit(1);
      return row?.code ?? null;
    },

    /**
     * Notes that the buyer asked for another SMS: the order waits for one beyond the messages it has now.
     * A second request replaces the first.
     */
    async recordRetryRequest(activationId: number, now: Date): Promise<void> {
      const messagesBefore = sql`(select count(*)::int from ${activationMessages}
        where ${activationMessages.activationId} = ${activationId} and not ${activationMessages.late})`;
      await db
        .insert(activationRetryRequests)
        .values({ activationId, requestedAt: now, messagesBefore })
        .onConflictDoUpdate({
          target: activationRetryRequests.activationId,
          set: { requestedAt: now, messagesBefore },
        });
    },

    async retryRequestsFor(activationIds: number[]): Promise<Map<number, RetryRequest>> {
      if (activationIds.length === 0) return new Map();
      const rows = await db
        .select()
        .from(activationRetryRequests)
        .where(inArray(activationRetryRequests.activationId, activationIds));
      return new Map(rows.map((row) => [row.activationId, row]));
    },

    /** Stores an SMS once, however many times the webhook and the sync job report it. */
    async addMessage(activationId: number, message: NewMessage): Promise<boolean> {
      const inserted = await db
        .insert(activationMessages)
        .values({ activationId, ...message })
        .onConflictDoNothing()
        .returning({ id: activationMessages.id });
      return inserted.length > 0;
    },

    /** Marks a waiting order the buyer gave back, for the sync to cancel upstream once it may. */
    async markGivenBack(id: number, now: Date): Promise<void> {
      await db
        .update(activations)
        .set({ givenBackAt: now, updatedAt: now })
        .where(and(eq(activations.id, id), eq(activations.status, 'waiting')));
    },

    /** Numbers bought through a key and given back (phoneException) since `since`. */
    async givenBackCount(apiKeyId: number, since: Date): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(activations)
        .where(
          and(
            eq(activations.apiKeyId, apiKeyId),
            gte(activations.createdAt, since),
            sql`(${activations.givenBackAt} is not null or ${activations.statusReason} = 'phone_exception')`,
          ),
        );
      return row?.total ?? 0;
    },

    /** Orders the sync job watches, for one upstream. */
    async listLive(provider: string): Promise<Activation[]> {
      return db
        .select()
        .from(activations)
        .where(and(eq(activations.provider, provider), inArray(activations.status, liveActivationStatuses)));
    },

    /**
     * Orders placed and numbers live right now, for the dashboard's cards: a number still waiting past its
     * end is being refunded, and no longer counts (the dashboard's list leaves it out too).
     */
    async countsForUser(userId: number, now: Date): Promise<{ orders: number; live: number }> {
      const [row] = await db
        .select({
          orders: count(),
          live: sql<number>`count(*) filter (where ${activations.status} = 'received' or (${activations.status} = 'waiting' and ${activations.expiresAt} > ${now}))`.mapWith(
            Number,
          ),
        })
        .from(activations)
        .where(and(eq(activations.userId, userId), sql`${activations.status} <> 'failed'`));
      return { orders: row?.orders ?? 0, live: row?.live ?? 0 };
    },
  };
}

export type ActivationsRepository = ReturnType<typeof createActivationsRepository>;
