import type { DatabaseHandle } from './client';

/** Ids of the advisory locks that keep single-leader jobs to one instance at a time. */
export const jobLocks = {
  catalogRefresh: 72_011_010,
  activationSync: 72_011_011,
  rentalSync: 72_011_012,
  paymentReconciliation: 72_011_013,
  deliveryStats: 72_011_014,
  businessHours: 72_011_015,
  deliveryIndexFreeze: 72_011_016,
  supplierReconciliation: 72_011_017,
  statusChecks: 72_011_018,
  supplierBalances: 72_011_019,
  operatorAlerts: 72_011_020,
} as const;

/**
 * Runs `work` only if no other instance holds the lock, and returns whether it ran. On PostgreSQL this is
 * a session advisory lock on a dedicated connection; PGlite lives in one process, so there is nobody to
 * exclude.
 */
export async function withJobLock(
  database: DatabaseHandle,
  lockId: number,
  work: () => Promise<void>,
): Promise<boolean> {
  if (!database.pool) {
    await work();
    return true;
  }
  const client = await database.pool.connect();
  try {
    const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
      lockId,
    ]);
    if (!rows[0]?.locked) return false;
    try {
      await work();
      return true;
    } finally {
      await client.query('select pg_advisory_unlock($1)', [lockId]);
    }
  } finally {
    client.release();
  }
}
