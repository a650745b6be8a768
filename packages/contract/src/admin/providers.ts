import { z } from 'zod';
import { validationMessages as say } from '../wire';
import { reasonField } from './common';

export const adminProviderSchema = z.object({
  name: z.string(),
  kind: z.string(),
  in_routing: z.boolean(),
  /** In US dollars; null when the provider could not be asked. */
  balance: z.number().nullable(),
  rents: z.boolean(),
  /** SMS this provider delivered after their order or rent had ended (kept for audit, shown and sent nowhere). */
  late_sms: z.number().int(),
  health: z.object({
    calls: z.number(),
    average_latency_ms: z.number().nullable(),
    error_rate: z.number(),
    no_numbers_rate: z.number(),
    delivery_rate: z.number(),
    time_to_code_ms: z.number().nullable(),
    cooling_until: z.string().nullable(),
    /** How many instances' calls are counted (each counts its own; the fresh reports are combined). */
    instances: z.number().int(),
  }),
  recent_errors: z.array(z.object({ at: z.string(), message: z.string() })),
});
export type AdminProvider = z.infer<typeof adminProviderSchema>;

export const adminProvidersResponseSchema = z.object({
  success: z.literal(true),
  providers: z.array(adminProviderSchema),
});
export type AdminProvidersResponse = z.infer<typeof adminProvidersResponseSchema>;

export const providerRoutingRequestSchema = z.object({
  in_routing: z.boolean({ error: () => say.mustBeTrueOrFalse }),
  reason: reasonField,
});
export type ProviderRoutingRequest = z.input<typeof providerRoutingRequestSchema>;
