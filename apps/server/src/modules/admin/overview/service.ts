import { centsToDollars, type OverviewFigures } from '@simcode/contract';
import { gte, ne, sql } from 'drizzle-orm';
import { type Database, queryRows } from '../../../db/client';
import { activeUsersDaily, businessHours, TIME_TO_CODE_BUCKET_MS, tickets } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { ProviderPool } from '../../../providers/sms/pool';
import { providerBalances } from '../providers/service';
import { HOUR_MS, hourOf } from './rollup';

type HourRow = typeof businessHours.$inferSelect;
const DAY_MS = 24 * HOUR_MS;

/** The median of a time-to-code histogram, at the middle of its bucket; null without codes. */
export function medianOf(histogram: readonly number[]): number | null {
  const total = histogram.reduce((sum, count) => sum + count, 0);
  if (total === 0) return null;
  let seen = 0;
  for (const [bucket, count] of histogram.entries()) {
    seen += count;
    if (seen * 2 >= total) return (bucket + 0.5) * TIME_TO_CODE_BUCKET_MS;
  }
  return null;
}

function addHistograms(rows: readonly HourRow[]): number[] {
  const sum: number[] = [];
  for (const row of rows)
    for (const [bucket, count] of row.timeToCode.entries()) sum[bucket] = (sum[bucket] ?? 0) + count;
  return Array.from(sum, (count) => count ?? 0);
}

function figuresOf(rows: readonly HourRow[], activeUsers: number): OverviewFigures {
  const total = (pick: (row: HourRow) => number) => rows.reduce((sum, row) => sum + pick(row), 0);
  const revenueCents = total((row) => row.salesCents - row.refundsCents);
  const costCents = total((row) => row.costCents);
  const withCode = total((row) => row.ordersWithCode);
  const refunded = total((row) => row.ordersRefunded);
  return {
    revenue: centsToDollars(revenueCents),
    cost: centsToDollars(costCents),
    margin: centsToDollars(revenueCents - costCents),
    topups: centsToDollars(total((row) => row.topupsCents)),
    orders_with_code: withCode,
    orders_refunded: refunded,
    orders_canceled: total((row) => row.ordersCanceled),
    delivery_rate: withCode + refunded === 0 ? null : withCode / (withCode + refunded),
    median_time_to_code_ms: medianOf(addHistograms(rows)),
    active_users: activeUsers,
  };
}

interface Deps {
  db: Database;
  providers: ProviderPool;
  clock: Clock;
}

/**
 * The console's overview, from the hourly figures (at most 720 rows for 30 days, whatever the number of
 * orders): today by hour, or the last 7 or 30 days (today included) by day, all in UTC. The current hour is
 * at most a minute old (the job's tick).
 */
export function createAdminOverviewService({ db, providers, clock }: Deps) {
  return {
    async overview(days: 1 | 7 | 30) {
      const now = clock.now();
      const today = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
      const start = new Date(today.getTime() - (days - 1) * DAY_MS);
      const startDay = start.toISOString().slice(0, 10);
      const [rows, activeByDay, openTickets, balances] = await Promise.all([
        db.select().from(businessHours).where(gte(businessHours.hour, start)).orderBy(businessHours.hour),
        queryRows<{ day: string; users: number }>(
          db,
          sql`
            select day::text as day, count(*)::int as users
            from ${activeUsersDaily} where day >= ${startDay}::date group by day order by day
          `,
        ),
        db.$count(tickets, ne(tickets.status, 'closed')),
        providerBalances(providers),
      ]);
      const [{ users: distinctUsers = 0 } = {}] = await queryRows<{ users: number }>(
        db,
        sql`select count(distinct user_id)::int as users from ${activeUsersDaily} where day >= ${startDay}::date`,
      );
      const byDay = new Map(activeByDay.map((row) => [row.day, row.users]));
      const bucketMs = days === 1 ? HOUR_MS : DAY_MS;
      const series: Array<OverviewFigures & { start: string }> = [];
      for (let at = start.getTime(); at <= hourOf(now).getTime(); at += bucketMs) {
        const inBucket = rows.filter((row) => row.hour.getTime() >= at && row.hour.getTime() < at + bucketMs);
        const active =
          days === 1
            ? (inBucket[0]?.activeUsers ?? 0)
            : (byDay.get(new Date(at).toISOString().slice(0, 10)) ?? 0);
        series.push({ start: new Date(at).toISOString(), ...figuresOf(inBucket, active) });
      }
      return {
        days,
        totals: figuresOf(rows, distinctUsers),
        series,
        open_tickets: openTickets,
        providers: providers.names.map((name) => ({ name, balance: balances.get(name) ?? null })),
      };
    },
  };
}

export type AdminOverviewService = ReturnType<typeof createAdminOverviewService>;
