import { z } from 'zod';
import { DATABASE_ID_MAX, decimalInteger, plainText } from '../wire';
import { isoDate, pageQuerySchema } from './common';
import { REFUNDED_BY_SUPPORT_FILTER } from './orders';
import { adminLedgerEntrySchema, auditEntrySchema } from './users';

export const adminRentStatuses = ['pending', 'active', 'renewed', 'canceled', 'expired', 'failed'] as const;

export const adminRentFilterStatuses = [...adminRentStatuses, REFUNDED_BY_SUPPORT_FILTER] as const;

export const adminRentsQuerySchema = pageQuerySchema.extend({
  status: z.enum(adminRentFilterStatuses).optional(),
  service: plainText(20).optional(),
  country: plainText(2).optional(),
  provider: plainText(40).optional(),
  user_id: decimalInteger(1, DATABASE_ID_MAX).optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
  /** A phone number (part of it) or a rent id. */
  q: plainText(40).optional(),
});

export const adminRentListRowSchema = z.object({
  id: z.number(),
  provider: z.string(),
  country_id: z.string(),
  service: z.string(),
  phone: z.string().nullable(),
  price: z.number(),
  status: z.string(),
  created_at: z.string(),
  ends_at: z.string().nullable(),
  user_id: z.number(),
  username: z.string(),
  provider_rent_id: z.string().nullable(),
  period: z.string(),
  status_reason: z.string().nullable(),
  /** The first period and every renewal charged, in dollars. */
  charged: z.number(),
});
export type AdminRentListRow = z.infer<typeof adminRentListRowSchema>;

export const adminRentsResponseSchema = z.object({
  success: z.literal(true),
  rents: z.array(adminRentListRowSchema),
  next_before: z.number().nullable(),
});
export type AdminRentsResponse = z.infer<typeof adminRentsResponseSchema>;

export const adminRentDetailResponseSchema = z.object({
  success: z.literal(true),
  rent: adminRentListRowSchema,
  messages: z.array(
    z.object({ received_at: z.string(), sender: z.string(), code: z.string().nullable(), text: z.string() }),
  ),
  renewals: z.array(
    z.object({
      id: z.number(),
      created_at: z.string(),
      hours: z.number(),
      price: z.number(),
      status: z.string(),
      automatic: z.boolean(),
    }),
  ),
  ledger: z.array(adminLedgerEntrySchema),
  audit: z.array(auditEntrySchema),
});
export type AdminRentDetailResponse = z.infer<typeof adminRentDetailResponseSchema>;

export const adminRentActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  rent: adminRentListRowSchema,
});
export type AdminRentActionResponse = z.infer<typeof adminRentActionResponseSchema>;
