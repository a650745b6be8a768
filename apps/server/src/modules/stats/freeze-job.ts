import type { DatabaseHandle } from '../../db/client';
import { jobLocks, withJobLock } from '../../db/locks';
import type { Clock } from '../../lib/clock';
import type { Job } from '../../lib/scheduler';
import { daysToFreeze, freezeDay } from './days';
import type { DeliveryIndex } from './delivery-index';

/** How often the freeze looks for a closed day: it finds one once a day, an hour after midnight UTC. */
export const FREEZE_TICK_MS = 10 * 60_000;
/** Days frozen per tick, so a first start on a large database spreads the work. */
const FREEZE_DAYS_PER_TICK = 30;

/** Freezes the closed days not frozen yet (newest first) and returns them. */
export async function freezeClosedDays(database: DatabaseHandle, now: Date): Promise<string[]> {
  const frozen: string[] = [];
  await withJobLock(database, jobLocks.deliveryIndexFreeze, async () => {
    for (const day of (await daysToFreeze(database.db, now)).slice(0, FREEZE_DAYS_PER_TICK)) {
      if (await freezeDay(database.db, day, now)) frozen.push(day);
    }
  });
  return frozen;
}

/** The nightly freeze of the Delivery Index's days (issue 30). */
export function deliveryIndexFreezeJob(ctx: {
  database: DatabaseHandle;
  clock: Clock;
  deliveryIndex: DeliveryIndex;
}): Job {
  return {
    name: 'delivery-index-freeze',
    intervalMs: FREEZE_TICK_MS,
    async run() {
      const frozen = await freezeClosedDays(ctx.database, ctx.clock.now());
      if (frozen.length > 0) ctx.deliveryIndex.forget();
    },
  };
}
