import type {
  MismatchActionRequest,
  ReconciliationDay,
  ReconciliationMismatchView,
  ReconciliationQuery,
} from '@simcode/contract';
import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Database, queryRows } from '../../db/client';
import { type ReconciliationMismatch, reconciliationMismatches } from '../../db/schema';
import type { CallBudget } from '../../lib/call-budget';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import type { ProviderPool } from '../../providers/sms/pool';
import { type Actor, recordAudit } from '../admin/audit';
import { computeBusinessHours } from '../admin/overview/rollup';
import { type OrderHistory, recordedCall } from '../orders/history';
import { asUserFailure } from '../orders/upstream-failure';
import { dayBounds, dayOf, LEAKING_CAUSES, type ReconcileResult, reconcileDay } from './reconcile';

const DAY_MS = 24 * 60 * 60_000;
/** The console shows at most this many days at once. */
const MAX_DAYS = 93;

export interface ReconciliationDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  providers: ProviderPool;
  upstreamBudgets: ReadonlyMap<string, CallBudget>;
  history: OrderHistory;
}

function present(row: ReconciliationMismatch): ReconciliationMismatchView {
  return {
    id: row.id,
    provider: row.provider,
    day: row.day,
    order_kind: row.orderKind,
    provider_order_id: row.providerOrderId,
    order_id: row.orderId,
    cause: row.cause,
    amount_cents: row.amountCents,
    state: row.state,
    note: row.note,
  };
}

/** A CSV field: quoted when it holds a separator, a quote or a line break (RFC 4180). */
function csvField(value: string | number | null): string {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function createReconciliationService(deps: ReconciliationDeps) {
  const { db, clock, providers } = deps;

  function range(query: ReconciliationQuery): { fromMs: number; toMs: number } {
    const fromMs = dayBounds(query.from).startMs;
    const toMs = dayBounds(query.to).endMs;
    if (!(toMs > fromMs) || toMs - fromMs > MAX_DAYS * DAY_MS) throw fail('invalid_request');
    return { fromMs, toMs };
  }

  async function mismatchRows(query: ReconciliationQuery): Promise<ReconciliationMismatch[]> {
    range(query);
    return db
      .select()
      .from(reconciliationMismatches)
      .where(
        and(
          gte(reconciliationMismatches.day, query.from),
          lte(reconciliationMismatches.day, query.to),
          query.provider ? eq(reconciliationMismatches.provider, query.provider) : undefined,
        ),
      )
      .orderBy(asc(reconciliationMismatches.day), asc(reconciliationMismatches.id));
  }

  /**
   * Per supplier and day: numbers bought and rented, what the supplier charged and returned (its answers
   * and history), what our customers were refunded, the leakage the mismatches add up to, and how its
   * balance moved against what it kept between the day's readings.
   */
  async function days(query: ReconciliationQuery): Promise<ReconciliationDay[]> {
    const { fromMs, toMs } = range(query);
    const rows = await queryRows<{
      provider: string;
      day: string;
      bought: number;
      cost: string;
      returned: string;
      refunded: string;
      leakage: string;
      mismatches: number;
      complete: boolean | null;
      balance_change: string | null;
      kept_between_readings: string | null;
    }>(
      db,
      sql`with orders as (
            select a.provider, a.created_at, a.price_cents,
              a.status in ('canceled', 'expired', 'failed') as refunded
            from activations a
            where a.provider_activation_id is not null
              and a.created_at >= ${new Date(fromMs)} and a.created_at < ${new Date(toMs)}
            union all
            -- A rent is refunded whole when cancelled; its renewals are charged and refunded on their own.
            select r.provider, r.created_at, r.price_cents, r.status = 'canceled' as refunded
            from rents r
            where r.provider_rent_id is not null
              and r.created_at >= ${new Date(fromMs)} and r.created_at < ${new Date(toMs)}),
          bought as (
            select provider, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as bought,
              sum(case when refunded then price_cents else 0 end) as refunded
            from orders
            group by 1, 2),
          charged as (
            select provider, to_char(bought_at at time zone 'UTC', 'YYYY-MM-DD') as day,
              sum(coalesce(charged_cents, 0)) as cost, sum(returned_cents) as returned
            from supplier_charges
            where bought_at >= ${new Date(fromMs)} and bought_at < ${new Date(toMs)}
            group by 1, 2),
          found as (
            select provider, to_char(day, 'YYYY-MM-DD') as day, count(*)::int as mismatches,
              sum(case when cause in ${LEAKING_CAUSES} then amount_cents else 0 end) as leakage
            from reconciliation_mismatches
            where day >= ${query.from} and day <= ${query.to}
            group by 1, 2),
          keys as (select provider, day from bought union select provider, day from charged
            union select provider, day from found),
          -- The supplier's balance over the day: from the last reading before it (else its first in it) to
          -- its last in it, and what the supplier kept for the orders bought between the two readings.
          bounds as (
            select k.provider, k.day, (k.day || 'T00:00:00Z')::timestamptz as starts_at,
              (k.day || 'T00:00:00Z')::timestamptz + interval '1 day' as ends_at
            from keys k),
          balance as (
            select d.provider, d.day,
              coalesce(before.balance_cents, first_in.balance_cents) as opening_cents,
              coalesce(before.read_at, first_in.read_at) as opening_at,
              last_in.balance_cents as closing_cents, last_in.read_at as closing_at
            from bounds d
            left join lateral (select balance_cents, read_at from supplier_balance_readings s
              where s.provider = d.provider and s.read_at <= d.starts_at
              order by s.read_at desc, s.id desc limit 1) before on true
            left join lateral (select balance_cents, read_at from supplier_balance_readings s
              where s.provider = d.provider and s.read_at >= d.starts_at and s.read_at < d.ends_at
              order by s.read_at, s.id limit 1) first_in on true
            left join lateral (select balance_cents, read_at from supplier_balance_readings s
              where s.provider = d.provider and s.read_at < d.ends_at
              order by s.read_at desc, s.id desc limit 1) last_in on true),
          movement as (
            select m.provider, m.day, m.closing_cents - m.opening_cents as change,
              (select coalesce(sum(coalesce(c.charged_cents, 0) - c.returned_cents), 0) from supplier_charges c
                where c.provider = m.provider and c.bought_at >= m.opening_at
                  and c.bought_at < m.closing_at) as kept
            from balance m
            where m.closing_at > m.opening_at)
          select k.provider, k.day, coalesce(b.bought, 0) as bought, coalesce(c.cost, 0)::text as cost,
            coalesce(c.returned, 0)::text as returned, coalesce(b.refunded, 0)::text as refunded,
            coalesce(f.leakage, 0)::text as leakage, coalesce(f.mismatches, 0) as mismatches, r.complete,
            m.change::text as balance_change, m.kept::text as kept_between_readings
          from keys k
          left join bought b on b.provider = k.provider and b.day = k.day
          left join charged c on c.provider = k.provider and c.day = k.day
          left join found f on f.provider = k.provider and f.day = k.day
          left join movement m on m.provider = k.provider and m.day = k.day
          left join reconciliation_days r on r.provider = k.provider and to_char(r.day, 'YYYY-MM-DD') = k.day
          ${query.provider ? sql`where k.provider = ${query.provider}` : sql``}
          order by k.day desc, k.provider`,
    );
    return rows.map((row) => {
      const costCents = Number(row.cost) - Number(row.returned);
      const leakageCents = Number(row.leakage);
      return {
        provider: row.provider,
        day: row.day,
        bought: Number(row.bought),
        cost_cents: Number(row.cost),
        returned_cents: Number(row.returned),
        refunded_cents: Number(row.refunded),
        leakage_cents: leakageCents,
        leakage_percent: costCents > 0 ? Math.round((leakageCents / costCents) * 10_000) / 100 : 0,
        mismatches: Number(row.mismatches),
        complete: row.complete,
        balance_change_cents: row.balance_change === null ? null : Number(row.balance_change),
        // What the balance moved by that the recorded charges and returns do not explain: a top-up of the
        // supplier account, or a charge we have no record of.
        unexplained_cents:
          row.balance_change === null ? null : Number(row.balance_change) + Number(row.kept_between_readings),
      };
    });
  }

  /**
   * Reconciles one supplier's day, then recomputes the overview's hours of that day: its margin uses what
   * the suppliers kept from then on.
   */
  async function reconcile(
    member: (typeof providers.members)[number],
    day: string,
  ): Promise<ReconcileResult> {
    const result = await reconcileDay(deps, member, deps.upstreamBudgets.get(member.name)!, day);
    const { startMs, endMs } = dayBounds(day);
    await computeBusinessHours(db, providers, new Date(startMs), new Date(endMs), clock.now());
    return result;
  }

  async function mismatch(id: number): Promise<ReconciliationMismatch> {
    const [row] = await db.select().from(reconciliationMismatches).where(eq(reconciliationMismatches.id, id));
    if (!row) throw fail('not_found');
    return row;
  }

  return {
    async report(query: ReconciliationQuery) {
      return { days: await days(query), mismatches: (await mismatchRows(query)).map(present) };
    },

    /** The mismatches of the range as a CSV file, a line each. */
    async csv(query: ReconciliationQuery): Promise<string> {
      const header = 'id,provider,day,order_kind,provider_order_id,order_id,cause,amount_usd,state,note';
      const lines = (await mismatchRows(query)).map((row) =>
        [
          row.id,
          row.provider,
          row.day,
          row.orderKind,
          row.providerOrderId,
          row.orderId,
          row.cause,
          (row.amountCents / 100).toFixed(2),
          row.state,
          row.note,
        ]
          .map(csvField)
          .join(','),
      );
      return `${[header, ...lines].join('\r\n')}\r\n`;
    },

    /** Reconciles `day` for one supplier or all, now (the console's button, and the nightly job). */
    async run(day: string, provider?: string): Promise<ReconcileResult[]> {
      const members = providers.members.filter(
        (member) => provider === undefined || member.name === provider,
      );
      if (members.length === 0) throw fail('not_found');
      const results: ReconcileResult[] = [];
      for (const member of members) {
        results.push(await reconcile(member, day));
      }
      return results;
    },

    /**
     * The nightly run: yesterday for every supplier until its history was read whole, and the day before
     * when it was not (the budget ran out, the supplier failed).
     */
    async runDue(): Promise<void> {
      const nowMs = clock.now().getTime();
      const due = [dayOf(new Date(nowMs - 2 * DAY_MS)), dayOf(new Date(nowMs - DAY_MS))];
      for (const day of due) {
        const done = await queryRows<{ provider: string }>(
          db,
          sql`select provider from reconciliation_days where day = ${day} and complete`,
        );
        const finished = new Set(done.map((row) => row.provider));
        for (const member of providers.members) {
          if (finished.has(member.name)) continue;
          await reconcile(member, day).catch((error: unknown) =>
            deps.log.warn({ err: error, provider: member.name, day }, 'supplier reconciliation failed'),
          );
        }
      }
    },

    /**
     * An administrator's action on a mismatch, audited with the change: cancel the supplier's order again
     * (resolved when the supplier gives its charge back), write it off, or open a dispute note.
     */
    async act(actor: Actor, id: number, request: MismatchActionRequest): Promise<ReconciliationMismatchView> {
      const before = await mismatch(id);
      if (request.action === 'retry_cancel') {
        if (!providers.has(before.provider)) throw fail('not_found');
        // A cancel is written to an order's history: a charge no order of ours holds has none to retry under.
        if (before.orderId === null) throw fail('no_upstream_number');
        const order = { kind: before.orderKind, id: before.orderId, provider: before.provider };
        try {
          await recordedCall(deps, order, 'cancel', () =>
            order.kind === 'rent'
              ? providers.rentsOf(order.provider).cancelRent(before.providerOrderId)
              : providers.get(order.provider).cancelActivation(before.providerOrderId),
          );
        } catch (error) {
          throw asUserFailure(error);
        }
      }
      const state =
        request.action === 'retry_cancel'
          ? 'resolved'
          : request.action === 'write_off'
            ? 'written_off'
            : 'disputed';
      const now = clock.now();
      return db.transaction(async (tx) => {
        const [after] = await tx
          .update(reconciliationMismatches)
          .set({ state, note: request.reason, updatedAt: now })
          .where(eq(reconciliationMismatches.id, id))
          .returning();
        await recordAudit(
          tx,
          actor,
          {
            action: `mismatch_${request.action}`,
            objectType: 'mismatch',
            objectId: id,
            before: { state: before.state, note: before.note },
            after: { state, note: request.reason },
            reason: request.reason,
          },
          now,
        );
        return present(after!);
      });
    },
  };
}

export type ReconciliationService = ReturnType<typeof createReconciliationService>;
