import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { closeTestApp, type TestApp } from '../../../test/support/app';
import { createListeningTestApp, simulatorControl } from '../../../test/support/upstream';
import { catalogSnapshots } from '../../db/schema';

let t: TestApp | undefined;

afterEach(async () => {
  if (t) await closeTestApp(t);
  t = undefined;
});

async function storedAt(app: TestApp): Promise<number | undefined> {
  const [row] = await app.ctx.database.db
    .select({ fetchedAt: catalogSnapshots.fetchedAt })
    .from(catalogSnapshots)
    .where(eq(catalogSnapshots.provider, 'sim-a'));
  return row?.fetchedAt.getTime();
}

describe('the catalog refresh', () => {
  it('stores and prices the catalog again only when the supplier’s answer changed', async () => {
    t = await createListeningTestApp();
    const version = t.ctx.catalog.version();
    const firstStoredAt = await storedAt(t);

    // A moment later, not a minute: the simulator's stock moves every ten minutes of its clock, and a minute
    // could cross into the next period. Enough for a snapshot written again to carry another time.
    t.clock.advance(1);
    expect(await t.ctx.catalog.refreshFromUpstream()).toBe(true);
    // Nothing new: the snapshot is not written again, and answers keep their ETag.
    expect(t.ctx.catalog.version()).toBe(version);
    expect(await storedAt(t)).toBe(firstStoredAt);

    // Other prices at the supplier.
    await simulatorControl(t, 'settings', { seed: 4242 });
    t.clock.advance(60_000);
    expect(await t.ctx.catalog.refreshFromUpstream()).toBe(true);
    expect(t.ctx.catalog.version()).not.toBe(version);
    expect(await storedAt(t)).toBe(t.clock.now().getTime());
  });
});
