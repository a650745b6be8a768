import { z } from 'zod';
import { API_V1_PREFIX } from './api-v1';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';

/**
 * The public SMS Delivery Index (issue 30, ADR 0025): delivery figures per service × country from SimCode's
 * own settled orders, across suppliers (never named), as JSON, CSV and the `/stats` pages.
 */

export const STATS_WINDOWS = ['24h', '7d', '30d', '90d'] as const;
export type StatsWindow = (typeof STATS_WINDOWS)[number];
export const STATS_DEFAULT_WINDOW: StatsWindow = '7d';
/** Below this many settled orders a figure is "new": shown as a count, never as a percentage. */
export const STATS_MIN_SETTLED = 10;
/** Days a service's daily chart covers. */
export const STATS_CHART_DAYS = 30;
export const STATS_LICENCE = {
  name: 'CC BY 4.0',
  url: 'https://creativecommons.org/licenses/by/4.0/',
} as const;
export const statsPaths = {
  index: `${API_V1_PREFIX}/stats`,
  csv: `${API_V1_PREFIX}/stats.csv`,
  service: (code: string) => `${API_V1_PREFIX}/stats/${encodeURIComponent(code)}`,
  country: (countryId: string) => `${API_V1_PREFIX}/stats/country/${encodeURIComponent(countryId)}`,
} as const;

export const statsQuerySchema = z.object({
  window: z
    .enum(STATS_WINDOWS)
    .optional()
    .default(STATS_DEFAULT_WINDOW)
    .describe('24 hours, or 7, 30 or 90 days up to now (days are UTC).'),
});

const count = z.number().int().nonnegative();
const share = z.number().min(0).max(1).nullable();
const seconds = z.number().int().nonnegative().nullable();

export const statsFiguresSchema = z.object({
  finished: count.describe('Orders bought in the window that ended (waiting ones count nowhere).'),
  settled: count.describe('Finished orders whose delivery is known: a code arrived, or none did in time.'),
  with_code: count.describe('Settled orders that got a code.'),
  refunded: count.describe('Finished orders whose money went back (cancelled, expired, refused).'),
  delivery_rate: share.describe('with_code / settled; null while settled is under min_settled ("new").'),
  refund_rate: share.describe('refunded / finished; null while "new".'),
  median_seconds: seconds.describe('Half of the codes came within this many seconds; null while "new".'),
  p90_seconds: seconds.describe('90% of the codes came within this many seconds; null while "new".'),
  new: z.boolean().describe('Fewer than min_settled settled orders: too few to give a figure.'),
});
export type StatsFigures = z.infer<typeof statsFiguresSchema>;

export const statsRowSchema = statsFiguresSchema.extend({
  service: z.string(),
  service_name: z.string(),
  country: z.string().describe('ISO 3166 code.'),
  country_name: z.string(),
  trend: z
    .number()
    .nullable()
    .describe('delivery_rate minus that of the window before (−1…1); null when either is "new".'),
});
export type StatsRow = z.infer<typeof statsRowSchema>;

const statsHeader = {
  window: z.enum(STATS_WINDOWS),
  from: z.string().describe('Start of the window (orders bought from then), ISO 8601.'),
  to: z.string().describe('End of the window (now), ISO 8601.'),
  generated_at: z.string(),
  min_settled: count,
  licence: z.object({ name: z.string(), url: z.string() }),
};

export const statsSchema = z.object({ ...statsHeader, rows: z.array(statsRowSchema) });
export type StatsAnswer = z.infer<typeof statsSchema>;

export const statsDaySchema = z.object({
  day: z.string().describe('UTC day, YYYY-MM-DD.'),
  settled: count,
  with_code: count,
  delivery_rate: share,
  median_seconds: seconds,
});
export type StatsDay = z.infer<typeof statsDaySchema>;

export const statsServiceSchema = z.object({
  ...statsHeader,
  service: z.string(),
  service_name: z.string(),
  total: statsFiguresSchema,
  countries: z.array(statsRowSchema),
  daily: z.array(statsDaySchema).describe(`The last ${STATS_CHART_DAYS} days, oldest first, all countries.`),
});
export type StatsServiceAnswer = z.infer<typeof statsServiceSchema>;

export const statsServiceParamsSchema = z.object({ service: z.string().min(1).max(60) });

export const statsCountrySchema = z.object({
  ...statsHeader,
  country: z.string().describe('ISO 3166 alpha-2 code.'),
  country_name: z.string(),
  total: statsFiguresSchema,
  services: z.array(statsRowSchema),
  daily: z.array(statsDaySchema).describe(`The last ${STATS_CHART_DAYS} days, oldest first, all services.`),
});
export type StatsCountryAnswer = z.infer<typeof statsCountrySchema>;

export const statsCountryParamsSchema = z.object({
  country: z.string().min(2).max(2).describe('ISO 3166 alpha-2 code, either case.'),
});

/** The CSV's columns, in order (the JSON row's fields). */
export const STATS_CSV_COLUMNS = [
  'service',
  'service_name',
  'country',
  'country_name',
  'finished',
  'settled',
  'with_code',
  'refunded',
  'delivery_rate',
  'refund_rate',
  'median_seconds',
  'p90_seconds',
  'new',
  'trend',
] as const satisfies readonly (keyof StatsRow)[];

/**
 * A service's public price list, in the browser (the app's /stats/:service) and in the HTML the server sends
 * for that page before any script runs: one set of words for both.
 */
export const publicPriceMessages = defineMessages('publicPrices', en.publicPrices, (t) => ({
  title: (service: string) => t('title', { service }),
  buyIn: (service: string, country: string) => t('buyIn', { service, country }),
  showAll: (count: number) => t('showAll', { count }),
}));
