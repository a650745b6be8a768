import { z } from 'zod';
import { refundReasons } from '../money';
import { DATABASE_ID_MAX, decimalInteger, plainText, validationMessages as say } from '../wire';
import { isoDate, pageQuerySchema, reasonField } from './common';
import { adminLedgerEntrySchema, auditEntrySchema } from './users';

export const adminOrderStatuses = [
  'pending',
  'waiting',
  'received',
  'completed',
  'canceled',
  'expired',
  'failed',
] as const;

/**
 * A filter for support's refunds beside the statuses: such an order is canceled with that reason, and every
 * page of the customer and the console names it "Refunded by support", so the console finds it by that name.
 */
export const REFUNDED_BY_SUPPORT_FILTER = 'refunded_by_support';
export const adminOrderFilterStatuses = [...adminOrderStatuses, REFUNDED_BY_SUPPORT_FILTER] as const;

export const adminOrdersQuerySchema = pageQuerySchema.extend({
  status: z.enum(adminOrderFilterStatuses).optional(),
  service: plainText(20).optional(),
  country: plainText(2).optional(),
  provider: plainText(40).optional(),
  user_id: decimalInteger(1, DATABASE_ID_MAX).optional(),
  /** Bought on or after this day (UTC). */
  from: isoDate.optional(),
  /** Bought on or before this day (UTC). */
  to: isoDate.optional(),
  /** Only orders marked as a problem. */
  problem: z.enum(['true']).optional(),
  /** A phone number (part of it) or an order id. */
  q: plainText(40).optional(),
});

export const adminOrderRowSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  username: z.string(),
  provider: z.string(),
  provider_order_id: z.string().nullable(),
  country_id: z.string(),
  operator: z.string(),
  service: z.string(),
  phone: z.string().nullable(),
  price: z.number(),
  status: z.enum(adminOrderStatuses),
  status_reason: z.string().nullable(),
  /** Why its money came back, the same code the customer's money pages and CSV give. */
  refund_reason: z.enum(refundReasons).nullable(),
  created_at: z.string(),
  code: z.string().nullable(),
  problem_note: z.string().nullable(),
});
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;

export const adminOrdersResponseSchema = z.object({
  success: z.literal(true),
  orders: z.array(adminOrderRowSchema),
  next_before: z.number().nullable(),
});
export type AdminOrdersResponse = z.infer<typeof adminOrdersResponseSchema>;

export const adminOrderDetailResponseSchema = z.object({
  success: z.literal(true),
  order: adminOrderRowSchema,
  /** Every call made to a provider about the order, with its answer, oldest first. */
  upstream: z.array(
    z.object({
      at: z.string(),
      provider: z.string(),
      action: z.string(),
      outcome: z.string(),
      detail: z.string().nullable(),
      latency_ms: z.number().nullable(),
    }),
  ),
  messages: z.array(
    z.object({ received_at: z.string(), code: z.string().nullable(), text: z.string(), late: z.boolean() }),
  ),
  ledger: z.array(adminLedgerEntrySchema),
  audit: z.array(auditEntrySchema),
});
export type AdminOrderDetailResponse = z.infer<typeof adminOrderDetailResponseSchema>;

export const refundRequestSchema = z.object({
  reason: reasonField,
  /** Refund although a code arrived (the code did not work). */
  force: z
    .boolean({ error: () => say.mustBeTrueOrFalse })
    .optional()
    .default(false),
});
export type RefundRequest = z.input<typeof refundRequestSchema>;

export const adminOrderActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  order: adminOrderRowSchema,
});
export type AdminOrderActionResponse = z.infer<typeof adminOrderActionResponseSchema>;
