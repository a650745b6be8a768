import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type Executor, queryRows } from '../../db/client';
import {
  type MismatchCause,
  reconciliationDays,
  reconciliationMismatches,
  supplierCharges,
} from '../../db/schema';
import type { CallBudget } from '../../lib/call-budget';
import type { Clock } from '../../lib/clock';
import type { PoolMember } from '../../providers/sms/pool';
import type { RecentActivation } from '../../providers/sms/types';
import { supplierCents } from './charges';

const DAY_MS = 24 * 60 * 60_000;
/** The budget's owner name: the reconciliation's history pages count against the supplier's call budget. */
export const RECONCILIATION_BUDGET_OWNER = 'reconciliation';
/** A day's history is read this many pages at most per run; what is left is read by the next run. */
const MAX_HISTORY_PAGES = 50;

/** Refusals of a cancel that leave the number billed: too early, or a code already came. */
const REFUSED_CANCEL_TOKENS = ['EARLY_CANCEL_DENIED', 'BAD_STATUS', 'OTP_RECEIVED', 'CANT_CANCEL'];

/** Causes that are money lost; `billed_but_returned` is a gain and not counted as leakage. */
export const LEAKING_CAUSES: readonly MismatchCause[] = [
  'refunded_but_charged',
  'code_after_refund',
  'cancelled_late',
  'charged_without_order',
];

/** `2026-11-26` → the UTC day's bounds in ms. */
export function dayBounds(day: string): { startMs: number; endMs: number } {
  const startMs = Date.parse(`${day}T00:00:00.000Z`);
  return { startMs, endMs: startMs + DAY_MS };
}

export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

export interface ReconcileDeps {
  db: Executor;
  clock: Clock;
  log: FastifyBaseLogger;
}

export interface ReconcileResult {
  provider: string;
  day: string;
  /** Whether the supplier's history of the day was read whole (false: out of budget, or it has none). */
  complete: boolean;
  mismatches: number;
}

/**
 * Reads the supplier's history of the activations bought on `day`, newest first, a page per budgeted call,
 * and writes what each one cost us into `supplier_charges` (the supplier's word wins over the purchase's
 * answer). Returns whether every page was read.
 */
async function readHistory(
  deps: ReconcileDeps,
  member: PoolMember,
  budget: CallBudget,
  day: string,
): Promise<boolean> {
  const { provider } = member;
  if (!provider.listRecentActivations) return false;
  const { startMs, endMs } = dayBounds(day);
  const items: RecentActivation[] = [];
  for (let page = 0; page < MAX_HISTORY_PAGES; page += 1) {
    if (!budget.tryTake(RECONCILIATION_BUDGET_OWNER)) return false;
    const answer = await provider.listRecentActivations(startMs, page);
    items.push(...answer.items);
    if (!answer.hasMore) break;
    if (page === MAX_HISTORY_PAGES - 1) return false;
  }
  const now = deps.clock.now();
  for (const item of items) {
    const boughtAtMs = item.activatedAt?.getTime();
    if (boughtAtMs === undefined || boughtAtMs < startMs || boughtAtMs >= endMs) continue;
    await recordListed(deps.db, member, item, now);
  }
  return true;
}

/** One activation as the supplier's history lists it: live, billed (it kept `cost`) or returned. */
async function recordListed(db: Executor, member: PoolMember, item: RecentActivation, now: Date) {
  const closed = item.state.kind === 'cancelled' || item.state.kind === 'finished';
  const keptCents = item.cost === undefined ? undefined : supplierCents(item.cost, member.usdRate);
  const billed = closed && keptCents !== undefined && keptCents > 0;
  const state = !closed || keptCents === undefined ? 'live' : billed ? 'billed' : 'returned';
  const hasCode = item.messages.length > 0;
  const orderId = sql`(select id from activations where provider = ${member.name}
    and provider_activation_id = ${item.activationId})`;
  await db
    .insert(supplierCharges)
    .values({
      provider: member.name,
      orderKind: 'activation',
      providerOrderId: item.activationId,
      orderId,
      boughtAt: item.activatedAt!,
      chargedCents: billed ? keptCents : null,
      returnedCents: 0,
      state,
      hasCode,
      source: 'history',
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: [supplierCharges.provider, supplierCharges.orderKind, supplierCharges.providerOrderId],
      // A live listing says nothing new about money; a closed one is the supplier's last word.
      set:
        state === 'live'
          ? { updatedAt: now }
          : billed
            ? { state, hasCode, chargedCents: keptCents, returnedCents: 0, source: 'history', updatedAt: now }
            : {
                state,
                hasCode,
                returnedCents: sql`coalesce(${supplierCharges.chargedCents}, 0)`,
                source: 'history',
                updatedAt: now,
              },
    });
}

export interface ChargeRow {
  provider_order_id: string;
  order_id: number | null;
  kept_cents: string;
  returned_cents: string;
  supplier_state: 'billed' | 'returned';
  order_status: string | null;
  late_code: boolean;
  cancel_refused: boolean;
}

/** What a closed supplier order and our order of it disagree on, if anything. */
export function mismatchOf(row: ChargeRow): { cause: MismatchCause; amountCents: number } | undefined {
  const keptCents = Number(row.kept_cents);
  if (row.order_id === null) {
    return keptCents > 0 ? { cause: 'charged_without_order', amountCents: keptCents } : undefined;
  }
  const refunded = ['canceled', 'expired', 'failed'].includes(row.order_status ?? '');
  if (refunded && keptCents > 0) {
    const cause = row.late_code
      ? 'code_after_refund'
      : row.cancel_refused
        ? 'cancelled_late'
        : 'refunded_but_charged';
    return { cause, amountCents: keptCents };
  }
  const billedToCustomer = row.order_status === 'completed' || row.order_status === 'received';
  const returnedCents = Number(row.returned_cents);
  if (billedToCustomer && row.supplier_state === 'returned' && returnedCents > 0) {
    return { cause: 'billed_but_returned', amountCents: returnedCents };
  }
  return undefined;
}

/**
 * Reconciles one supplier's day: its history read within its call budget, then every closed supplier order
 * of the day matched with ours, and every rent refunded to its customer with what the supplier gave back. Each disagreement is a row with its cause and amount; a rerun updates them,
 * and drops the open ones that no longer disagree (an administrator's write-off or dispute stays).
 */
export async function reconcileDay(
  deps: ReconcileDeps,
  member: PoolMember,
  budget: CallBudget,
  day: string,
): Promise<ReconcileResult> {
  let complete = false;
  try {
    complete = await readHistory(deps, member, budget, day);
  } catch (error) {
    deps.log.warn({ err: error, provider: member.name, day }, 'could not read the supplier history');
  }
  const { startMs, endMs } = dayBounds(day);
  const rows = await queryRows<ChargeRow>(
    deps.db,
    sql`select c.provider_order_id, c.order_id,
          (coalesce(c.charged_cents, 0) - c.returned_cents)::text as kept_cents,
          c.returned_cents::text as returned_cents, c.state as supplier_state, a.status as order_status,
          (c.state = 'billed' and (c.has_code or exists (select 1 from activation_messages m
             where m.activation_id = a.id and m.late))) as late_code,
          exists (select 1 from order_events e where e.order_kind = 'activation' and e.order_id = a.id
             and e.action = 'cancel' and e.outcome in ${REFUSED_CANCEL_TOKENS}) as cancel_refused
        from supplier_charges c
        left join activations a on a.id = c.order_id
        where c.provider = ${member.name} and c.order_kind = 'activation' and c.state <> 'live'
          and c.bought_at >= ${new Date(startMs)} and c.bought_at < ${new Date(endMs)}`,
  );
  // A rent the customer got back while its supplier kept what it charged (its cancel was never
  // acknowledged). Rents have no supplier history to read: their charges are what the answers said.
  const rentRows = await queryRows<{ provider_order_id: string; order_id: number; kept_cents: string }>(
    deps.db,
    sql`select c.provider_order_id, c.order_id,
          (coalesce(c.charged_cents, 0) - c.returned_cents)::text as kept_cents
        from supplier_charges c
        join rents r on r.id = c.order_id
        where c.provider = ${member.name} and c.order_kind = 'rent' and r.status = 'canceled'
          and c.bought_at >= ${new Date(startMs)} and c.bought_at < ${new Date(endMs)}`,
  );
  const now = deps.clock.now();
  const found = new Set<string>();
  const disagreements = [
    ...rows.map((row) => ({ kind: 'activation' as const, row, mismatch: mismatchOf(row) })),
    ...rentRows.map((row) => ({
      kind: 'rent' as const,
      row,
      mismatch:
        Number(row.kept_cents) > 0
          ? { cause: 'refunded_but_charged' as const, amountCents: Number(row.kept_cents) }
          : undefined,
    })),
  ];
  for (const { kind, row, mismatch } of disagreements) {
    if (!mismatch) continue;
    found.add(`${kind}:${row.provider_order_id}`);
    await deps.db
      .insert(reconciliationMismatches)
      .values({
        provider: member.name,
        day,
        orderKind: kind,
        providerOrderId: row.provider_order_id,
        orderId: row.order_id,
        cause: mismatch.cause,
        amountCents: mismatch.amountCents,
        foundAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [
          reconciliationMismatches.provider,
          reconciliationMismatches.orderKind,
          reconciliationMismatches.providerOrderId,
        ],
        set: {
          cause: mismatch.cause,
          amountCents: mismatch.amountCents,
          orderId: row.order_id,
          updatedAt: now,
        },
      });
  }
  const open = await queryRows<{ id: number; order_kind: string; provider_order_id: string }>(
    deps.db,
    sql`select id, order_kind, provider_order_id from reconciliation_mismatches
        where provider = ${member.name} and day = ${day} and state = 'open'`,
  );
  for (const row of open) {
    if (!found.has(`${row.order_kind}:${row.provider_order_id}`))
      await deps.db.execute(sql`delete from reconciliation_mismatches where id = ${row.id}`);
  }
  await deps.db
    .insert(reconciliationDays)
    .values({ provider: member.name, day, complete, ranAt: now })
    .onConflictDoUpdate({
      target: [reconciliationDays.provider, reconciliationDays.day],
      set: { complete, ranAt: now },
    });
  return { provider: member.name, day, complete, mismatches: found.size };
}
