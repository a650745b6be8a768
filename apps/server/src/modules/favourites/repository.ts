import { and, desc, eq, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { activations, favourites } from '../../db/schema';

/** '' in `country_id` is a service starred in every country. */
const EVERY_COUNTRY = '';

export interface FavouriteKey {
  service: string;
  countryId: string | null;
}

export interface RecentPair {
  service: string;
  countryId: string;
  operator: string;
  boughtAt: Date;
}

/** How far back the recent purchases are looked for: enough orders to find five different ones. */
const RECENT_ORDERS_SCANNED = 100;

export function createFavouritesRepository(db: Executor) {
  return {
    async list(userId: number): Promise<FavouriteKey[]> {
      const rows = await db
        .select({ service: favourites.service, countryId: favourites.countryId })
        .from(favourites)
        .where(eq(favourites.userId, userId))
        .orderBy(favourites.createdAt, favourites.service, favourites.countryId);
      return rows.map((row) => ({
        service: row.service,
        countryId: row.countryId === EVERY_COUNTRY ? null : row.countryId,
      }));
    },

    /** Stars a service or pair unless the user has `max` already; true when it is starred now. */
    async add(userId: number, key: FavouriteKey, max: number, now: Date): Promise<boolean> {
      const countryId = key.countryId ?? EVERY_COUNTRY;
      const inserted = await queryRows(
        db,
        sql`
        insert into ${favourites} (user_id, service, country_id, created_at)
        select ${userId}, ${key.service}, ${countryId}, ${now.toISOString()}::timestamptz
        where (select count(*) from ${favourites} where user_id = ${userId}) < ${max}
        on conflict do nothing
        returning 1`,
      );
      if (inserted.length > 0) return true;
      const [existing] = await db
        .select({ service: favourites.service })
        .from(favourites)
        .where(
          and(
            eq(favourites.userId, userId),
            eq(favourites.service, key.service),
            eq(favourites.countryId, countryId),
          ),
        );
      return existing !== undefined;
    },

    async remove(userId: number, key: FavouriteKey): Promise<void> {
      await db
        .delete(favourites)
        .where(
          and(
            eq(favourites.userId, userId),
            eq(favourites.service, key.service),
            eq(favourites.countryId, key.countryId ?? EVERY_COUNTRY),
          ),
        );
    },

    /** The user's last `count` different (service, country, operator) purchases, newest first. */
    async recent(userId: number, count: number): Promise<RecentPair[]> {
      const rows = await db
        .select({
          service: activations.service,
          countryId: activations.countryId,
          operator: activations.operator,
          createdAt: activations.createdAt,
        })
        .from(activations)
        .where(eq(activations.userId, userId))
        .orderBy(desc(activations.id))
        .limit(RECENT_ORDERS_SCANNED);
      const seen = new Set<string>();
      const pairs: RecentPair[] = [];
      for (const row of rows) {
        const key = `${row.service}|${row.countryId}|${row.operator}`;
        if (seen.has(key)) continue;
        seen.add(key);
        pairs.push({ ...row, boughtAt: row.createdAt });
        if (pairs.length === count) break;
      }
      return pairs;
    },
  };
}
