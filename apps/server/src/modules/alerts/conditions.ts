import { countryById, type ReconciliationDay, serviceByCode } from '@simcode/contract';
import { and, count, eq, gte, min } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { reconciliationMismatches } from '../../db/schema';
import type { Condition } from './book';
import type { AlertSettings } from './settings';

const DAY_MS = 24 * 60 * 60_000;
const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** What the payment providers' health record says of one provider (modules/payments/health.ts). */
export interface PaymentProviderView {
  name: string;
  up: boolean;
  downSince: Date | null;
  lastError: string | null;
}

export function paymentDownConditions(views: readonly PaymentProviderView[]): Condition[] {
  return views.flatMap((view) =>
    view.up || !view.downSince
      ? []
      : [
          {
            key: `payment_provider_down:${view.name}`,
            kind: 'payment_provider_down' as const,
            summary: `Payment provider ${view.name} is down: it is hidden from the Top Up page until it answers.`,
            // The provider's own sentence: never a secret (the adapters do not put credentials in errors).
            evidence: { provider: view.name, last_error: view.lastError },
            link: '/admin/payments',
            since: view.downSince,
          },
        ],
  );
}

/**
 * Suppliers whose last hour delivers codes well under their 7-day normal, or far more slowly (the status
 * page's band, which says why per supplier); the alert clears when the hour is back in the band.
 */
export function deliveryLowConditions(outOfBand: ReadonlyMap<string, string>, now: Date): Condition[] {
  return [...outOfBand].map(([provider, why]) => ({
    key: `supplier_delivery_low:${provider}`,
    kind: 'supplier_delivery_low' as const,
    summary: `Supplier ${provider} delivers codes worse than usual: ${why}.`,
    evidence: { provider, why },
    link: '/admin/providers',
    since: now,
  }));
}

/**
 * Popular pairs (a service in a country, `tg:US`, with the index's minimum of orders in the last hour)
 * delivering out of their band across the suppliers: a buyer's favourite failing shows here even when no
 * supplier's total moves.
 */
export function pairDeliveryLowConditions(outOfBand: ReadonlyMap<string, string>, now: Date): Condition[] {
  return [...outOfBand].map(([pair, why]) => {
    const [service, country] = pair.split(':') as [string, string];
    const name = `${serviceByCode(service)?.name ?? service} in ${countryById(country)?.name ?? country}`;
    return {
      key: `pair_delivery_low:${pair}`,
      kind: 'pair_delivery_low' as const,
      summary: `${name} delivers codes worse than usual: ${why}.`,
      evidence: { service, country, why },
      link: `/stats/${service}`,
      since: now,
    };
  });
}

/** Supplier-days of the last two days whose leakage share is above the threshold. */
export function leakageConditions(days: readonly ReconciliationDay[], settings: AlertSettings): Condition[] {
  return days.flatMap((day) =>
    day.leakage_cents > 0 && day.leakage_percent > settings.leakageThresholdPercent
      ? [
          {
            key: `reconciliation_leakage:${day.provider}:${day.day}`,
            kind: 'reconciliation_leakage' as const,
            summary: `Supplier ${day.provider} leaked $${(day.leakage_cents / 100).toFixed(2)} (${day.leakage_percent}% of its net cost) on ${day.day}, above the ${settings.leakageThresholdPercent}% threshold.`,
            evidence: {
              provider: day.provider,
              day: day.day,
              leakage_cents: day.leakage_cents,
              leakage_percent: day.leakage_percent,
              mismatches: day.mismatches,
            },
            link: `/admin/reconciliation?from=${day.day}&to=${day.day}&provider=${encodeURIComponent(day.provider)}`,
            since: new Date(`${day.day}T00:00:00Z`),
          },
        ]
      : [],
  );
}

/** The last two days, as the leakage source reads them. */
export function recentDays(now: Date): { from: string; to: string } {
  return { from: dayOf(new Date(now.getTime() - DAY_MS)), to: dayOf(now) };
}

/**
 * Codes the supplier delivered on orders we had already refunded (the reconciliation's open
 * `code_after_refund` mismatches of the last two days), per supplier, at or above the threshold.
 */
export async function lateSmsConditions(
  db: Database,
  settings: AlertSettings,
  now: Date,
): Promise<Condition[]> {
  const { from } = recentDays(now);
  const rows = await db
    .select({
      provider: reconciliationMismatches.provider,
      late: count(),
      since: min(reconciliationMismatches.foundAt),
    })
    .from(reconciliationMismatches)
    .where(
      and(
        eq(reconciliationMismatches.cause, 'code_after_refund'),
        eq(reconciliationMismatches.state, 'open'),
        gte(reconciliationMismatches.day, from),
      ),
    )
    .groupBy(reconciliationMismatches.provider);
  return rows
    .filter((row) => row.late >= settings.lateSmsThreshold)
    .map((row) => ({
      key: `late_sms_after_refund:${row.provider}`,
      kind: 'late_sms_after_refund' as const,
      summary: `Supplier ${row.provider} delivered ${row.late} code(s) on orders already refunded to the customer since ${from}.`,
      evidence: { provider: row.provider, orders: row.late },
      link: `/admin/reconciliation?from=${from}&to=${dayOf(now)}&provider=${encodeURIComponent(row.provider)}`,
      since: row.since ? new Date(row.since) : now,
    }));
}
