import { eq, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { activations, type OrderKind, rents } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import type { AlertBook, Condition } from './book';
import { type AlertSettings, loadAlertSettings } from './settings';

const MINUTE_MS = 60_000;

/** A buyer's record over the window: what a supplier counts against the account that sold the number. */
export interface BuyerRecord {
  cancels: number;
  noCode: number;
  earlyCancelRefusals: number;
  /** The oldest counted event: the record lightens from then plus the window. */
  oldestAt: Date | null;
}

/** A customer, or one API key of a customer (a reseller's sub-customer usually has its own). */
export type BuyerScope = { kind: 'user'; id: number } | { kind: 'api_key'; id: number };

interface RecordRow {
  cancels: number | string;
  no_code: number | string;
  early: number | string;
  oldest: Date | string | null;
}

function whoFilter(scope: BuyerScope, table: 'a' | 'r'): SQL {
  return scope.kind === 'user'
    ? sql`${sql.raw(table)}.user_id = ${scope.id}`
    : sql`${sql.raw(table)}.api_key_id = ${scope.id}`;
}

/**
 * Abusive-buyer isolation: one place (the orders kernel's placeOrder asks it before any supplier is)
 * decides whether a buyer's recent cancels, orders without a code and cancels refused as too early passed
 * the operator's thresholds. Such a buyer's purchases are refused (`buyer_throttled`, 429 with
 * `retry_after`) until the window lightens, and the operators get one alert with the evidence; other
 * buyers are not looked at. Activations and rents count alike (a supplier rates down a cancelled rent as
 * it does a cancelled number); an ended rent is no order without a code, so only activations count there.
 */
export function createBuyerIsolation({ db, clock, book }: { db: Database; clock: Clock; book: AlertBook }) {
  async function recordOf(scope: BuyerScope, windowMinutes: number): Promise<BuyerRecord> {
    const since = new Date(clock.now().getTime() - windowMinutes * MINUTE_MS);
    const result = (await db.execute(sql`
      with counted as (
        select a.updated_at as at, a.status = 'canceled' as cancel, a.status = 'expired' as no_code,
          false as early
        from activations a
        where ${whoFilter(scope, 'a')} and a.updated_at >= ${since}
          and ((a.status = 'canceled' and a.status_reason = 'canceled_by_user') or a.status = 'expired')
        union all
        select r.updated_at, true, false, false
        from rents r
        where ${whoFilter(scope, 'r')} and r.updated_at >= ${since}
          and r.status = 'canceled' and r.status_reason = 'canceled_by_user'
        union all
        select e.at, false, false, true
        from order_events e join activations a on a.id = e.order_id
        where e.order_kind = 'activation' and ${whoFilter(scope, 'a')} and e.at >= ${since}
          and e.action = 'cancel' and e.outcome <> 'ok'
        union all
        select e.at, false, false, true
        from order_events e join rents r on r.id = e.order_id
        where e.order_kind = 'rent' and ${whoFilter(scope, 'r')} and e.at >= ${since}
          and e.action = 'cancel' and e.outcome <> 'ok'
      )
      select count(*) filter (where cancel) as cancels, count(*) filter (where no_code) as no_code,
        count(*) filter (where early) as early, min(at) as oldest
      from counted
    `)) as unknown as { rows: RecordRow[] };
    const row = result.rows[0]!;
    return {
      cancels: Number(row.cancels),
      noCode: Number(row.no_code),
      earlyCancelRefusals: Number(row.early),
      oldestAt: row.oldest === null ? null : new Date(row.oldest),
    };
  }

  const exceeds = (record: BuyerRecord, settings: AlertSettings) =>
    record.cancels >= settings.buyerMaxCancels ||
    record.noCode >= settings.buyerMaxNoCode ||
    record.earlyCancelRefusals >= settings.buyerMaxEarlyCancelRefusals;

  function conditionOf(scope: BuyerScope, record: BuyerRecord, settings: AlertSettings): Condition {
    const who = scope.kind === 'user' ? `Customer #${scope.id}` : `API key #${scope.id}`;
    return {
      key: `buyer_throttled:${scope.kind}:${scope.id}`,
      kind: 'buyer_throttled',
      summary: `${who} is throttled: ${record.cancels} cancels, ${record.noCode} orders without a code and ${record.earlyCancelRefusals} refused early cancels in ${settings.buyerWindowMinutes} min. Purchases are refused until the window lightens.`,
      evidence: {
        [scope.kind === 'user' ? 'user_id' : 'api_key_id']: scope.id,
        cancels: record.cancels,
        no_code: record.noCode,
        early_cancel_refusals: record.earlyCancelRefusals,
        window_minutes: settings.buyerWindowMinutes,
        max_cancels: settings.buyerMaxCancels,
        max_no_code: settings.buyerMaxNoCode,
        max_early_cancel_refusals: settings.buyerMaxEarlyCancelRefusals,
      },
      link: scope.kind === 'user' ? `/admin/users/${scope.id}` : '/admin/alerts',
      since: record.oldestAt ?? clock.now(),
    };
  }

  async function buyerOf(kind: OrderKind, orderId: number) {
    const table = kind === 'activation' ? activations : rents;
    const [order] = await db
      .select({ userId: table.userId, apiKeyId: table.apiKeyId })
      .from(table)
      .where(eq(table.id, orderId));
    return order;
  }

  return {
    recordOf,

    /**
     * Refuses the order's buyer when its record passed a threshold: per API key first (the sub-customer
     * behind it), then per customer. Raises the operators' alert once per throttled buyer.
     */
    async admit(kind: OrderKind, orderId: number): Promise<void> {
      const order = await buyerOf(kind, orderId);
      if (!order) return;
      const settings = await loadAlertSettings(db);
      const scopes: BuyerScope[] = [
        ...(order.apiKeyId === null ? [] : [{ kind: 'api_key' as const, id: order.apiKeyId }]),
        { kind: 'user', id: order.userId },
      ];
      for (const scope of scopes) {
        const record = await recordOf(scope, settings.buyerWindowMinutes);
        if (!exceeds(record, settings)) continue;
        const now = clock.now();
        await book.raise(conditionOf(scope, record, settings), now);
        const lightensAtMs = (record.oldestAt ?? now).getTime() + settings.buyerWindowMinutes * MINUTE_MS;
        throw fail('buyer_throttled', undefined, {
          retry_after: Math.max(1, Math.ceil((lightensAtMs - now.getTime()) / 1000)),
        });
      }
    },

    /** Resolves the alerts of buyers whose record is back under every threshold. */
    async clearRecovered(): Promise<void> {
      const settings = await loadAlertSettings(db);
      const open = await db.execute(
        sql`select condition_key from operator_alerts where kind = 'buyer_throttled' and resolved_at is null`,
      );
      for (const { condition_key: key } of (open as unknown as { rows: Array<{ condition_key: string }> })
        .rows) {
        const [, scopeKind, id] = key.split(':');
        const scope = { kind: scopeKind, id: Number(id) } as BuyerScope;
        if (!exceeds(await recordOf(scope, settings.buyerWindowMinutes), settings))
          await book.clear(key, clock.now());
      }
    },
  };
}

export type BuyerIsolation = ReturnType<typeof createBuyerIsolation>;
