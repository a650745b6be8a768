import { z } from 'zod';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { databaseIdParam, decimalInteger, opaqueIdParam, plainText, validationMessages as say } from './wire';

/** Texts of spec section 8 for the dashboard and one-time numbers. */
export const numberMessages = defineMessages('numbers', en.numbers, (t) => ({
  purchased: (service: string) => t('purchased', { service }),
}));

/** Upstream activation status strings the number-status call answers (spec section 4). */
export const NUMBER_STATUS = {
  waiting: 'STATUS_WAIT_CODE',
  canceled: 'STATUS_CANCEL',
  okPrefix: 'STATUS_OK:',
} as const;

export const countryIdField = z
  .string({ error: () => say.mustBeString })
  .trim()
  .regex(/^[A-Za-z]{2}$/, { error: () => say.twoLetterCountryCode })
  .transform((value) => value.toUpperCase());
export const operatorKeyField = z
  .string({ error: () => say.mustBeString })
  .trim()
  .regex(/^[a-z0-9_]{1,32}$/, { error: () => say.operatorKey });
export const serviceCodeField = z
  .string({ error: () => say.mustBeString })
  .trim()
  .regex(/^[a-z0-9]{1,10}$/, { error: () => say.serviceCode });

export const summaryResponseSchema = z.object({
  success: z.literal(true),
  /** Dollars with two decimals. */
  balance: z.number(),
  totalNumbers: z.number().int(),
  totalOrders: z.number().int(),
  totalCountries: z.number().int(),
  /** Of `totalNumbers`, the one-time numbers live now (as the dashboard's list shows them) and the rents. */
  liveOneTime: z.number().int(),
  liveRented: z.number().int(),
});
export type SummaryResponse = z.infer<typeof summaryResponseSchema>;

export const countrySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Lower-case ISO code: the flag's name. */
  code: z.string(),
  dialCode: z.string(),
  /** Operator key to name; `any` first. */
  operators: z.record(z.string(), z.string()),
  /** The lowest price in dollars of a service in stock there (any operator); null when nothing is. */
  fromPrice: z.number().nullable().optional(),
  /** Numbers in stock there over every service. */
  stock: z.number().int().optional(),
  /** SimCode's settled orders there in the last 7 days: what "Popular first" sorts by. */
  orders: z.number().int().optional(),
  /** Each operator's lowest price in stock (dollars; null when nothing is) and its stock, `any` left out. */
  operatorFigures: z
    .record(z.string(), z.object({ fromPrice: z.number().nullable(), stock: z.number().int() }))
    .optional(),
});
export type DashboardCountry = z.infer<typeof countrySchema>;
export const countriesResponseSchema = z.object({
  success: z.literal(true),
  countries: z.array(countrySchema),
});
export type CountriesResponse = z.infer<typeof countriesResponseSchema>;

/** Below this many settled orders in the window, a pair is shown as "new" rather than with a rate. */
export const DELIVERY_MIN_ORDERS = 10;

/** SimCode's own orders of the last 7 days for an offer; null when none settled yet. */
export const deliveryFiguresSchema = z
  .object({
    /** Orders that got a code or expired without one (cancelled ones say nothing about delivery). */
    orders: z.number().int(),
    /** Of those, the ones that received a code. */
    delivered: z.number().int(),
    /** Median time from purchase to the first SMS, over the delivered ones. */
    median_seconds: z.number().int().nullable(),
  })
  .nullable();
export type DeliveryFigures = z.infer<typeof deliveryFiguresSchema>;

export const servicesQuerySchema = z.object({
  countryID: countryIdField,
  operator: operatorKeyField.optional().default('any'),
});
export const serviceOfferSchema = z.object({
  id: z.string(),
  name: z.string(),
  /** Dollars with two decimals. */
  price: z.number(),
  /** Numbers available now; 0 means out of stock. */
  stock: z.number().int(),
  /** SimCode's own delivery figures for this offer (the operator's where one is chosen). */
  delivery: deliveryFiguresSchema.optional(),
});
export type ServiceOffer = z.infer<typeof serviceOfferSchema>;
export const servicesResponseSchema = z.object({
  success: z.literal(true),
  services: z.array(serviceOfferSchema),
});
export type ServicesResponse = z.infer<typeof servicesResponseSchema>;

export const buyNumberRequestSchema = z.object({
  /** The country's name, as the spec's client sends it; informational only. */
  country: plainText(100).optional(),
  countryID: countryIdField,
  operator: operatorKeyField.optional().default('any'),
  service: serviceCodeField,
  /**
   * The price the buyer was shown, in dollars. A purchase whose price went up since is refused with
   * `price_changed` and the new price, for the buyer to confirm; left out, the current price is charged.
   */
  price: z
    .number({ error: () => say.mustBeNumber })
    .positive({ error: () => say.moreThanZero })
    .max(1_000_000, { error: () => say.atMost(1_000_000) })
    .optional(),
});
export type BuyNumberRequest = z.input<typeof buyNumberRequestSchema>;

/** Replace's repeat: the price its confirmation showed, held as a purchase's is (optional for API clients). */
export const repeatNumberRequestSchema = buyNumberRequestSchema.pick({ price: true }).nullish();

export const numberStatuses = ['pending', 'waiting', 'received', 'completed', 'canceled', 'expired'] as const;
export type NumberStatus = (typeof numberStatuses)[number];

export const smsSchema = z.object({
  code: z.string().nullable(),
  text: z.string(),
  received_at: z.string(),
});

export const purchasedNumberSchema = z.object({
  id: z.number().int(),
  /** The upstream activation id; null while the number is being issued. */
  number_id: z.string().nullable(),
  country: z.string(),
  country_name: z.string(),
  service: z.string(),
  service_name: z.string(),
  operator: z.string(),
  number: z.string().nullable(),
  /** Dollars with two decimals. */
  price: z.number(),
  created_at: z.string(),
  expires_at: z.string(),
  status: z.enum(numberStatuses),
  status_reason: z.string().nullable(),
  /** The latest code, when one arrived. */
  code: z.string().nullable(),
  sms: z.array(smsSchema),
  /** Bought through the reseller API (an API key) rather than on the site. */
  via_api: z.boolean().optional(),
  /** Another SMS was asked for and has not arrived yet. */
  awaiting_another_sms: z.boolean().optional(),
  /**
   * When the supplier first allows a cancel (its no-cancel window after the purchase, 2 minutes in the
   * SMS-Activate family); null where it allows one at once or does not say.
   */
  cancel_available_at: z.string().nullable().optional(),
});
export type PurchasedNumber = z.infer<typeof purchasedNumberSchema>;
export const numbersResponseSchema = z.object({
  success: z.literal(true),
  numbers: z.array(purchasedNumberSchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: z.number().int().nullable().optional(),
});
export type NumbersResponse = z.infer<typeof numbersResponseSchema>;
export const buyNumberResponseSchema = z.object({ success: z.literal(true), number: purchasedNumberSchema });
export type BuyNumberResponse = z.infer<typeof buyNumberResponseSchema>;

export const numberStatusResponseSchema = z.object({
  success: z.literal(true),
  /** STATUS_OK:<code>, STATUS_WAIT_CODE or STATUS_CANCEL. */
  status: z.string(),
  code: z.string().nullable(),
});
export type NumberStatusResponse = z.infer<typeof numberStatusResponseSchema>;

export const idParamSchema = z.object({ id: databaseIdParam });
export const numberIdParamSchema = z.object({ number_id: opaqueIdParam(64, () => say.numberId) });

/** The lists of numbers and rents: a page of `limit`, older than the id `before`. */
export const LIST_LIMIT_DEFAULT = 50;
export const LIST_LIMIT_MAX = 100;
export const listPageQuerySchema = z.object({
  limit: decimalInteger(1, LIST_LIMIT_MAX).optional().default(LIST_LIMIT_DEFAULT),
  before: databaseIdParam.optional(),
});

/** Events pushed on /api/dashboard/events so pages refresh the moment something changes. */
export const dashboardEventTypes = ['numbers', 'rents', 'balance'] as const;
export type DashboardEventType = (typeof dashboardEventTypes)[number];
