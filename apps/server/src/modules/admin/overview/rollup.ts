import { sql } from 'drizzle-orm';
import { type Database, type DatabaseHandle, queryRows } from '../../../db/client';
import { jobLocks, withJobLock } from '../../../db/locks';
import {
  activeUsersDaily,
  businessHours,
  TIME_TO_CODE_BUCKET_MS,
  TIME_TO_CODE_BUCKETS,
} from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { Job } from '../../../lib/scheduler';
import type { ProviderPool } from '../../../providers/sms/pool';

export const HOUR_MS = 3_600_000;
/** Hours recomputed on every tick: orders settle within about half an hour of their purchase. */
const LIVE_HOURS = 3;
/** How far back the figures are kept complete: the overview's longest range. */
export const ROLLUP_WINDOW_HOURS = 31 * 24;
/** Missing older hours filled per tick, so a first start on a large database spreads the work. */
const BACKFILL_HOURS_PER_TICK = 48;
export const BUSINESS_HOURS_TICK_MS = 60_000;

/** A support refund ends an order as canceled with this reason; it counts as refunded, not canceled. */
const supportReason = 'refunded_by_support';

function withoutTrailingZeros(histogram: number[]): number[] {
  let length = histogram.length;
  while (length > 0 && histogram[length - 1] === 0) length -= 1;
  return histogram.slice(0, length);
}

export function hourOf(date: Date): Date {
  return new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS);
}

interface Numbers {
  hour: Date;
  sales: number;
  refunds: number;
  topups: number;
  active: number;
  with_code: number;
  refunded: number;
  canceled: number;
  cost_cents: number;
}

/**
 * Recomputes the hours from `from` (inclusive) to `to` (exclusive) from the ledger and the orders, and
 * replaces their rows; records who was active on those days. An order's cost is what its supplier kept once
 * the supplier's answers or history closed it (docs/decisions/0026), else the listed cost of an order that
 * kept its money (a code arrived); rents at their listed cost; each at its provider's dollar rate.
 */
export async function computeBusinessHours(
  db: Database,
  providers: ProviderPool,
  from: Date,
  to: Date,
  now: Date,
) {
  const rates = providers.members.map((member) => sql`(${member.name}, ${member.usdRate}::numeric)`);
  const rateTable = sql`(values ${sql.join(rates, sql`, `)}) as rate(provider, usd)`;
  const hourOfColumn = (column: string) =>
    sql.raw(`(date_trunc('hour', ${column} at time zone 'UTC') at time zone 'UTC')`);
  await db.transaction(async (tx) => {
    const numbers = await queryRows<Numbers>(
      tx,
      sql`
        with hours as (
          select generate_series(${from.toISOString()}::timestamptz, ${to.toISOString()}::timestamptz - interval '1 hour', interval '1 hour') as hour
        ),
        money as (
          select ${hourOfColumn('created_at')} as hour,
                 coalesce(sum(-amount_cents) filter (where kind = 'purchase'), 0) as sales,
                 coalesce(sum(amount_cents) filter (where kind = 'refund'), 0) as refunds,
                 coalesce(sum(amount_cents) filter (where kind = 'topup'), 0) as topups,
                 count(distinct user_id) as active
          from ledger_entries where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
          group by 1
        ),
        orders as (
          select ${hourOfColumn('a.created_at')} as hour,
                 count(*) filter (where a.status in ('received', 'completed')) as with_code,
                 count(*) filter (where a.status in ('expired', 'failed') or (a.status = 'canceled' and a.status_reason = ${supportReason})) as refunded,
                 count(*) filter (where a.status = 'canceled' and a.status_reason is distinct from ${supportReason}) as canceled,
                 coalesce(sum(case
                   when c.state in ('billed', 'returned') then coalesce(c.charged_cents, 0) - c.returned_cents
                   when a.status in ('received', 'completed') then a.upstream_max_price * coalesce(rate.usd, 1) * 100
                   else 0 end), 0) as cost_cents
          from activations a left join ${rateTable} on rate.provider = a.provider
          left join supplier_charges c
            on c.provider = a.provider and c.order_kind = 'activation' and c.order_id = a.id
          where a.created_at >= ${from.toISOString()}::timestamptz and a.created_at < ${to.toISOString()}::timestamptz
          group by 1
        ),
        rent_costs as (
          select ${hourOfColumn('r.created_at')} as hour,
                 coalesce(sum(r.upstream_cost * coalesce(rate.usd, 1) * 100), 0) as cost_cents
          from rents r left join ${rateTable} on rate.provider = r.provider
          where r.created_at >= ${from.toISOString()}::timestamptz and r.created_at < ${to.toISOString()}::timestamptz
            and r.status not in ('pending', 'failed', 'canceled')
          group by 1
        )
        select hours.hour,
               coalesce(money.sales, 0)::bigint as sales, coalesce(money.refunds, 0)::bigint as refunds,
               coalesce(money.topups, 0)::bigint as topups, coalesce(money.active, 0)::int as active,
               coalesce(orders.with_code, 0)::int as with_code, coalesce(orders.refunded, 0)::int as refunded,
               coalesce(orders.canceled, 0)::int as canceled,
               round(coalesce(orders.cost_cents, 0) + coalesce(rent_costs.cost_cents, 0))::bigint as cost_cents
        from hours
        left join money on money.hour = hours.hour
        left join orders on orders.hour = hours.hour
        left join rent_costs on rent_costs.hour = hours.hour
      `,
    );
    const buckets = await queryRows<{ hour: Date; bucket: number; orders: number }>(
      tx,
      sql`
        select ${hourOfColumn('a.created_at')} as hour,
               least(floor(extract(epoch from (first_sms.received_at - a.created_at)) * 1000 / ${TIME_TO_CODE_BUCKET_MS}), ${TIME_TO_CODE_BUCKETS - 1})::int as bucket,
               count(*)::int as orders
        from activations a
        join lateral (
          select min(m.received_at) as received_at from activation_messages m
          where m.activation_id = a.id and not m.late
        ) first_sms on first_sms.received_at is not null
        where a.created_at >= ${from.toISOString()}::timestamptz and a.created_at < ${to.toISOString()}::timestamptz
        group by 1, 2
      `,
    );
    const histograms = new Map<number, number[]>();
    for (const { hour, bucket, orders } of buckets) {
      const key = new Date(hour).getTime();
      const histogram = histograms.get(key) ?? new Array<number>(TIME_TO_CODE_BUCKETS).fill(0);
      histogram[Math.max(0, bucket)]! += orders;
      histograms.set(key, histogram);
    }
    const rows = numbers.map((row) => {
      const hour = new Date(row.hour);
      return {
        hour,
        salesCents: Number(row.sales),
        refundsCents: Number(row.refunds),
        costCents: Number(row.cost_cents),
        topupsCents: Number(row.topups),
        ordersWithCode: row.with_code,
        ordersRefunded: row.refunded,
        ordersCanceled: row.canceled,
        activeUsers: row.active,
        // Trailing empty buckets are left out: most codes come within minutes, so the rows stay short.
        timeToCode: withoutTrailingZeros(histograms.get(hour.getTime()) ?? []),
        computedAt: now,
      };
    });
    await tx.execute(
      sql`delete from ${businessHours} where hour >= ${from.toISOString()}::timestamptz and hour < ${to.toISOString()}::timestamptz`,
    );
    if (rows.length > 0) await tx.insert(businessHours).values(rows);
    await tx.execute(sql`
      insert into ${activeUsersDaily} (day, user_id)
      select distinct (created_at at time zone 'UTC')::date, user_id from ledger_entries
      where created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz
      on conflict do nothing
    `);
  });
}

/** The window's hours that have no row yet, newest first (a first start, or hours the job missed). */
async function missingHours(db: Database, now: Date): Promise<Date[]> {
  const end = hourOf(now);
  const start = new Date(end.getTime() - ROLLUP_WINDOW_HOURS * HOUR_MS);
  const rows = await queryRows<{ hour: Date }>(
    db,
    sql`
      select series.hour from generate_series(${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz - interval '1 hour', interval '1 hour') as series(hour)
      where not exists (select 1 from ${businessHours} b where b.hour = series.hour)
      order by series.hour desc
    `,
  );
  return rows.map((row) => new Date(row.hour));
}

/** One tick: the live hours, then a bounded share of any missing older ones, the most recent first. */
export async function refreshBusinessHours(db: Database, providers: ProviderPool, now: Date): Promise<void> {
  const end = new Date(hourOf(now).getTime() + HOUR_MS);
  await computeBusinessHours(db, providers, new Date(end.getTime() - LIVE_HOURS * HOUR_MS), end, now);
  const missing = (await missingHours(db, now)).slice(0, BACKFILL_HOURS_PER_TICK);
  if (missing.length > 0)
    await computeBusinessHours(
      db,
      providers,
      missing.at(-1)!,
      new Date(missing[0]!.getTime() + HOUR_MS),
      now,
    );
}

export function businessHoursJob(ctx: {
  database: DatabaseHandle;
  providers: ProviderPool;
  clock: Clock;
}): Job {
  return {
    name: 'business-hours',
    intervalMs: BUSINESS_HOURS_TICK_MS,
    async run() {
      await withJobLock(ctx.database, jobLocks.businessHours, () =>
        refreshBusinessHours(ctx.database.db, ctx.providers, ctx.clock.now()),
      );
    },
  };
}
