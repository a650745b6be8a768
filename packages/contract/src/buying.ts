import { z } from 'zod';
import { countryIdField, deliveryFiguresSchema, purchasedNumberSchema, serviceCodeField } from './dashboard';
import { defineMessages } from './i18n/define-messages';
import english from './i18n/locales/en.json';
import { multilineText, validationMessages as say } from './wire';

/**
 * Buying like the leading services (issue 17): by service first, delivery figures beside every price,
 * favourites and recent purchases, a price held to what the buyer saw, another SMS on the same number,
 * and a problem report that becomes a support ticket.
 */

/** Every country selling one service (the dashboard's "By service" mode). */
export const serviceCountriesQuerySchema = z.object({ service: serviceCodeField });
export const serviceCountryOfferSchema = z.object({
  countryID: z.string(),
  /** English name from the catalog; the web app shows the name in the reader's language from `code`. */
  name: z.string(),
  /** Lower-case ISO code. */
  code: z.string(),
  /** Dollars with two decimals, for any operator. */
  price: z.number(),
  stock: z.number().int(),
  delivery: deliveryFiguresSchema,
});
export type ServiceCountryOffer = z.infer<typeof serviceCountryOfferSchema>;
export const serviceCountriesResponseSchema = z.object({
  success: z.literal(true),
  service: z.object({ id: z.string(), name: z.string() }),
  countries: z.array(serviceCountryOfferSchema),
});
export type ServiceCountriesResponse = z.infer<typeof serviceCountriesResponseSchema>;

/** At most this many starred services and pairs per user. */
export const FAVOURITES_MAX = 50;
/** The recent purchases offered for one-click buying again. */
export const RECENT_PURCHASES = 5;

export const favouriteSchema = z.object({
  service: z.string(),
  service_name: z.string(),
  /** Null for a service starred in every country. */
  countryID: z.string().nullable(),
  country_name: z.string().nullable(),
});
export type Favourite = z.infer<typeof favouriteSchema>;
export const recentPurchaseSchema = z.object({
  service: z.string(),
  service_name: z.string(),
  countryID: z.string(),
  country_name: z.string(),
  operator: z.string(),
  /** When it was last bought. */
  bought_at: z.string(),
});
export type RecentPurchase = z.infer<typeof recentPurchaseSchema>;
export const favouritesResponseSchema = z.object({
  success: z.literal(true),
  favourites: z.array(favouriteSchema),
  recent: z.array(recentPurchaseSchema),
});
export type FavouritesResponse = z.infer<typeof favouritesResponseSchema>;
export const favouriteRequestSchema = z.object({
  service: serviceCodeField,
  /** A pair when given; the service in every country when null or left out. */
  countryID: countryIdField.nullable().optional(),
  starred: z.boolean({ error: () => say.mustBeTrueOrFalse }),
});
export type FavouriteRequest = z.input<typeof favouriteRequestSchema>;

export const problemKinds = ['number_used', 'code_rejected', 'no_sms'] as const;
export type ProblemKind = (typeof problemKinds)[number];
export const PROBLEM_NOTE_MAX_LENGTH = 1000;
export const reportProblemRequestSchema = z.object({
  kind: z.enum(problemKinds, { error: () => say.oneOf(problemKinds) }),
  note: multilineText(PROBLEM_NOTE_MAX_LENGTH).optional(),
});
export type ReportProblemRequest = z.input<typeof reportProblemRequestSchema>;
export const reportProblemResponseSchema = z.union([
  z.object({
    success: z.literal(true),
    ticket_id: z.number().int(),
    message: z.string(),
  }),
  /** A number reported as already used while it waited for its code: ended at the supplier and refunded. */
  z.object({
    success: z.literal(true),
    refunded: z.literal(true),
    number: purchasedNumberSchema,
    message: z.string(),
  }),
]);
export type ReportProblemResponse = z.infer<typeof reportProblemResponseSchema>;

/** The body of a purchase refused because the price went up since the buyer saw it. */
export const priceChangedBodySchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.literal('price_changed'),
  /** The price now, in dollars: what a confirmed purchase is charged. */
  price: z.number(),
});

export const buyingMessages = defineMessages('buying', english.buying, (t) => ({
  priceChanged: (price: string) => t('priceChanged', { price }),
  problemTicketTitle: (id: number, service: string) => t('problemTicketTitle', { id, service }),
  get favouritesFull() {
    return t('favouritesFull', { max: FAVOURITES_MAX });
  },
}));
