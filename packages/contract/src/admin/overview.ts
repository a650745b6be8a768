import { z } from 'zod';

export const overviewQuerySchema = z.object({ days: z.enum(['1', '7', '30']).optional().default('7') });

export const overviewFiguresSchema = z.object({
  /** Sales minus refunds, in dollars. */
  revenue: z.number(),
  /** What the providers charged for the numbers sold, in dollars (their listed cost). */
  cost: z.number(),
  margin: z.number(),
  topups: z.number(),
  orders_with_code: z.number(),
  orders_refunded: z.number(),
  orders_canceled: z.number(),
  /** Share of settled orders that got a code, 0 to 1; null without settled orders. */
  delivery_rate: z.number().nullable(),
  median_time_to_code_ms: z.number().nullable(),
  active_users: z.number(),
});
export type OverviewFigures = z.infer<typeof overviewFiguresSchema>;

export const overviewResponseSchema = z.object({
  success: z.literal(true),
  days: z.number(),
  totals: overviewFiguresSchema,
  /** One point per day (UTC), oldest first; per hour for a one-day range. */
  series: z.array(overviewFiguresSchema.extend({ start: z.string() })),
  open_tickets: z.number(),
  providers: z.array(z.object({ name: z.string(), balance: z.number().nullable() })),
});
export type OverviewResponse = z.infer<typeof overviewResponseSchema>;
