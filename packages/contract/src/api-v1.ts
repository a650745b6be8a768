import { z } from 'zod';
import { purchasedNumberSchema } from './dashboard';
import { ledgerEntrySchema } from './money';
import { parseRentPeriod, rentSchema } from './rentals';
import { decimalInteger, plainText, validationMessages as say } from './wire';

/**
 * The JSON API for bots and agents, `/api/v1`, described by OpenAPI 3.1 at `/api/v1/openapi.json`. The same
 * keys, caps, orders and ledger as the SMS-Activate protocol; writes take an `Idempotency-Key` header, lists
 * page with an opaque `cursor`, and errors are RFC 9457 problem details. Countries and services may be named
 * as people write them ('Israel', 'Telegram') or by code ('IL', 'tg').
 */

export const API_V1_PREFIX = '/api/v1';
/** Longest a long-poll for a code holds the request, in seconds. */
export const API_V1_MAX_WAIT_SECONDS = 60;
export const API_V1_PAGE_MAX = 100;
export const API_V1_PAGE_DEFAULT = 20;
/** Countries one purchase may name, tried in the order given. */
export const API_V1_MAX_COUNTRIES = 10;

const countryName = plainText(60).describe(
  'A country as people write it ("Israel", "UK") or its ISO code ("IL").',
);
const serviceName = plainText(60).describe(
  'A service as people write it ("Telegram", "Gmail") or its code ("tg").',
);
const dollars = z
  .number({ error: () => say.mustBeNumber })
  .positive({ error: () => say.moreThan(0) })
  .max(1000, { error: () => say.atMost(1000) });

export const apiV1PageQuerySchema = z.object({
  limit: decimalInteger(1, API_V1_PAGE_MAX).optional().default(API_V1_PAGE_DEFAULT),
  cursor: plainText(64).optional().describe('The `next_cursor` of the previous page.'),
});

/** Lists: a page of `data`, and the cursor of the next page (null on the last). */
function pageOf<Item extends z.ZodType>(item: Item) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

/**
 * A buyer's minimum delivery rate, 0 to 1 (issue 30): the same floor as an API key's, for one call. An
 * offer whose rate rests on too few settled orders ("new") is not below it.
 */
const deliveryRateFloor = z.coerce
  .number({ error: () => say.mustBeNumber })
  .min(0, { error: () => say.atLeast(0) })
  .max(1, { error: () => say.atMost(1) });

export const apiV1OffersQuerySchema = z.object({
  country: countryName.optional(),
  service: serviceName.optional(),
  min_delivery_rate: deliveryRateFloor
    .optional()
    .describe('Leave out offers whose delivery rate is known and below this share (0 to 1).'),
});

export const apiV1OfferSchema = z.object({
  country: z.string().describe('ISO 3166 alpha-2 code.'),
  country_name: z.string(),
  service: z.string().describe('Service code.'),
  service_name: z.string(),
  /** Dollars. */
  price: z.number(),
  in_stock: z.number().int(),
  delivery: z.object({
    rate: z
      .number()
      .nullable()
      .describe('Share of settled orders of the last 7 days that got a code; null while too few.'),
    median_seconds: z.number().int().nullable(),
    orders: z.number().int().describe('Settled orders the figures rest on.'),
  }),
});
export type ApiV1Offer = z.infer<typeof apiV1OfferSchema>;
export const apiV1OffersSchema = z.object({ data: z.array(apiV1OfferSchema) });

export const apiV1BuyRequestSchema = z
  .strictObject({
    service: serviceName,
    country: countryName.optional(),
    countries: z
      .array(countryName)
      .min(1, { error: () => say.atLeast(1) })
      .max(API_V1_MAX_COUNTRIES, { error: () => say.maxEntries(API_V1_MAX_COUNTRIES) })
      .optional()
      .describe('Countries in order of preference: each is tried in turn, at most at its own price.'),
    operator: plainText(40).optional(),
    max_price: dollars
      .optional()
      .describe('The most to pay, in dollars: a dearer offer is refused, never bought.'),
    min_delivery_rate: deliveryRateFloor
      .optional()
      .describe(
        'The lowest delivery rate to accept (0 to 1): a country whose known rate is below it is skipped; when every one is, 409 `offer_below_guard`.',
      ),
  })
  .refine((body) => body.country !== undefined || body.countries !== undefined, {
    error: () => say.isRequired,
    path: ['country'],
  });
export type ApiV1BuyRequest = z.input<typeof apiV1BuyRequestSchema>;

export const apiV1OrderSchema = purchasedNumberSchema;
export const apiV1OrdersSchema = pageOf(apiV1OrderSchema);

export const apiV1CodeQuerySchema = z.object({
  wait: decimalInteger(0, API_V1_MAX_WAIT_SECONDS)
    .optional()
    .default(0)
    .describe('Seconds to wait for the code: answered the moment it is stored.'),
});
export const apiV1CodeSchema = z.object({
  order_id: z.number().int(),
  status: z
    .enum(['waiting', 'received', 'completed', 'ended'])
    .describe('`waiting` until a code (or the next one after another-sms) arrives; `ended` when none will.'),
  code: z.string().nullable(),
});
export type ApiV1Code = z.infer<typeof apiV1CodeSchema>;

export const apiV1RentRequestSchema = z.strictObject({
  service: serviceName,
  country: countryName,
  period: plainText(20)
    .refine((value) => parseRentPeriod(value) !== null, { error: () => say.rentPeriod(4, 720) })
    .describe('"24 hours" (4 to 720), "2 weeks" (1 to 7) or "1 month" (1 to 3): weeks and months renew.'),
  auto_renew: z.boolean().optional(),
});
export const apiV1RentSchema = rentSchema;
export const apiV1RentsSchema = pageOf(apiV1RentSchema);
export const apiV1RenewRequestSchema = z.strictObject({
  hours: z
    .number({ error: () => say.mustBeNumber })
    .int({ error: () => say.mustBeWholeNumber })
    .min(1, { error: () => say.atLeast(1) })
    .max(720, { error: () => say.atMost(720) }),
});

export const apiV1BalanceSchema = z.object({
  /** Dollars. */
  balance: z.number(),
  /** Dollars live orders and rents could still return (see the Money page). */
  reserved: z.number(),
});
export const apiV1LedgerSchema = pageOf(ledgerEntrySchema);

/** An RFC 9457 problem, with the API's usual `success`, `error` and `code` beside its own members. */
export const apiV1ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  success: z.literal(false),
  error: z.string(),
});

export const apiV1IdParamSchema = z.object({ id: decimalInteger(1, 2_147_483_647) });
