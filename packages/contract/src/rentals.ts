import { z } from 'zod';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { decimalInteger, jsonInteger, opaqueIdParam, plainText, validationMessages as say } from './wire';

/**
 * Long-term and renewable rents (spec sections 3, 4, 5, 7 and 9): bounds, period helpers, texts and the
 * API's schemas. The server validates with these and the web app's inputs take their limits from them.
 * Why the bounds differ from the original product: docs/decisions/0002-rental-periods.md.
 */

/** A long-term rent lasts 4 hours to 1 month (the terms' minimum and maximum), 24 hours unless chosen. */
export const LONG_TERM_MIN_HOURS = 4;
export const LONG_TERM_MAX_HOURS = 720;
export const LONG_TERM_DEFAULT_HOURS = 24;
/** The examples the period input shows (spec section 9). */
const rentPeriodLabels = defineMessages('rentPeriods', en.rentPeriods);
export const LONG_TERM_EXAMPLES: ReadonlyArray<{ readonly hours: number; readonly label: string }> = [
  {
    hours: 24,
    get label() {
      return rentPeriodLabels.oneDay;
    },
  },
  {
    hours: 168,
    get label() {
      return rentPeriodLabels.oneWeek;
    },
  },
  {
    hours: 720,
    get label() {
      return rentPeriodLabels.oneMonth;
    },
  },
];

/** A renewable rent is bought in weeks (1 to 7) or months (1 to 3); a month is 720 hours, 30 days. */
export const RENEWABLE_UNITS = {
  week: { hours: 168, min: 1, max: 7 },
  month: { hours: 720, min: 1, max: 3 },
} as const;
export type RenewableUnit = keyof typeof RENEWABLE_UNITS;
export const renewableUnits = Object.keys(RENEWABLE_UNITS) as RenewableUnit[];
export const RENEWABLE_DEFAULT: { unit: RenewableUnit; count: number } = { unit: 'week', count: 1 };

/** The Renew dialog's period, and what the server accepts for one renewal. */
export const RENEW_MIN_HOURS = 1;
export const RENEW_MAX_HOURS = 720;

/** A rent can be cancelled (and refunded) only this long after it starts, and only before any SMS. */
export const RENT_CANCEL_WINDOW_MS = 20 * 60 * 1000;

export function renewablePeriodHours(unit: RenewableUnit, count: number): number {
  return RENEWABLE_UNITS[unit].hours * count;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export type PeriodUnit = 'hour' | RenewableUnit;

/** The period text the rent-number call sends: '24 hours', '1 week', '3 months'. */
export function periodText(unit: PeriodUnit, count: number): string {
  return plural(count, unit);
}

export interface RentPeriod {
  unit: PeriodUnit;
  count: number;
  hours: number;
  /** Weeks and months are renewable rents; hours are long-term ones. */
  renewable: boolean;
}

/**
 * Reads a period text ('24 hours', '2 weeks', '1 month') within the bounds of its kind; null when it is
 * not one. The one place that says which periods exist, for the server's validation and the web's inputs.
 */
export function parseRentPeriod(text: string): RentPeriod | null {
  const match = /^\s*(\d{1,4})\s+(hour|week|month)s?\s*$/i.exec(text);
  if (!match) return null;
  const count = Number(match[1]);
  const unit = match[2]!.toLowerCase() as PeriodUnit;
  if (unit === 'hour') {
    if (count < LONG_TERM_MIN_HOURS || count > LONG_TERM_MAX_HOURS) return null;
    return { unit, count, hours: count, renewable: false };
  }
  const bounds = RENEWABLE_UNITS[unit];
  if (count < bounds.min || count > bounds.max) return null;
  return { unit, count, hours: renewablePeriodHours(unit, count), renewable: true };
}

/**
 * The code in an SMS, to highlight and copy: `123-456` or a group of 4 to 8 digits standing on its own.
 * Digits joined to other digits by a space, dot, comma or colon are tracking, card or phone numbers,
 * amounts or times, not codes.
 */
export function extractSmsCode(text: string): string | null {
  return /(?<![\d.,:+]|\d[ .,:])(\d{3}-\d{3}|\d{4,8})(?!\d|[ .,:]\d)/.exec(text)?.[1] ?? null;
}

/** Texts of spec section 8 for rents, plus the ones this product adds. */
export const rentMessages = defineMessages('rentals', en.rentals);

/** Rent status tokens the rent-status call answers with (the SMS-Activate rent protocol's). */
export const RENT_STATUS = {
  waiting: 'STATUS_WAIT_CODE',
  canceled: 'STATUS_CANCEL',
  finished: 'STATUS_FINISH',
} as const;

const countryCode = z
  .string({ error: () => say.mustBeString })
  .trim()
  .regex(/^[A-Za-z]{2}$/, { error: () => say.twoLetterCountryCode })
  .transform((value) => value.toUpperCase());
const rentServiceKey = z
  .string({ error: () => say.mustBeString })
  .trim()
  .regex(/^opt\d{1,4}$/, { error: () => say.rentServiceKey });

export const rentCountrySchema = z.object({
  /** ISO 3166-1 alpha-2, upper case: what rent-services and rent-number take. */
  code: z.string(),
  name: z.string(),
  dialCode: z.string(),
});
export type RentCountry = z.infer<typeof rentCountrySchema>;
export const rentCountriesResponseSchema = z.object({
  success: z.literal(true),
  countries: z.array(rentCountrySchema),
});
export type RentCountriesResponse = z.infer<typeof rentCountriesResponseSchema>;

export const rentServicesQuerySchema = z.object({
  country: countryCode,
  periodID: decimalInteger(LONG_TERM_MIN_HOURS, renewablePeriodHours('month', RENEWABLE_UNITS.month.max)),
});
export const rentServiceSchema = z.object({
  name: z.string(),
  /** Dollars with two decimals, for the whole period. */
  price: z.number(),
  /** Numbers available now; 0 means out of stock. */
  count: z.number().int(),
  /** The icon's name in the bundled icon set, or null for a monogram. */
  img: z.string().nullable(),
});
export type RentServiceOffer = z.infer<typeof rentServiceSchema>;
export const rentServicesResponseSchema = z.object({
  success: z.literal(true),
  /** Keyed by the service option key (`opt29`), most popular first. */
  services: z.record(z.string(), rentServiceSchema),
});
export type RentServicesResponse = z.infer<typeof rentServicesResponseSchema>;

export const rentNumberRequestSchema = z
  .object({
    /** The country's name, as the spec's client sends it; informational only. */
    country: plainText(100).optional(),
    countryID: countryCode,
    service: rentServiceKey,
    period: plainText(40),
    periodID: jsonInteger(1, renewablePeriodHours('month', RENEWABLE_UNITS.month.max), 'hours'),
    /** Renewable rents only: renew automatically before the end date (on unless turned off). */
    autoRenew: z.boolean({ error: () => say.mustBeTrueOrFalse }).optional(),
  })
  .superRefine((body, context) => {
    const period = parseRentPeriod(body.period);
    if (!period) {
      context.addIssue({
        code: 'custom',
        path: ['period'],
        message: say.rentPeriod(LONG_TERM_MIN_HOURS, LONG_TERM_MAX_HOURS),
      });
    } else if (period.hours !== body.periodID) {
      context.addIssue({
        code: 'custom',
        path: ['periodID'],
        message: say.periodMismatch(body.period, period.hours),
      });
    }
  });
export type RentNumberRequest = z.input<typeof rentNumberRequestSchema>;

export const rentStatuses = ['pending', 'active', 'renewed', 'canceled', 'expired'] as const;
export type RentStatus = (typeof rentStatuses)[number];

export const rentSchema = z.object({
  id: z.number().int(),
  /** The provider's rent id: every rent call's key; null while the number is being issued. */
  order_id: z.string().nullable(),
  /** The country's name. */
  country: z.string(),
  /** ISO code of the country. */
  country_id: z.string(),
  service: z.object({ key: z.string(), name: z.string() }),
  number: z.string().nullable(),
  created_at: z.string(),
  end_date: z.string().nullable(),
  status: z.enum(rentStatuses),
  /** Why the rent ended, was refunded, or anything else the owner should know. */
  status_reason: z.string().nullable(),
  /** The period bought, as its text ('24 hours', '2 weeks'), and in hours. */
  period: z.string(),
  hours: z.number().int(),
  renewable: z.boolean(),
  auto_renew: z.boolean(),
  /** Why automatic renewal did not run, when it could not. */
  auto_renew_error: z.string().nullable(),
  /** A renewal is charged and waiting for the provider's confirmation. */
  renewal_pending: z.boolean(),
  /** An SMS has arrived: the rent can no longer be cancelled (nor replaced, which cancels first). */
  sms_received: z.boolean(),
  /** Dollars charged for this rent so far (purchase and renewals, less refunds). */
  price: z.number(),
});
export type Rent = z.infer<typeof rentSchema>;
export const rentsResponseSchema = z.object({ success: z.literal(true), rents: z.array(rentSchema) });
export type RentsResponse = z.infer<typeof rentsResponseSchema>;
export const rentResponseSchema = z.object({ success: z.literal(true), rent: rentSchema });
export type RentResponse = z.infer<typeof rentResponseSchema>;

export const rentSmsSchema = z.object({
  phoneFrom: z.string(),
  text: z.string(),
  /** The code in the text, when there is one. */
  code: z.string().nullable(),
  date: z.string(),
});
export type RentSms = z.infer<typeof rentSmsSchema>;
export const rentStatusResponseSchema = z.object({
  status: z.enum(['success', 'error']),
  /** A RENT_STATUS token when status is error; null on success. */
  message: z.string().nullable(),
  /** Every SMS the number received, newest first. */
  values: z.array(rentSmsSchema),
  error: z.string().nullable(),
});
export type RentStatusResponse = z.infer<typeof rentStatusResponseSchema>;

export const rentOrderIdParamSchema = z.object({ order_id: opaqueIdParam(64, () => say.orderId) });

export const renewRequestSchema = z.object({
  periodID: jsonInteger(RENEW_MIN_HOURS, RENEW_MAX_HOURS, 'hours'),
});
export type RenewRequest = z.input<typeof renewRequestSchema>;
export const renewPriceQuerySchema = z.object({ periodID: decimalInteger(RENEW_MIN_HOURS, RENEW_MAX_HOURS) });
export const renewPriceResponseSchema = z.object({
  success: z.literal(true),
  periodID: z.number().int(),
  /** Dollars with two decimals. */
  price: z.number(),
});
export type RenewPriceResponse = z.infer<typeof renewPriceResponseSchema>;

export const autoRenewRequestSchema = z.object({
  enabled: z.boolean({ error: () => say.mustBeTrueOrFalse }),
});
