import { z } from 'zod';
import { DATABASE_ID_MAX, decimalInteger, plainText, validationMessages as say } from '../wire';
import { dollars, pageQuerySchema, reasonField } from './common';
import { adminLedgerEntrySchema, auditEntrySchema } from './users';

export const adminPaymentsQuerySchema = pageQuerySchema.extend({
  status: plainText(40).optional(),
  user_id: decimalInteger(1, DATABASE_ID_MAX).optional(),
  /** An order id or the provider's invoice id (part of it). */
  q: plainText(100).optional(),
});

export const adminPaymentRowSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  username: z.string(),
  order_id: z.string(),
  provider: z.string(),
  provider_payment_id: z.string().nullable(),
  provider_status: z.string().nullable(),
  amount: z.number(),
  credited: z.number().nullable(),
  status: z.string(),
  created_at: z.string(),
});
export type AdminPaymentRow = z.infer<typeof adminPaymentRowSchema>;

export const adminPaymentsResponseSchema = z.object({
  success: z.literal(true),
  payments: z.array(adminPaymentRowSchema),
  next_before: z.number().nullable(),
});

export const adminPaymentDetailResponseSchema = z.object({
  success: z.literal(true),
  payment: adminPaymentRowSchema,
  /** Every authenticated webhook and payment-info answer, as received. */
  events: z.array(
    z.object({
      received_at: z.string(),
      source: z.string(),
      status: z.string(),
      amount: z.number().nullable(),
      paid_amount_usd: z.number().nullable(),
      raw_body: z.string().nullable(),
    }),
  ),
  ledger: z.array(adminLedgerEntrySchema),
  audit: z.array(auditEntrySchema),
});
export type AdminPaymentDetailResponse = z.infer<typeof adminPaymentDetailResponseSchema>;

export const paymentCreditRequestSchema = z.object({
  amount: dollars.refine((value) => value > 0, { error: () => say.moreThanZero }),
  reason: reasonField,
});
export type PaymentCreditRequest = z.input<typeof paymentCreditRequestSchema>;

export const adminPaymentActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  payment: adminPaymentRowSchema,
});

/** Each configured payment provider and whether it answers now (as this server instance sees it). */
export const adminPaymentProvidersResponseSchema = z.object({
  success: z.literal(true),
  providers: z.array(
    z.object({
      name: z.string(),
      kind: z.string(),
      up: z.boolean(),
      /** ISO time it went down; null while up. */
      down_since: z.string().nullable(),
      /** The last failure's message, for operators. */
      last_error: z.string().nullable(),
      /** The last failure's kind: unavailable, configuration, or unexpected (a bug in reading an answer). */
      last_error_code: z.string().nullable(),
      /** Whether it gives users permanent deposit addresses (Cryptomus kind). */
      deposit_addresses: z.boolean(),
      /**
       * The merchant's balance at the processor per coin that holds anything, amounts as decimal text in
       * the coin as the processor states them; null while it is down or cannot say.
       */
      balances: z.array(z.object({ currency: z.string(), amount: z.string() })).nullable(),
      /** Since midnight UTC: payments opened (invoices and deposits), how many were credited, and how much. */
      today: z.object({ payments: z.number(), credited: z.number(), credited_amount: z.number() }),
    }),
  ),
});
export type AdminPaymentProvidersResponse = z.infer<typeof adminPaymentProvidersResponseSchema>;
