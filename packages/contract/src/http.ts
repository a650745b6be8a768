import { z } from 'zod';

/** Every error answer of the API has this body, with the HTTP status telling the class of error. */
export const errorResponseSchema = z.object({
  success: z.literal(false),
  /** A sentence for people. */
  error: z.string(),
  /** A stable machine-readable code (`invalid_request`, `not_found`, `rate_limited`, …) for clients and translations. */
  code: z.string().optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;

export const successResponseSchema = z.object({
  success: z.literal(true),
});

/** Dollars with two decimals on the wire; the server and database work in integer cents. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Money as people read it, from integer cents: 1000000 → '$10,000.00'. Every price and balance shown goes through here. */
export function formatCents(cents: number): string {
  return usd.format(Math.round(cents) / 100);
}
