import { sql } from 'drizzle-orm';
import { type Database, type DatabaseHandle, type Executor, queryRows } from '../../../db/client';
import { jobLocks, withJobLock } from '../../../db/locks';
import { type DeliveryStat, deliveryStats } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { Job } from '../../../lib/scheduler';
import type { ProviderPool } from '../../../providers/sms/pool';
import type { CatalogService } from '../../catalog/service';
import { dayWindowStart, TIME_TO_CODE_SECONDS } from '../../stats/days';

/** The window the statistics look back over: the Delivery Index's 7 days, so a price shows the index's figure. */
export const DELIVERY_STATS_WINDOW_DAYS = 7;
/** How often one instance recomputes them (and every instance reloads them). */
export const DELIVERY_STATS_TICK_MS = 60_000;
/** "All" in a key column of delivery_stats. */
export const ALL = '*';

/**
 * Recomputes the statistics from the orders of the window and replaces the table's rows, in one transaction
 * so that readers see the old set or the new one. Settled orders are those that got a code (whatever
 * happened after) and those that expired without one; orders cancelled by their user or refused by the
 * provider say nothing about delivery and are left out. Time to code runs from the purchase to the first
 * SMS that arrived while the order was open. Window, time to code and median (nearest rank, whole seconds)
 * are the index's (stats/), so the dashboard's figure for a service and country is the one `/stats` shows.
 */
export async function computeDeliveryStats(db: Database, now: Date): Promise<number> {
  const since = new Date(`${dayWindowStart(DELIVERY_STATS_WINDOW_DAYS, now)}T00:00:00Z`);
  return db.transaction(async (tx) => {
    await tx.delete(deliveryStats);
    const rows = await queryRows<{ count: number }>(
      tx,
      sql`
        with settled as (
          select a.provider, a.service, a.country_id, a.operator,
                 first_sms.received_at is not null as delivered,
                 case when first_sms.received_at is not null then ${TIME_TO_CODE_SECONDS} end as seconds
          from activations a
          left join lateral (
            select min(m.received_at) as received_at
            from activation_messages m
            where m.activation_id = a.id and not m.late
          ) first_sms on true
          where a.created_at >= ${since.toISOString()}::timestamptz
            and a.status in ('received', 'completed', 'expired')
        ),
        grouped as (
          select case when grouping(provider) = 1 then ${ALL} else provider end as provider,
                 case when grouping(service) = 1 then ${ALL} else service end as service,
                 case when grouping(country_id) = 1 then ${ALL} else country_id end as country_id,
                 case when grouping(operator) = 1 then ${ALL} else operator end as operator,
                 count(*)::int as orders,
                 (count(*) filter (where delivered))::int as delivered,
                 (percentile_disc(0.5) within group (order by seconds) * 1000)::int as median_ms
          from settled
          group by grouping sets (
            (provider, service, country_id), (provider), (service, country_id), (service, country_id, operator)
          )
        ),
        inserted as (
          insert into delivery_stats
            (provider, service, country_id, operator, orders, delivered, median_time_to_code_ms, computed_at)
          select provider, service, country_id, operator, orders, delivered, median_ms,
                 ${now.toISOString()}::timestamptz
          from grouped
          returning 1
        )
        select count(*)::int as count from inserted
      `,
    );
    return rows[0]?.count ?? 0;
  });
}

export function loadDeliveryStats(db: Executor): Promise<DeliveryStat[]> {
  return db.select().from(deliveryStats);
}

/**
 * Recomputes the statistics on one instance, then hands every instance's routing the shared figures (one
 * instance's deliveries alone would route differently from its neighbours', and start from nothing after a
 * restart).
 */
/** What the delivery figures are computed from and handed to. */
export interface DeliveryStatsDeps {
  database: DatabaseHandle;
  providers: ProviderPool;
  catalog: CatalogService;
  clock: Clock;
}

export function deliveryStatsJob(ctx: DeliveryStatsDeps): Job {
  return {
    name: 'delivery-stats',
    intervalMs: DELIVERY_STATS_TICK_MS,
    async run() {
      const { db } = ctx.database;
      await withJobLock(ctx.database, jobLocks.deliveryStats, async () => {
        await computeDeliveryStats(db, ctx.clock.now());
      });
      await useDeliveryStats(ctx);
    },
  };
}

/**
 * Loads the stored figures into the pool's health record (routing) and the catalog (the figures shown
 * beside each price), at start and after each computation.
 */
export async function useDeliveryStats(ctx: Omit<DeliveryStatsDeps, 'clock'>): Promise<void> {
  const rows = await loadDeliveryStats(ctx.database.db);
  const computedAt = rows[0]?.computedAt;
  if (!computedAt) return;
  ctx.providers.health.useSharedDeliveries(
    rows.filter((row) => row.provider !== ALL && row.operator === ALL),
    computedAt,
  );
  ctx.catalog.useDeliveryFigures(rows.filter((row) => row.provider === ALL && row.service !== ALL));
}
