import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { type ApiKey, apiKeyEvents, apiKeys, users, webhookDeliveries } from '../../db/schema';

export interface KeySpending {
  todayCents: number;
  totalCents: number;
  activeOrders: number;
}

export type NewApiKey = Pick<
  ApiKey,
  | 'userId'
  | 'name'
  | 'prefix'
  | 'keyHash'
  | 'allowedIps'
  | 'dailyCapCents'
  | 'totalCapCents'
  | 'scope'
  | 'maxPriceCents'
  | 'minDeliveryRate'
  | 'stopAfterFailures'
  | 'maxActiveOrders'
  | 'callbackUrl'
  | 'webhookSecret'
  | 'createdAt'
>;

export type KeySettings = Partial<
  Pick<
    ApiKey,
    | 'name'
    | 'allowedIps'
    | 'dailyCapCents'
    | 'totalCapCents'
    | 'maxActiveOrders'
    | 'callbackUrl'
    | 'scope'
    | 'maxPriceCents'
    | 'minDeliveryRate'
    | 'stopAfterFailures'
    | 'pausedAt'
    | 'failuresInARow'
  >
>;

const LOG_LIMIT = 50;

export function createApiKeysRepository(db: Executor) {
  return {
    async insert(key: NewApiKey): Promise<ApiKey> {
      const [row] = await db.insert(apiKeys).values(key).returning();
      return row!;
    },

    async countLive(userId: number): Promise<number> {
      const [row] = await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(apiKeys)
        .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)));
      return row?.n ?? 0;
    },

    /** Serialises key creation per user (the limit of live keys) on the user's row. */
    async lockUser(userId: number): Promise<void> {
      await db.execute(sql`select id from users where id = ${userId} for update`);
    },

    async listForUser(userId: number): Promise<ApiKey[]> {
      return db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.id));
    },

    async findForUser(userId: number, id: number): Promise<ApiKey | undefined> {
      const [row] = await db
        .select()
        .from(apiKeys)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)));
      return row;
    },

    async findByHash(keyHash: string): Promise<ApiKey | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
      return row;
    },

    /** Whether an administrator blocked the key's owner: a blocked user's keys answer as unknown. */
    async ownerBlocked(userId: number): Promise<boolean> {
      const [row] = await db.select({ blockedAt: users.blockedAt }).from(users).where(eq(users.id, userId));
      return row?.blockedAt != null;
    },

    async findById(id: number): Promise<ApiKey | undefined> {
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
      return row;
    },

    async update(userId: number, id: number, settings: KeySettings): Promise<ApiKey | undefined> {
      const [row] = await db
        .update(apiKeys)
        .set(settings)
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning();
      return row;
    },

    async revoke(userId: number, id: number, now: Date): Promise<ApiKey | undefined> {
      const [row] = await db
        .update(apiKeys)
        .set({ revokedAt: now })
        .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
        .returning();
      return row;
    },

    async touch(id: number, now: Date): Promise<void> {
      await db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
    },

    /** Locks the key's row until the transaction ends: purchases under one key's caps queue here. */
    async lockKey(id: number): Promise<void> {
      await db.execute(sql`select id from api_keys where id = ${id} for update`);
    },

    /**
     * What a key has spent (orders not refunded, renewals included) today since `dayStart` and in all, and
     * how many of its orders are live.
     */
    async spending(id: number, dayStart: Date): Promise<KeySpending> {
      const [row] = await queryRows<{ today: string; total: string; active: string }>(
        db,
        sql`with spent as (
            select price_cents, created_at, status in ('pending', 'waiting', 'received') as live
              from activations where api_key_id = ${id} and status not in ('canceled', 'expired', 'failed')
            union all
            select price_cents, created_at, status in ('pending', 'active', 'renewed')
              from rents where api_key_id = ${id} and status not in ('canceled', 'failed')
            union all
            select price_cents, created_at, false
              from rent_renewals where api_key_id = ${id} and status in ('pending', 'done')
          )
          select coalesce(sum(price_cents) filter (where created_at >= ${dayStart}), 0) as today,
            coalesce(sum(price_cents), 0) as total, count(*) filter (where live) as active
          from spent`,
      );
      return {
        todayCents: Number(row?.today ?? 0),
        totalCents: Number(row?.total ?? 0),
        activeOrders: Number(row?.active ?? 0),
      };
    },

    async addEvent(apiKeyId: number, at: Date, kind: string, detail: string): Promise<void> {
      await db.insert(apiKeyEvents).values({ apiKeyId, at, kind, detail });
    },

    async events(apiKeyId: number) {
      return db
        .select()
        .from(apiKeyEvents)
        .where(eq(apiKeyEvents.apiKeyId, apiKeyId))
        .orderBy(desc(apiKeyEvents.id))
        .limit(LOG_LIMIT);
    },

    async deliveries(apiKeyId: number) {
      return db
        .select()
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.apiKeyId, apiKeyId))
        .orderBy(desc(webhookDeliveries.id))
        .limit(LOG_LIMIT);
    },

    async enqueueTestDelivery(apiKeyId: number, now: Date): Promise<void> {
      await db
        .insert(webhookDeliveries)
        .values({ apiKeyId, kind: 'test', nextAttemptAt: now, createdAt: now });
    },
  };
}

export type ApiKeysRepository = ReturnType<typeof createApiKeysRepository>;
