import { z } from 'zod';
import { plainText } from '../wire';
import { longPageQuerySchema } from './common';
import { auditEntrySchema } from './users';

export const auditQuerySchema = longPageQuerySchema.extend({
  /** An administrator's name, an action or a reason (part of it). */
  q: plainText(200).optional(),
  object_type: plainText(20).optional(),
  object_id: plainText(100).optional(),
});

export const auditResponseSchema = z.object({
  success: z.literal(true),
  entries: z.array(auditEntrySchema),
  next_before: z.number().nullable(),
});
export type AuditResponse = z.infer<typeof auditResponseSchema>;
