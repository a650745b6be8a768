import {
  and,
  asc,
  count,
  desc,
  eq,
  gt,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { Executor } from '../../../db/client';
import {
  liveRentStatuses,
  type RenewalStatus,
  type RentRenewal,
  type RentRow,
  type RentRowStatus,
  type RentSmsMessage,
  rentRenewals,
  rentSmsMessages,
  rents,
} from '../../../db/schema';
import { type OrderCallRecord, orderCallsInsert } from '../history';

const MAX_RENT_ID = 2_147_483_647;

export interface NewRent {
  userId: number;
  createdAt: Date;
  provider: string;
  countryId: string;
  serviceKey: string;
  service: string;
  periodUnit: RentRow['periodUnit'];
  periodCount: number;
  hours: number;
  autoRenew: boolean;
  priceCents: number;
  upstreamCost: number;
  /** The reseller API key that rented it, if any. */
  apiKeyId?: number | null;
  /** Where its SMS go instead of the key's callback URL (the protocol's `url`). */
  webhookUrl?: string | null;
}

export interface NewRenewal {
  createdAt: Date;
  rentId: number;
  userId: number;
  hours: number;
  priceCents: number;
  upstreamCost: number;
  automatic: boolean;
  previousEndsAt: Date;
  /** The API key the renewal is made through, if any. */
  apiKeyId?: number | null;
}

export interface NewRentSms {
  sender: string;
  text: string;
  code: string | null;
  receivedAt: Date;
  dedupeKey: string;
  /** Who pushed it (the webhook's source address); absent when our sync read it. */
  sourceAddress?: string;
  /** The rent had ended when it arrived: kept for audit, never shown or sent. */
  late: boolean;
}

export function createRentalsRepository(db: Executor) {
  return {
    /** The INSERT of a pending rent, for the hold to run with the debit of its price. */
    pendingRentInsert(rent: NewRent): SQL {
      return sql`insert into rents (user_id, created_at, updated_at, provider, country_id, service_key, service,
          period_unit, period_count, hours, auto_renew, price_cents, upstream_cost, status, api_key_id, webhook_url)
        values (${rent.userId}, ${rent.createdAt}, ${rent.createdAt}, ${rent.provider}, ${rent.countryId},
          ${rent.serviceKey}, ${rent.service}, ${rent.periodUnit}, ${rent.periodCount}, ${rent.hours},
          ${rent.autoRenew}, ${rent.priceCents}, ${rent.upstreamCost.toFixed(6)}, 'pending', ${rent.apiKeyId ?? null},
          ${rent.webhookUrl ?? null})
        returning id, user_id, price_cents`;
    },

    /**
     * Records the upstream's number on a pending rent, and the placement's calls to its history in the same
     * statement (as a purchase's settle does); undefined when the rent is not pending any more.
     */
    async markIssued(
      id: number,
      issued: { providerRentId: string; phoneNumber: string; endsAt: Date; now: Date },
      calls: readonly OrderCallRecord[],
    ): Promise<RentRow | undefined> {
      const recorded = db.$with('calls', {}).as(orderCallsInsert('rent', JSON.stringify(calls)));
      const [row] = await db
        .with(recorded)
        .update(rents)
        .set({
          providerRentId: issued.providerRentId,
          phoneNumber: issued.phoneNumber,
          endsAt: issued.endsAt,
          status: 'active',
          updatedAt: issued.now,
        })
        .where(and(eq(rents.id, id), eq(rents.status, 'pending')))
        .returning();
      return row;
    },

    /**
     * Points a pending rent at the next provider a purchase tries; undefined when it is not pending any more
     * (the reconciler settled it meanwhile).
     */
    async reassign(
      id: number,
      provider: string,
      upstreamCost: number,
      now: Date,
    ): Promise<RentRow | undefined> {
      const [row] = await db
        .update(rents)
        .set({ provider, upstreamCost: upstreamCost.toFixed(6), updatedAt: now })
        .where(and(eq(rents.id, id), eq(rents.status, 'pending')))
        .returning();
      return row;
    },

    /**
     * Moves a rent from one of `from` to `to` in one conditional update: of several paths racing for the
     * same rent (cancel, expiry, the upstream ending it), exactly one wins and the others get undefined.
     */
    async transition(
      id: number,
      from: readonly RentRowStatus[],
      to: RentRowStatus,
      now: Date,
      reason?: string,
    ): Promise<RentRow | undefined> {
      const [row] = await db
        .update(rents)
        .set({ status: to, updatedAt: now, ...(reason !== undefined ? { statusReason: reason } : {}) })
        .where(and(eq(rents.id, id), inArray(rents.status, from)))
        .returning();
      return row;
    },

    /** Locks a rent's row until the transaction ends (after the account's lock, as every money path does). */
    async lockById(id: number): Promise<RentRow | undefined> {
      const [row] = await db.select().from(rents).where(eq(rents.id, id)).for('update');
      return row;
    },

    async update(id: number, changes: Partial<Omit<RentRow, 'id' | 'userId'>>): Promise<RentRow | undefined> {
      const [row] = await db.update(rents).set(changes).where(eq(rents.id, id)).returning();
      return row;
    },

    async findById(id: number): Promise<RentRow | undefined> {
      const [row] = await db.select().from(rents).where(eq(rents.id, id));
      return row;
    },

    /** A user's rent by its public order id (our id, once the provider has issued the number). */
    async findByOrderIdForUser(userId: number, orderId: string): Promise<RentRow | undefined> {
      // Our ids are 32-bit serials: anything else names no rent.
      if (!/^[1-9]\d{0,9}$/.test(orderId) || Number(orderId) > MAX_RENT_ID) return undefined;
      const [row] = await db
        .select()
        .from(rents)
        .where(and(eq(rents.userId, userId), eq(rents.id, Number(orderId)), isNotNull(rents.providerRentId)));
      return row;
    },

    async findByProviderRentId(provider: string, providerRentId: string): Promise<RentRow | undefined> {
      const [row] = await db
        .select()
        .from(rents)
        .where(and(eq(rents.provider, provider), eq(rents.providerRentId, providerRentId)));
      return row;
    },

    /**
     * The user's rents, newest first, one page at a time (keyset on id), only those rented through `apiKeyId`
     * when it is given. Refused purchases are left out.
     */
    async listForUser(
      userId: number,
      limit: number,
      beforeId?: number,
      apiKeyId?: number,
    ): Promise<RentRow[]> {
      return db
        .select()
        .from(rents)
        .where(
          and(
            eq(rents.userId, userId),
            sql`${rents.status} <> 'failed'`,
            beforeId ? lt(rents.id, beforeId) : undefined,
            apiKeyId !== undefined ? eq(rents.apiKeyId, apiKeyId) : undefined,
          ),
        )
        .orderBy(desc(rents.id))
        .limit(limit);
    },

    /** Rents placed and numbers live right now, for the dashboard's cards. */
    async countsForUser(userId: number): Promise<{ orders: number; live: number }> {
      const [row] = await db
        .select({
          orders: count(),
          live: sql<number>`count(*) filter (where ${rents.status} in ('active', 'renewed'))`.mapWith(Number),
        })
        .from(rents)
        .where(and(eq(rents.userId, userId), sql`${rents.status} <> 'failed'`));
      return { orders: row?.orders ?? 0, live: row?.live ?? 0 };
    },

    // Messages ---------------------------------------------------------------------------------------------

    /** Stores an SMS once, however many times the webhook and the sync report it. */
    async addMessage(rentId: number, message: NewRentSms): Promise<boolean> {
      const inserted = await db
        .insert(rentSmsMessages)
        .values({ rentId, ...message })
        .onConflictDoNothing()
        .returning({ id: rentSmsMessages.id });
      return inserted.length > 0;
    },

    /** A rent's SMS, newest first; late ones (after it ended) are the console's only. */
    async messagesOf(rentId: number): Promise<RentSmsMessage[]> {
      return db
        .select()
        .from(rentSmsMessages)
        .where(and(eq(rentSmsMessages.rentId, rentId), eq(rentSmsMessages.late, false)))
        .orderBy(desc(rentSmsMessages.receivedAt), desc(rentSmsMessages.id));
    },

    /** Which of these rents have an SMS (late ones, after the end, do not count): they cannot be cancelled. */
    async withMessages(rentIds: number[]): Promise<Set<number>> {
      if (rentIds.length === 0) return new Set();
      const rows = await db
        .selectDistinct({ rentId: rentSmsMessages.rentId })
        .from(rentSmsMessages)
        .where(and(inArray(rentSmsMessages.rentId, rentIds), eq(rentSmsMessages.late, false)));
      return new Set(rows.map((row) => row.rentId));
    },

    async messageCount(rentId: number): Promise<number> {
      const [row] = await db
        .select({ total: count() })
        .from(rentSmsMessages)
        .where(and(eq(rentSmsMessages.rentId, rentId), eq(rentSmsMessages.late, false)));
      return row?.total ?? 0;
    },

    // Renewals ---------------------------------------------------------------------------------------------

    /** The INSERT of a pending renewal, for the hold to run with the debit of its price. */
    pendingRenewalInsert(renewal: NewRenewal): SQL {
      return sql`insert into rent_renewals (created_at, updated_at, rent_id, user_id, hours, price_cents,
          upstream_cost, automatic, previous_ends_at, status, api_key_id)
        values (${renewal.createdAt}, ${renewal.createdAt}, ${renewal.rentId}, ${renewal.userId}, ${renewal.hours},
          ${renewal.priceCents}, ${renewal.upstreamCost.toFixed(6)}, ${renewal.automatic}, ${renewal.previousEndsAt},
          'pending', ${renewal.apiKeyId ?? null})
        returning id, user_id, price_cents`;
    },

    async findRenewal(id: number): Promise<RentRenewal | undefined> {
      const [row] = await db.select().from(rentRenewals).where(eq(rentRenewals.id, id));
      return row;
    },

    /** Moves a renewal from `from` to `to`; undefined when another path settled it first. */
    async transitionRenewal(
      id: number,
      from: RenewalStatus,
      to: RenewalStatus,
      now: Date,
    ): Promise<RentRenewal | undefined> {
      const [row] = await db
        .update(rentRenewals)
        .set({ status: to, updatedAt: now })
        .where(and(eq(rentRenewals.id, id), eq(rentRenewals.status, from)))
        .returning();
      return row;
    },

    async renewalsOf(rentId: number, status: RenewalStatus): Promise<RentRenewal[]> {
      return db
        .select()
        .from(rentRenewals)
        .where(and(eq(rentRenewals.rentId, rentId), eq(rentRenewals.status, status)))
        .orderBy(asc(rentRenewals.id));
    },

    /** Per rent: renewals charged and standing, and whether one is waiting for the upstream. */
    async renewalTotals(
      rentIds: number[],
    ): Promise<Map<number, { doneCents: number; doneHours: number; pending: boolean }>> {
      if (rentIds.length === 0) return new Map();
      const rows = await db
        .select({
          rentId: rentRenewals.rentId,
          doneCents:
            sql<number>`coalesce(sum(${rentRenewals.priceCents}) filter (where ${rentRenewals.status} = 'done'), 0)`.mapWith(
              Number,
            ),
          doneHours:
            sql<number>`coalesce(sum(${rentRenewals.hours}) filter (where ${rentRenewals.status} = 'done'), 0)`.mapWith(
              Number,
            ),
          pending: sql<boolean>`bool_or(${rentRenewals.status} = 'pending')`,
        })
        .from(rentRenewals)
        .where(inArray(rentRenewals.rentId, rentIds))
        .groupBy(rentRenewals.rentId);
      return new Map(
        rows.map((row) => [
          row.rentId,
          { doneCents: row.doneCents, doneHours: row.doneHours, pending: Boolean(row.pending) },
        ]),
      );
    },

    async pendingRenewalsOlderThan(before: Date): Promise<RentRenewal[]> {
      return db
        .select()
        .from(rentRenewals)
        .where(and(eq(rentRenewals.status, 'pending'), lt(rentRenewals.createdAt, before)))
        .orderBy(asc(rentRenewals.id));
    },

    // The jobs' work lists ---------------------------------------------------------------------------------

    async pendingRents(provider: string): Promise<RentRow[]> {
      return db
        .select()
        .from(rents)
        .where(and(eq(rents.provider, provider), eq(rents.status, 'pending')))
        .orderBy(asc(rents.createdAt));
    },

    /** Live rents whose end date has come. */
    async dueForExpiry(provider: string, now: Date, limit: number): Promise<RentRow[]> {
      return db
        .select()
        .from(rents)
        .where(
          and(eq(rents.provider, provider), inArray(rents.status, liveRentStatuses), lte(rents.endsAt, now)),
        )
        .orderBy(asc(rents.endsAt))
        .limit(limit);
    },

    /** Expired rents the upstream has not been told about yet. */
    async expiredNotClosedUpstream(provider: string, limit: number): Promise<RentRow[]> {
      return db
        .select()
        .from(rents)
        .where(and(eq(rents.provider, provider), eq(rents.status, 'expired'), isNull(rents.upstreamClosedAt)))
        .orderBy(asc(rents.endsAt))
        .limit(limit);
    },

    /** Renewable rents with auto-renew on, ending before `until`, not attempted for their current end date. */
    async dueForAutoRenew(provider: string, now: Date, until: Date, limit: number): Promise<RentRow[]> {
      return db
        .select()
        .from(rents)
        .where(
          and(
            eq(rents.provider, provider),
            inArray(rents.status, liveRentStatuses),
            eq(rents.autoRenew, true),
            sql`${rents.periodUnit} <> 'hour'`,
            gt(rents.endsAt, now),
            lte(rents.endsAt, until),
            sql`${rents.autoRenewAttemptedFor} is distinct from ${rents.endsAt}`,
          ),
        )
        .orderBy(asc(rents.endsAt))
        .limit(limit);
    },

    /**
     * Claims the one automatic renewal of a rent's current period: of several instances or ticks, exactly
     * one gets the row back.
     */
    async claimAutoRenew(id: number, endsAt: Date, now: Date): Promise<RentRow | undefined> {
      const [row] = await db
        .update(rents)
        .set({ autoRenewAttemptedFor: endsAt, updatedAt: now })
        .where(
          and(
            eq(rents.id, id),
            eq(rents.endsAt, endsAt),
            sql`${rents.autoRenewAttemptedFor} is distinct from ${rents.endsAt}`,
          ),
        )
        .returning();
      return row;
    },

    /** Live rents whose SMS the sync reads next: never read first, then the longest ago. */
    async dueForSync(provider: string, syncedBefore: Date, limit: number): Promise<RentRow[]> {
      return db
        .select()
        .from(rents)
        .where(
          and(
            eq(rents.provider, provider),
            inArray(rents.status, liveRentStatuses),
            or(isNull(rents.lastSyncedAt), lt(rents.lastSyncedAt, syncedBefore)),
          ),
        )
        .orderBy(sql`${rents.lastSyncedAt} asc nulls first`, asc(rents.id))
        .limit(limit);
    },

    async knownProviderRentIds(provider: string, providerRentIds: string[]): Promise<Set<string>> {
      if (providerRentIds.length === 0) return new Set();
      const rows = await db
        .select({ providerRentId: rents.providerRentId })
        .from(rents)
        .where(and(eq(rents.provider, provider), inArray(rents.providerRentId, providerRentIds)));
      return new Set(rows.map((row) => row.providerRentId!));
    },
  };
}

export type RentalsRepository = ReturnType<typeof createRentalsRepository>;
