import type { DatabaseHandle } from '../../db/client';
import { jobLocks, withJobLock } from '../../db/locks';
import type { Job } from '../../lib/scheduler';
import type { StatusService } from './service';

/** The synthetic checks run once a minute (each supplier's call comes out of its upstream budget). */
export const STATUS_CHECK_INTERVAL_MS = 60_000;

/** The status page's checks and automatic incidents, on one instance at a time. */
export function statusChecksJob(ctx: { database: DatabaseHandle; status: StatusService }): Job {
  return {
    name: 'status-checks',
    intervalMs: STATUS_CHECK_INTERVAL_MS,
    async run() {
      await withJobLock(ctx.database, jobLocks.statusChecks, () => ctx.status.runMinute());
    },
  };
}
