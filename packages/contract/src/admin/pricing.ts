import { z } from 'zod';
import { plainText, validationMessages as say } from '../wire';
import { reasonField } from './common';
import { auditEntrySchema } from './users';

const markupPercent = z
  .number({ error: (issue) => (issue.input === undefined ? say.isRequired : say.mustBeNumber) })
  .min(0, { error: () => say.atLeast(0) })
  .max(1000, { error: () => say.atMost(1000) })
  .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    error: () => say.twoDecimals,
  });

export const markupOverrideSchema = z
  .object({
    /** A service code, or null for every service. */
    service: plainText(20)
      .pipe(z.string().regex(/^[a-z0-9]{1,20}$/, { error: () => say.serviceCode }))
      .nullable(),
    /** A country id (ISO alpha-2), or null for every country. */
    country_id: plainText(2)
      .pipe(z.string().regex(/^[A-Z]{2}$/, { error: () => say.countryCode }))
      .nullable(),
    percent: markupPercent,
  })
  .refine((override) => override.service !== null || override.country_id !== null, {
    error: () => say.serviceOrCountry,
  });
export type MarkupOverride = z.infer<typeof markupOverrideSchema>;

export const pricingRulesSchema = z.object({
  default_percent: markupPercent,
  overrides: z.array(markupOverrideSchema).max(2000, { error: () => say.maxOverrides(2000) }),
});
export type PricingRules = z.infer<typeof pricingRulesSchema>;

export const pricingResponseSchema = z.object({
  success: z.literal(true),
  rules: pricingRulesSchema,
  history: z.array(auditEntrySchema),
});
export type PricingResponse = z.infer<typeof pricingResponseSchema>;

export const pricingUpdateRequestSchema = pricingRulesSchema.extend({ reason: reasonField });
export type PricingUpdateRequest = z.input<typeof pricingUpdateRequestSchema>;

export const pricingPreviewRequestSchema = pricingRulesSchema.extend({
  service: plainText(20).pipe(z.string().regex(/^[a-z0-9]{1,20}$/, { error: () => say.serviceCode })),
});
export type PricingPreviewRequest = z.input<typeof pricingPreviewRequestSchema>;

export const pricingPreviewResponseSchema = z.object({
  success: z.literal(true),
  service: z.string(),
  countries: z.array(
    z.object({
      country_id: z.string(),
      country: z.string(),
      current_price: z.number(),
      new_price: z.number(),
      cost: z.number(),
      stock: z.number(),
    }),
  ),
});
export type PricingPreviewResponse = z.infer<typeof pricingPreviewResponseSchema>;
