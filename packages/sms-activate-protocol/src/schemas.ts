import { z } from 'zod';
import { parseProviderDate } from './dates';

/**
 * Shapes of the JSON answers, as loose as the providers are: ids and amounts arrive as numbers or strings,
 * lists as arrays or as objects keyed "0", "1", ..., flags as booleans, numbers or "1"/"0".
 */

const idText = z.union([z.string().trim().min(1), z.number()]).transform(String);
const amount = z
  .union([z.number(), z.string().trim().min(1)])
  .transform(Number)
  .pipe(z.number().nonnegative());
const count = amount.transform(Math.floor);
const flag = z
  .union([z.boolean(), z.number(), z.string()])
  .transform((value) => value === true || value === 1 || value === '1' || value === 'true');
/** `quant` is a number on older providers, `{current, total}` on newer ones. */
const quantity = z.union([count, z.object({ current: count }).transform((value) => value.current)]);

function listOf<T extends z.ZodType>(item: T) {
  return z.union([z.array(item), z.record(z.string(), item).transform((record) => Object.values(record))]);
}

const providerDate = z.union([z.string(), z.number()]).transform((value, context) => {
  const date = parseProviderDate(value);
  if (!date) {
    context.addIssue({ code: 'custom', message: 'not a date' });
    return z.NEVER;
  }
  return date;
});

export const countriesAnswer = z.union([
  z.array(z.object({ id: idText, visible: flag.optional(), rent: flag.optional() })),
  z
    .record(z.string(), z.object({ id: idText.optional(), visible: flag.optional(), rent: flag.optional() }))
    .transform((record) =>
      Object.entries(record).map(([key, country]) => ({ ...country, id: country.id ?? key })),
    ),
]);

export const operatorsAnswer = z.object({ countryOperators: z.record(z.string(), listOf(z.string())) });

/**
 * getPrices' (country → service → entry) and getPricesVerification's (service → country → entry) outer shape
 * only: each entry is read on its own (readPriceEntry), so one bad entry costs itself.
 */
export const pricesAnswer = z.record(z.string(), z.record(z.string(), z.unknown()));

/**
 * getTopCountriesByService for every service: `{service: [entry, ...]}`, the lists keyed by rank on
 * SMS-Activate, and wrapped in an array on Hero. Each entry names its country and is read on its own.
 */
export const topCountriesAnswer = z
  .union([z.array(z.record(z.string(), listOf(z.unknown()))), z.record(z.string(), listOf(z.unknown()))])
  .transform((answer) => (Array.isArray(answer) ? answer : [answer]));

export const topCountryEntry = z.object({ country: idText });

/** Price tiers, `{"0.25": 10, "0.30": 120}`: price → numbers at that price. */
const priceTiers = z.record(z.string().regex(/^\d+(\.\d+)?$/), count);

const priceEntry = z.object({
  cost: amount.optional(),
  price: amount.optional(),
  retail_price: amount.optional(),
  count: count.optional(),
  quant: quantity.optional(),
  physicalCount: count.optional(),
  physicalCountForDefaultPrice: count.optional(),
  freePriceMap: priceTiers.optional(),
  physicalPriceMap: priceTiers.optional(),
});

export interface PriceReading {
  cost: number;
  stock: number;
  /**
   * The stock is known to sell at `cost`: from `physicalCount`, `physicalCountForDefaultPrice` or price
   * tiers. A bare `count` is the stock at any price (HeroSMS: 163,186 numbers for a pair, 63 at its cost).
   */
  atCost: boolean;
}

/**
 * One offer of a price list, whichever list and provider: `{cost, count}`, Hero's `physicalCount`, top-country
 * entries with `retail_price` and a tier map, or a bare tier map. Undefined for an entry of no shape we know
 * (`cost: null` ...). When nothing is left at the listed price, the offer is the cheapest tier that has numbers.
 */
export function readPriceEntry(value: unknown): PriceReading | undefined {
  const parsed = priceEntry.safeParse(value);
  if (!parsed.success) return undefined;
  const entry = parsed.data;
  // What a buy pays: in top-country lists Hero's `price` is below what numbers sell at, `retail_price` is not.
  const listed = entry.retail_price ?? entry.cost ?? entry.price;
  const tierMap =
    entry.freePriceMap ??
    entry.physicalPriceMap ??
    (listed === undefined ? priceTiers.safeParse(value).data : undefined);
  const tiers = Object.entries(tierMap ?? {})
    .map(([price, stock]) => ({ cost: Number(price), stock }))
    .filter((tier) => tier.cost > 0)
    .sort((a, b) => a.cost - b.cost);
  if (listed !== undefined && listed > 0) {
    const atListed =
      entry.physicalCountForDefaultPrice ??
      entry.physicalCount ??
      (tiers.length > 0
        ? tiers.filter((tier) => tier.cost <= listed).reduce((sum, tier) => sum + tier.stock, 0)
        : undefined);
    if (atListed === undefined)
      return { cost: listed, stock: entry.count ?? entry.quant ?? 0, atCost: false };
    if (atListed > 0 || !tiers.some((tier) => tier.stock > 0)) {
      return { cost: listed, stock: atListed, atCost: true };
    }
  }
  // A buy with this ceiling gets the numbers of every tier up to it.
  let upTo = 0;
  for (const tier of tiers) {
    upTo += tier.stock;
    if (tier.stock > 0) return { cost: tier.cost, stock: upTo, atCost: true };
  }
  return undefined;
}

export const numberV2Answer = z.object({
  activationId: idText,
  phoneNumber: idText,
  activationCost: amount.nullish(),
  activationEndTime: providerDate.nullish(),
});

/** A list written as JSON text (`"[\"12345\"]"`, as SMS-Activate's history docs show it); else undefined. */
function jsonList(text: string): string[] | undefined {
  if (!text.trim().startsWith('[')) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.map(String) : undefined;
  } catch {
    // A text in brackets ("[Your CODE registration code]") is a text.
    return undefined;
  }
}

/** Codes or SMS texts: one string, a list, a list written as JSON text, or null. */
const codes = z
  .union([z.string(), z.array(z.union([z.string(), z.number()]).transform(String)), z.null()])
  .transform((value) =>
    value === null ? [] : typeof value === 'string' ? (jsonList(value) ?? [value]) : value,
  )
  .transform((values) => values.map((code) => code.trim()).filter((code) => code !== ''));

const activeActivation = z.object({
  activationId: idText,
  phoneNumber: idText,
  serviceCode: z.string().optional(),
  activationStatus: idText.optional(),
  smsCode: codes.optional(),
  smsText: codes.optional(),
  countryCode: idText.nullish(),
  activationTime: providerDate.nullish(),
});

export type ActiveActivationItem = z.infer<typeof activeActivation>;

/** SA lists under `activeActivations`, Hero under `data` and sometimes `activeActivations.rows` as well. */
const statusV2Message = z
  .object({ code: z.union([z.string(), z.number()]).nullish(), text: z.string().nullish() })
  .nullish();

/**
 * getStatusV2 (protocols.md A.4.5) in either shape: SMS-Activate's `sms`/`call` objects or Hero's `data`;
 * read as the last message, or null while none came.
 */
export const statusV2Answer = z
  .object({ sms: statusV2Message, call: statusV2Message, data: statusV2Message })
  .transform((answer) => {
    const message = answer.sms ?? answer.call ?? answer.data;
    const code = message?.code == null ? '' : String(message.code).trim();
    return code === '' ? null : { code, text: message?.text ?? undefined };
  });

export const activeActivationsAnswer = z
  .object({
    activeActivations: z
      .union([listOf(activeActivation), z.object({ rows: z.array(activeActivation) })])
      .optional(),
    data: z.array(activeActivation).optional(),
  })
  .transform((answer) => {
    const nested = answer.activeActivations;
    const candidates = [
      Array.isArray(nested) ? nested : [],
      answer.data ?? [],
      nested && 'rows' in nested ? nested.rows : [],
    ];
    return candidates.find((list) => list.length > 0) ?? [];
  });

/** Hero's getAllSms: `{data: [{phoneFrom, code, text, date, ...}], meta: {total}}`. */
export const allSmsAnswer = z.object({
  data: listOf(
    z.object({
      phoneFrom: idText.nullish(),
      code: idText.nullish(),
      text: z.string().nullish(),
      date: providerDate.nullish(),
    }),
  ),
  meta: z.object({ total: count.optional() }).nullish(),
});

const historyItem = z.object({
  id: idText,
  phone: idText,
  date: providerDate.nullish(),
  sms: codes.optional(),
  status: idText.optional(),
  /** What the account paid for it: 0 while live or once refunded, the price once billed. */
  cost: amount.nullish(),
});

export type HistoryItem = z.infer<typeof historyItem>;

/** getHistory: a list (SMS-Activate, Hero's compatible API), or the same under `data`. */
export const historyAnswer = z.union([
  listOf(historyItem),
  z.object({ data: listOf(historyItem) }).transform((answer) => answer.data),
]);

export const rentCatalogAnswer = z.object({
  countries: listOf(idText),
  operators: listOf(z.string()).optional(),
  services: z.record(z.string(), z.object({ cost: amount, quant: quantity.optional() })),
});

export const rentPhoneAnswer = z.object({
  phone: z.object({ id: idText, endDate: providerDate, number: idText }),
});

export const rentStatusAnswer = z.object({
  quantity: count.optional(),
  values: listOf(
    z.object({
      phoneFrom: idText,
      text: z.string(),
      code: idText.nullish(),
      date: providerDate,
    }),
  ).optional(),
});

export const rentPriceAnswer = z.object({ price: amount });

export const rentListAnswer = z.object({
  values: listOf(z.object({ id: idText, phone: idText })).optional(),
});

export const activationWebhook = z.object({
  activationId: idText,
  /** Null for a call verification: the code is the caller's number digits, in `code`. */
  text: z.string().nullable(),
  code: idText.nullish(),
  /** Hero's: who sent the SMS. */
  phoneFrom: idText.nullish(),
  receivedAt: providerDate,
});

export const rentWebhook = z.object({
  rentId: idText,
  sms: z.object({ phoneFrom: idText, text: z.string(), date: providerDate }),
});
