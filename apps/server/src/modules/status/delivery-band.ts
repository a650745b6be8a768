import { STATS_MIN_SETTLED } from '@simcode/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { countOrders } from '../stats/days';
import { addCounts, type Counts, emptyCounts, percentileSeconds } from '../stats/figures';

/** A supplier whose last hour delivers this much less often than its normal is out of its band. */
export const DELIVERY_BAND = 0.3;
/**
 * A supplier whose codes take this many times their normal median, and a minute more at least (a normal
 * of ten seconds becoming twenty is no news to a buyer), is out of its band too.
 */
export const TIME_TO_CODE_FACTOR = 2;
const TIME_TO_CODE_MIN_EXTRA_SECONDS = 60;
const HOUR_MS = 3_600_000;
const NORMAL_DAYS = 7;
/** The normal moves slowly: counted again once an hour, not every minute over a week of orders. */
const NORMAL_REFRESH_MS = HOUR_MS;

/** A pair's key in the answer: `tg:US`. */
export const pairKey = (service: string, countryId: string) => `${service}:${countryId}`;

interface SupplierFigures {
  /** Share of settled orders that got a code; absent under the index's minimum of settled orders. */
  rate?: number;
  /** The median time to code; absent under the index's minimum of codes. */
  medianSeconds?: number;
}

/** Each supplier's figures, and each pair's (service × country) across the suppliers, over [from, to). */
async function figuresBetween(
  db: Executor,
  from: Date,
  to: Date,
): Promise<{ suppliers: Map<string, SupplierFigures>; pairs: Map<string, SupplierFigures> }> {
  const bySupplier = new Map<string, Counts>();
  const byPair = new Map<string, Counts>();
  for (const counts of await countOrders(db, from, to, sql`a.provider`)) {
    bySupplier.set(counts.bucket, addCounts(bySupplier.get(counts.bucket) ?? emptyCounts(), counts));
    const pair = pairKey(counts.service, counts.countryId);
    byPair.set(pair, addCounts(byPair.get(pair) ?? emptyCounts(), counts));
  }
  const figuresOf = (sums: Map<string, Counts>) =>
    new Map(
      [...sums].map(([key, counts]): [string, SupplierFigures] => [
        key,
        {
          // Under the index's minimum a figure says nothing either way.
          ...(counts.settled >= STATS_MIN_SETTLED ? { rate: counts.withCode / counts.settled } : {}),
          ...(counts.withCode >= STATS_MIN_SETTLED
            ? { medianSeconds: percentileSeconds(counts.timeToCodeSeconds, 0.5)! }
            : {}),
        },
      ]),
    );
  return { suppliers: figuresOf(bySupplier), pairs: figuresOf(byPair) };
}

/** Why a supplier's last hour is out of its band, or null when it is within. */
function outOfBandReason(hour: SupplierFigures, usual: SupplierFigures): string | null {
  if (hour.rate !== undefined && usual.rate !== undefined && hour.rate < usual.rate - DELIVERY_BAND) {
    return `delivery rate ${Math.round(hour.rate * 100)}% in the last hour, normally ${Math.round(usual.rate * 100)}%`;
  }
  if (
    hour.medianSeconds !== undefined &&
    usual.medianSeconds !== undefined &&
    hour.medianSeconds > usual.medianSeconds * TIME_TO_CODE_FACTOR &&
    hour.medianSeconds > usual.medianSeconds + TIME_TO_CODE_MIN_EXTRA_SECONDS
  ) {
    return `median time to code ${hour.medianSeconds} s in the last hour, normally ${usual.medianSeconds} s`;
  }
  return null;
}

/** Suppliers, and pairs (`tg:US`, across suppliers), out of their delivery band, each with why. */
export interface OutOfBand {
  suppliers: Map<string, string>;
  pairs: Map<string, string>;
}

/**
 * Which suppliers deliver codes out of their normal band: the last hour (settled orders bought in it)
 * delivering more than DELIVERY_BAND under the rate of the 7 days before, or its codes taking more than
 * TIME_TO_CODE_FACTOR times their median; and which pairs do, counted across the suppliers (a pair with the
 * index's minimum of orders in an hour is a popular one, and may fail though no supplier's total shows it).
 */
export function createDeliveryBand(db: Executor, clock: Clock) {
  let normal: { countedAtMs: number; figures: Awaited<ReturnType<typeof figuresBetween>> } | null = null;
  return async function outOfBand(): Promise<OutOfBand> {
    const nowMs = clock.now().getTime();
    const hourAgo = new Date(nowMs - HOUR_MS);
    if (!normal || nowMs - normal.countedAtMs >= NORMAL_REFRESH_MS) {
      const from = new Date(hourAgo.getTime() - NORMAL_DAYS * 24 * HOUR_MS);
      normal = { countedAtMs: nowMs, figures: await figuresBetween(db, from, hourAgo) };
    }
    const hour = await figuresBetween(db, hourAgo, new Date(nowMs));
    const judged = (current: Map<string, SupplierFigures>, usual: Map<string, SupplierFigures>) => {
      const out = new Map<string, string>();
      for (const [key, figures] of current) {
        const reason = outOfBandReason(figures, usual.get(key) ?? {});
        if (reason) out.set(key, reason);
      }
      return out;
    };
    return {
      suppliers: judged(hour.suppliers, normal.figures.suppliers),
      pairs: judged(hour.pairs, normal.figures.pairs),
    };
  };
}
