import { z } from 'zod';
import { plainText, validationMessages as say } from '../wire';
import { dollars, pageQuerySchema, reasonField } from './common';

export const adminUsersQuerySchema = pageQuerySchema.extend({
  /** A username or e-mail (part of it), or a user id. */
  q: plainText(200).optional(),
});

export const adminUserRowSchema = z.object({
  id: z.number(),
  username: z.string(),
  email: z.string(),
  role: z.enum(['user', 'admin']),
  balance: z.number(),
  created_at: z.string(),
  blocked: z.boolean(),
  two_factor: z.boolean(),
});
export type AdminUserRow = z.infer<typeof adminUserRowSchema>;

export const adminUsersResponseSchema = z.object({
  success: z.literal(true),
  users: z.array(adminUserRowSchema),
  next_before: z.number().nullable(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

export const adminSessionSchema = z.object({
  id: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  address: z.string().nullable(),
  user_agent: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

export const adminApiKeySchema = z.object({
  id: z.number(),
  name: z.string(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});

export const adminTicketRowSchema = z.object({
  id: z.number(),
  subject: z.string(),
  status: z.string(),
  created_at: z.string(),
});

export const auditEntrySchema = z.object({
  id: z.number(),
  at: z.string(),
  admin: z.string(),
  action: z.string(),
  object_type: z.string(),
  object_id: z.string(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminUserDetailResponseSchema = z.object({
  success: z.literal(true),
  user: adminUserRowSchema.extend({
    blocked_reason: z.string().nullable(),
    blocked_at: z.string().nullable(),
  }),
  sessions: z.array(adminSessionSchema),
  api_keys: z.array(adminApiKeySchema),
  tickets: z.array(adminTicketRowSchema),
  audit: z.array(auditEntrySchema),
});
export type AdminUserDetailResponse = z.infer<typeof adminUserDetailResponseSchema>;

export const adminLedgerEntrySchema = z.object({
  id: z.number(),
  created_at: z.string(),
  kind: z.string(),
  amount: z.number(),
  balance_after: z.number(),
  reference_type: z.string(),
  reference_id: z.string(),
  note: z.string().nullable(),
});
export type AdminLedgerEntry = z.infer<typeof adminLedgerEntrySchema>;

export const adminLedgerResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(adminLedgerEntrySchema),
  next_before: z.number().nullable(),
});

export const adjustmentRequestSchema = z.object({
  /** Dollars: positive credits, negative debits. */
  amount: dollars,
  reason: reasonField,
  /** The same key applies the adjustment once, however often it is sent (a double click, a retry). */
  idempotency_key: plainText(100).min(8, { error: () => say.minLength(8) }),
});
export type AdjustmentRequest = z.input<typeof adjustmentRequestSchema>;

export const adminReasonRequestSchema = z.object({ reason: reasonField });
/** An action that has a reason of its own unless one is given (support's Close button); no body at all too. */
export const optionalReasonRequestSchema = z.preprocess(
  (body) => body ?? {},
  z.object({ reason: reasonField.optional() }),
);
export type AdminReasonRequest = z.input<typeof adminReasonRequestSchema>;

export const roleRequestSchema = z.object({ role: z.enum(['user', 'admin']), reason: reasonField });
export type RoleRequest = z.input<typeof roleRequestSchema>;

export const adminUserActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user: adminUserRowSchema,
});
export type AdminUserActionResponse = z.infer<typeof adminUserActionResponseSchema>;
