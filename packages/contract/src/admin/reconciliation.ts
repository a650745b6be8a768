import { z } from 'zod';
import { reasonField } from './common';

/**
 * The console's reconciliation of what each supplier charged and returned against what our customers paid
 * and were refunded, per supplier and UTC day. Amounts are in cents.
 */

export const mismatchCauseSchema = z.enum([
  'refunded_but_charged',
  'code_after_refund',
  'cancelled_late',
  'charged_without_order',
  'billed_but_returned',
]);
export type MismatchCause = z.infer<typeof mismatchCauseSchema>;

export const mismatchStateSchema = z.enum(['open', 'written_off', 'disputed', 'resolved']);

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'must be a day, YYYY-MM-DD' });

export const reconciliationQuerySchema = z.object({
  from: day,
  to: day,
  provider: z.string().max(64).optional(),
});
export type ReconciliationQuery = z.infer<typeof reconciliationQuerySchema>;

export const reconciliationDaySchema = z.object({
  provider: z.string(),
  day: z.string(),
  /** Numbers the supplier issued to us that day. */
  bought: z.number().int(),
  /** What the supplier charged, and what of it it returned. */
  cost_cents: z.number().int(),
  returned_cents: z.number().int(),
  /** What we refunded our customers for that day's orders. */
  refunded_cents: z.number().int(),
  /** Money lost to disagreements (every cause but `billed_but_returned`), and its share of the net cost. */
  leakage_cents: z.number().int(),
  leakage_percent: z.number(),
  mismatches: z.number().int(),
  /** Whether the supplier's history of the day was read whole; null when the day was not reconciled yet. */
  complete: z.boolean().nullable(),
  /**
   * How the supplier's balance moved over the day (from the last reading before it, else its first in it,
   * to its last in it); null without two readings.
   */
  balance_change_cents: z.number().int().nullable(),
  /**
   * The part of that movement the charges and returns recorded between the two readings do not explain
   * (0 when they match): a top-up of the supplier account, or a charge we have no record of.
   */
  unexplained_cents: z.number().int().nullable(),
});
export type ReconciliationDay = z.infer<typeof reconciliationDaySchema>;

export const reconciliationMismatchSchema = z.object({
  id: z.number().int(),
  provider: z.string(),
  day: z.string(),
  order_kind: z.enum(['activation', 'rent']),
  provider_order_id: z.string(),
  /** Our order, linked in the console; null for a supplier charge no order of ours holds. */
  order_id: z.number().int().nullable(),
  cause: mismatchCauseSchema,
  amount_cents: z.number().int(),
  state: mismatchStateSchema,
  note: z.string().nullable(),
});
export type ReconciliationMismatchView = z.infer<typeof reconciliationMismatchSchema>;

export const reconciliationResponseSchema = z.object({
  success: z.literal(true),
  days: z.array(reconciliationDaySchema),
  mismatches: z.array(reconciliationMismatchSchema),
});
export type ReconciliationResponse = z.infer<typeof reconciliationResponseSchema>;

export const reconciliationRunRequestSchema = z.object({
  day,
  provider: z.string().max(64).optional(),
});

export const reconciliationRunResponseSchema = z.object({
  success: z.literal(true),
  runs: z.array(
    z.object({ provider: z.string(), day: z.string(), complete: z.boolean(), mismatches: z.number().int() }),
  ),
});

export const mismatchActionRequestSchema = z.object({
  action: z.enum(['retry_cancel', 'write_off', 'dispute']),
  reason: reasonField,
});
export type MismatchActionRequest = z.input<typeof mismatchActionRequestSchema>;

export const mismatchActionResponseSchema = z.object({
  success: z.literal(true),
  mismatch: reconciliationMismatchSchema,
});
