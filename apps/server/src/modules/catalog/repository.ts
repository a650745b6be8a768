import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { catalogSnapshots } from '../../db/schema';
import type { UpstreamCatalog } from '../../providers/sms/types';

export function createCatalogRepository(db: Executor) {
  return {
    async save(provider: string, fetchedAt: Date, data: UpstreamCatalog): Promise<void> {
      await db
        .insert(catalogSnapshots)
        .values({ provider, fetchedAt, data })
        .onConflictDoUpdate({ target: catalogSnapshots.provider, set: { fetchedAt, data } });
    },

    async fetchedAt(provider: string): Promise<Date | undefined> {
      const [row] = await db
        .select({ fetchedAt: catalogSnapshots.fetchedAt })
        .from(catalogSnapshots)
        .where(eq(catalogSnapshots.provider, provider));
      return row?.fetchedAt;
    },

    async load(provider: string): Promise<{ fetchedAt: Date; data: UpstreamCatalog } | undefined> {
      const [row] = await db.select().from(catalogSnapshots).where(eq(catalogSnapshots.provider, provider));
      return row ? { fetchedAt: row.fetchedAt, data: row.data as UpstreamCatalog } : undefined;
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
