import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import type { OrderBuyer } from '../orders/place-order';
import type { AlertBook, Condition } from './book';
import { type AlertSettings, DEFAULT_ALERT_SETTINGS } from './settings';

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

type Count = number | string;
interface RecordsRow {
  settings: Partial<AlertSettings> | null;
  cancels: Count;
  no_code: Count;
  early: Count;
  oldest: Date | string | null;
  key_cancels: Count;
  key_no_code: Count;
  key_early: Count;
  key_oldest: Date | string | null;
}

function whoFilter(scope: BuyerScope, table: 'a' | 'r'): SQL {
  return scope.kind === 'user'
    ? sql`${sql.raw(table)}.user_id = ${scope.id}`
    : sql`${sql.raw(table)}.api_key_id = ${scope.id}`;
}

const recordFrom = (cancels: Count, noCode: Count, early: Count, oldest: Date | string | null) => ({
  cancels: Number(cancels),
  noCode: Number(noCode),
  earlyCancelRefusals: Number(early),
  oldestAt: oldest === null ? null : new Date(oldest),
});

/**
 * Abusive-buyer isolation: one place (the orders kernel's placeOrder asks it before any supplier is)
 * decides whether a buyer's recent cancels, orders without a code and cancels refused as too early passed
 * the operator's thresholds. Such a buyer's purchases are refused (`buyer_throttled`, 429 with
 * `retry_after`) until the window lightens, and the operators get one alert with the evidence; other
 * buyers are not looked at. Activations and rents count alike (a supplier rates down a cancelled rent as
 * it does a cancelled number); an ended rent is no order without a code, so only activations count there.
 */
export function createBuyerIsolation({ db, clock, book }: { db: Database; clock: Clock; book: AlertBook }) {
  /**
   * The settings in force and the record of `scope` over their window, with the record of one API key
   * among its orders when `apiKeyId` is given: one statement, since every purchase asks before any
   * supplier is (a key's orders are its customer's too, so the customer's rows hold both).
   */
  async function recordsOf(
    scope: BuyerScope,
    apiKeyId: number | null = null,
  ): Promise<{ settings: AlertSettings; record: BuyerRecord; keyRecord: BuyerRecord }> {
    const result = (await db.execute(sql`
      with settings as (select settings from alert_settings where id = 1),
      since as (
        select ${clock.now()}::timestamptz - make_interval(mins => coalesce(
          (select (settings->>'buyerWindowMinutes')::int from settings),
          ${DEFAULT_ALERT_SETTINGS.buyerWindowMinutes}
        )) as at
      ),
      counted as (
        select a.updated_at as at, a.api_key_id as key, a.status = 'canceled' as cancel,
          a.status = 'expired' as no_code, false as early
        from activations a
        where ${whoFilter(scope, 'a')} and a.updated_at >= (select at from since)
          and ((a.status = 'canceled' and a.status_reason = 'canceled_by_user') or a.status = 'expired')
        union all
        select r.updated_at, r.api_key_id, true, false, false
        from rents r
        where ${whoFilter(scope, 'r')} and r.updated_at >= (select at from since)
          and r.status = 'canceled' and r.status_reason = 'canceled_by_user'
        union all
        select e.at, a.api_key_id, false, false, true
        from order_events e join activations a on a.id = e.order_id
        where e.order_kind = 'activation' and ${whoFilter(scope, 'a')} and e.at >= (select at from since)
          and e.action = 'cancel' and e.outcome <> 'ok'
        union all
        select e.at, r.api_key_id, false, false, true
        from order_events e join rents r on r.id = e.order_id
        where e.order_kind = 'rent' and ${whoFilter(scope, 'r')} and e.at >= (select at from since)
          and e.action = 'cancel' and e.outcome <> 'ok'
      )
      select (select settings from settings) as settings,
        count(*) filter (where cancel) as cancels, count(*) filter (where no_code) as no_code,
        count(*) filter (where early) as early, min(at) as oldest,
        count(*) filter (where cancel and key = ${apiKeyId}) as key_cancels,
        count(*) filter (where no_code and key = ${apiKeyId}) as key_no_code,
        count(*) filter (where early and key = ${apiKeyId}) as key_early,
        min(at) filter (where key = ${apiKeyId}) as key_oldest
      from counted
    `)) as unknown as { rows: RecordsRow[] };
    const row = result.rows[0]!;
    return {
      settings: { ...DEFAULT_ALERT_SETTINGS, ...row.settings },
      record: recordFrom(row.cancels, row.no_code, row.early, row.oldest),
      keyRecord: recordFrom(row.key_cancels, row.key_no_code, row.key_early, row.key_oldest),
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

  return {
    /**
     * Refuses a buyer whose record passed a threshold: the API key the order goes through first (the
     * sub-customer behind it), then the customer. Raises the operators' alert once per throttled buyer.
     */
    async admit(buyer: OrderBuyer): Promise<void> {
      const { settings, record, keyRecord } = await recordsOf(
        { kind: 'user', id: buyer.userId },
        buyer.apiKeyId,
      );
      const scopes: Array<[BuyerScope, BuyerRecord]> = [[{ kind: 'user', id: buyer.userId }, record]];
      if (buyer.apiKeyId !== null) scopes.unshift([{ kind: 'api_key', id: buyer.apiKeyId }, keyRecord]);
      const throttled = scopes.find(([, counted]) => exceeds(counted, settings));
      if (!throttled) return;
      const [scope, counted] = throttled;
      const now = clock.now();
      await book.raise(conditionOf(scope, counted, settings), now);
      const lightensAtMs = (counted.oldestAt ?? now).getTime() + settings.buyerWindowMinutes * MINUTE_MS;
      throw fail('buyer_throttled', undefined, {
        retry_after: Math.max(1, Math.ceil((lightensAtMs - now.getTime()) / 1000)),
      });
    },

    /** Resolves the alerts of buyers whose record is back under every threshold. */
    async clearRecovered(): Promise<void> {
      const open = await db.execute(
        sql`select condition_key from operator_alerts where kind = 'buyer_throttled' and resolved_at is null`,
      );
      for (const { condition_key: key } of (open as unknown as { rows: Array<{ condition_key: string }> })
        .rows) {
        const [, scopeKind, id] = key.split(':');
        const scope = { kind: scopeKind, id: Number(id) } as BuyerScope;
        const { settings, record } = await recordsOf(scope);
        if (!exceeds(record, settings)) await book.clear(key, clock.now());
      }
    },
  };
}

export type BuyerIsolation = ReturnType<typeof createBuyerIsolation>;
