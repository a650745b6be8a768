import { STATS_MIN_SETTLED } from '@simcode/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { countOrders } from '../stats/days';
import { addCounts, type Counts, emptyCounts } from '../stats/figures';

/** A supplier whose last hour delivers this much less often than its normal is out of its band. */
export const DELIVERY_BAND = 0.3;
const HOUR_MS = 3_600_000;
const NORMAL_DAYS = 7;
/** The normal moves slowly: counted again once an hour, not every minute over a week of orders. */
const NORMAL_REFRESH_MS = HOUR_MS;

async function ratesBySupplier(db: Executor, from: Date, to: Date): Promise<Map<string, number>> {
  const sums = new Map<string, Counts>();
  for (const pair of await countOrders(db, from, to, sql`a.provider`)) {
    sums.set(pair.bucket, addCounts(sums.get(pair.bucket) ?? emptyCounts(), pair));
  }
  const rates = new Map<string, number>();
  for (const [supplier, counts] of sums) {
    // Under the index's minimum a rate says nothing either way.
    if (counts.settled >= STATS_MIN_SETTLED) rates.set(supplier, counts.withCode / counts.settled);
  }
  return rates;
}

/**
 * Which suppliers deliver codes out of their normal band: the last hour's delivery rate (settled orders
 * bought in it) more than DELIVERY_BAND under the rate of the 7 days before. Answers supplier → why.
 */
export function createDeliveryBand(db: Executor, clock: Clock) {
  let normal: { countedAtMs: number; rates: Map<string, number> } | null = null;
  return async function outOfBand(): Promise<Map<string, string>> {
    const nowMs = clock.now().getTime();
    const hourAgo = new Date(nowMs - HOUR_MS);
    if (!normal || nowMs - normal.countedAtMs >= NORMAL_REFRESH_MS) {
      const from = new Date(hourAgo.getTime() - NORMAL_DAYS * 24 * HOUR_MS);
      normal = { countedAtMs: nowMs, rates: await ratesBySupplier(db, from, hourAgo) };
    }
    const out = new Map<string, string>();
    for (const [supplier, rate] of await ratesBySupplier(db, hourAgo, new Date(nowMs))) {
      const usual = normal.rates.get(supplier);
      if (usual !== undefined && rate < usual - DELIVERY_BAND) {
        out.set(
          supplier,
          `delivery rate ${Math.round(rate * 100)}% in the last hour, normally ${Math.round(usual * 100)}%`,
        );
      }
    }
    return out;
  };
}
