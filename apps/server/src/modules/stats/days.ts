import { and, gte, lte, sql } from 'drizzle-orm';
import { type Database, type Executor, queryRows } from '../../db/client';
import { deliveryDays, deliveryDaysFrozen } from '../../db/schema';
import { type Counts, emptyCounts } from './figures';

export const DAY_MS = 86_400_000;
/**
 * A day is frozen this long after it ends (UTC): an order lives 20 minutes and a purchase left half done
 * is settled by the sync within minutes, so by then the day's orders have ended. One that has not counts
 * nowhere, ever.
 */
export const FREEZE_AFTER_MS = 3_600_000;
/** Days kept frozen back from the last closed day: the 90-day window and the one before (its trend). */
export const FROZEN_HISTORY_DAYS = 180;
/** Times to code are counted up to an hour (an order's SMS after its 20 minutes are late, not codes). */
const MAX_SECONDS = 3600;

/**
 * An order's time to code as the index counts it: whole seconds from the purchase (`a.created_at`) to its
 * first SMS (`first_sms.received_at`), capped at an hour. A provider's clock may stamp an SMS a moment
 * before our purchase time: that is 0.
 */
export const TIME_TO_CODE_SECONDS = sql.raw(
  `least(${MAX_SECONDS}, floor(greatest(0, extract(epoch from (first_sms.received_at - a.created_at)))))::int`,
);

/** The start of a window of `days` whole UTC days ending with today's: today and the days before it. */
export function dayWindowStart(days: number, now: Date): string {
  return addDays(dayOf(now), 1 - days);
}

/** YYYY-MM-DD of the UTC day of `time`. */
export function dayOf(time: Date | number): string {
  return new Date(time).toISOString().slice(0, 10);
}

export function addDays(day: string, days: number): string {
  return dayOf(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);
}

/** One pair's counts in a bucket (a day, or a part of a window). */
export interface PairCounts extends Counts {
  bucket: string;
  service: string;
  countryId: string;
}

const FINISHED = sql.raw(`('received', 'completed', 'canceled', 'expired', 'failed')`);
const SETTLED = sql.raw(`('received', 'completed', 'expired')`);
const REFUNDED = sql.raw(`('canceled', 'expired', 'failed')`);

/**
 * Counts the orders bought in [from, to) from the orders themselves, per pair and per bucket (`bucket` is
 * an SQL expression over the order `a`). Time to code runs from the purchase to the first SMS that arrived
 * while the order was open, as in ADR 0021.
 */
export async function countOrders(
  db: Executor,
  from: Date,
  to: Date,
  bucket = sql`'all'`,
): Promise<PairCounts[]> {
  const rows = await queryRows<{
    bucket: string;
    service: string;
    country_id: string;
    seconds: number | null;
    finished: number;
    settled: number;
    with_code: number;
    refunded: number;
  }>(
    db,
    sql`
      with ended as (
        select ${bucket} as bucket, a.service, a.country_id, a.status,
               case when a.status in ${SETTLED} and first_sms.received_at is not null
                 then ${TIME_TO_CODE_SECONDS}
               end as seconds
        from activations a
        left join lateral (
          select min(m.received_at) as received_at from activation_messages m
          where m.activation_id = a.id and not m.late
        ) first_sms on true
        where a.created_at >= ${from.toISOString()}::timestamptz and a.created_at < ${to.toISOString()}::timestamptz
          and a.status in ${FINISHED}
      )
      select bucket, service, country_id, seconds,
             count(*)::int as finished,
             (count(*) filter (where status in ${SETTLED}))::int as settled,
             (count(*) filter (where seconds is not null))::int as with_code,
             (count(*) filter (where status in ${REFUNDED}))::int as refunded
      from ended group by 1, 2, 3, 4
    `,
  );
  const pairs = new Map<string, PairCounts>();
  for (const row of rows) {
    const key = `${row.bucket}|${row.service}|${row.country_id}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { bucket: row.bucket, service: row.service, countryId: row.country_id, ...emptyCounts() };
      pairs.set(key, pair);
    }
    pair.finished += row.finished;
    pair.settled += row.settled;
    pair.withCode += row.with_code;
    pair.refunded += row.refunded;
    if (row.seconds !== null) {
      const histogram = pair.timeToCodeSeconds;
      while (histogram.length <= row.seconds) histogram.push(0);
      histogram[row.seconds]! += row.with_code;
    }
  }
  return [...pairs.values()];
}

const DAY_BUCKET = sql`to_char(a.created_at at time zone 'UTC', 'YYYY-MM-DD')`;

/**
 * Every pair's counts per day from `firstDay` to `lastDay` (inclusive): the frozen rows where the day is
 * frozen, counted from the orders where it is not (today, and a closed day the job has not reached yet).
 */
export async function dayCounts(db: Database, firstDay: string, lastDay: string): Promise<PairCounts[]> {
  const [frozenRows, frozenDays] = await Promise.all([
    db
      .select()
      .from(deliveryDays)
      .where(and(gte(deliveryDays.day, firstDay), lte(deliveryDays.day, lastDay))),
    db
      .select({ day: deliveryDaysFrozen.day })
      .from(deliveryDaysFrozen)
      .where(and(gte(deliveryDaysFrozen.day, firstDay), lte(deliveryDaysFrozen.day, lastDay))),
  ]);
  const frozen = new Set(frozenDays.map((row) => row.day));
  const counts: PairCounts[] = frozenRows.map((row) => ({
    bucket: row.day,
    service: row.service,
    countryId: row.countryId,
    finished: row.finished,
    settled: row.settled,
    withCode: row.withCode,
    refunded: row.refunded,
    timeToCodeSeconds: row.timeToCodeSeconds,
  }));
  // Each run of days not frozen is counted from the orders on its own: the days before the first order are
  // never frozen, and one count from there to today would read every order in between.
  const runs: { first: string; last: string }[] = [];
  for (let day = firstDay; day <= lastDay; day = addDays(day, 1)) {
    if (frozen.has(day)) continue;
    const run = runs.at(-1);
    if (run && run.last === addDays(day, -1)) run.last = day;
    else runs.push({ first: day, last: day });
  }
  for (const run of runs) {
    counts.push(
      ...(await countOrders(
        db,
        new Date(`${run.first}T00:00:00Z`),
        new Date(`${addDays(run.last, 1)}T00:00:00Z`),
        DAY_BUCKET,
      )),
    );
  }
  return counts;
}

/** The last day that may be frozen at `now`. */
export function lastClosedDay(now: Date): string {
  return addDays(dayOf(now.getTime() - FREEZE_AFTER_MS), -1);
}

/**
 * Closed days not frozen yet, newest first, from the first order's day (at most FROZEN_HISTORY_DAYS back).
 */
export async function daysToFreeze(db: Database, now: Date): Promise<string[]> {
  const last = lastClosedDay(now);
  const [first] = await queryRows<{ day: string | null }>(
    db,
    sql`select to_char(min(created_at) at time zone 'UTC', 'YYYY-MM-DD') as day from activations`,
  );
  if (!first?.day) return [];
  const start =
    first.day > addDays(last, 1 - FROZEN_HISTORY_DAYS) ? first.day : addDays(last, 1 - FROZEN_HISTORY_DAYS);
  if (start > last) return [];
  const rows = await queryRows<{ day: string }>(
    db,
    sql`
      select to_char(series.day, 'YYYY-MM-DD') as day
      from generate_series(${start}::date, ${last}::date, interval '1 day') as series(day)
      where not exists (select 1 from ${deliveryDaysFrozen} f where f.day = series.day::date)
      order by series.day desc
    `,
  );
  return rows.map((row) => row.day);
}

/**
 * Freezes one closed day: its pairs' counts from the orders as they stand, and the day's mark, in one
 * transaction. The mark goes first: a day already marked (by another instance) is left as it is.
 */
export async function freezeDay(db: Database, day: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    const pairs = await countOrders(
      tx,
      new Date(`${day}T00:00:00Z`),
      new Date(`${addDays(day, 1)}T00:00:00Z`),
    );
    const marked = await tx
      .insert(deliveryDaysFrozen)
      .values({ day, frozenAt: now, pairs: pairs.length })
      .onConflictDoNothing()
      .returning();
    if (marked.length === 0) return false;
    if (pairs.length > 0)
      await tx.insert(deliveryDays).values(
        pairs.map((pair) => ({
          day,
          service: pair.service,
          countryId: pair.countryId,
          finished: pair.finished,
          settled: pair.settled,
          withCode: pair.withCode,
          refunded: pair.refunded,
          timeToCodeSeconds: pair.timeToCodeSeconds,
        })),
      );
    return true;
  });
}
