import type { ResponseStyle } from './actions';
import { rfc3339, saDateTime } from './dates';
import { formatUsd, indexed, USD_CURRENCY } from './replies';

/**
 * The answer shapes a server of ours shares with every other: built from what the server knows, in the
 * protocol's ids, written the way the style writes them (classic: strings and zone-less dates; Hero:
 * numbers, booleans and RFC 3339).
 */

/** A bought number as getNumberV2 tells it (and Hero's getRentNumber, a rent being `subtype` 2). */
export interface BoughtNumber {
  id: string;
  phoneNumber: string;
  costUsd: number;
  /** The protocol's country id. */
  countryId: number;
  /** Its dialling code without `+` (Hero tells it). */
  dialCode: string;
  /** The protocol's service code (Hero tells it). */
  service: string;
  operator: string;
  boughtAtMs: number;
  endsAtMs: number;
  /** Whether the number can still get another SMS (status 3), as its supplier allows. */
  canGetAnotherSms: boolean;
  /** A rented number rather than a one-time activation. */
  rent?: boolean;
}

/** Hero's `subtype`: 1 a one-time activation, 2 a rent. */
const subtypeOf = (bought: { rent?: boolean }) => (bought.rent ? 2 : 1);
/** Hero's `status` of a number just bought: waiting for its SMS. */
const WAITING_STATUS = 4;

/**
 * getNumberV2's answer. SMS-Activate's classic answer has strings and zone-less dates and leaves out what
 * later members of the family added; `complete` adds all of it (the currency, the end, Hero's
 * verificationType, subtype, serviceCode, countryPhoneCode and status) and writes the times with their zone,
 * so that one answer serves clients of either era.
 */
export function numberV2Body(
  bought: BoughtNumber,
  style: ResponseStyle,
  { complete = false } = {},
): Record<string, unknown> {
  if (style === 'classic') {
    const time = complete ? rfc3339 : saDateTime;
    return {
      activationId: bought.id,
      phoneNumber: bought.phoneNumber,
      activationCost: formatUsd(bought.costUsd),
      ...(complete ? { currency: USD_CURRENCY } : {}),
      countryCode: String(bought.countryId),
      ...(complete ? { countryPhoneCode: bought.dialCode } : {}),
      canGetAnotherSms: bought.canGetAnotherSms ? '1' : '0',
      activationTime: time(bought.boughtAtMs),
      ...(complete ? { activationEndTime: time(bought.endsAtMs) } : {}),
      activationOperator: bought.operator,
      ...(complete
        ? {
            verificationType: 'sms',
            subtype: String(subtypeOf(bought)),
            serviceCode: bought.service,
            status: String(WAITING_STATUS),
          }
        : {}),
    };
  }
  return {
    activationId: Number(bought.id),
    phoneNumber: bought.phoneNumber,
    activationCost: bought.costUsd,
    currency: USD_CURRENCY,
    countryCode: bought.countryId,
    countryPhoneCode: Number(bought.dialCode),
    canGetAnotherSms: bought.canGetAnotherSms,
    activationTime: rfc3339(bought.boughtAtMs),
    activationEndTime: rfc3339(bought.endsAtMs),
    activationOperator: bought.operator,
    verificationType: 'sms',
    subtype: subtypeOf(bought),
    serviceCode: bought.service,
    status: WAITING_STATUS,
  };
}

/** A live activation as getActiveActivations lists it. */
export interface ActiveActivation {
  id: string;
  /** The protocol's service code. */
  service: string;
  phoneNumber: string;
  costUsd: number;
  /** The protocol's status code: 4 waiting, 2 code received, 3 another SMS asked for. */
  status: string;
  /** The codes and texts of its SMS, oldest first; classic answers tell the last of each. */
  codes: readonly string[];
  texts: readonly string[];
  /** More than one SMS came. */
  repeated: boolean;
  boughtAtMs: number;
  /** The protocol's country id, and the country's name. */
  countryId: number;
  countryName: string;
  /** Whether it can still get another SMS (status 3), as its supplier allows. */
  canGetAnotherSms: boolean;
}

export function activeActivationBody(activation: ActiveActivation, style: ResponseStyle) {
  const classic = style === 'classic';
  return {
    activationId: classic ? activation.id : Number(activation.id),
    serviceCode: activation.service,
    phoneNumber: activation.phoneNumber,
    activationCost: classic ? formatUsd(activation.costUsd) : activation.costUsd,
    ...(classic ? {} : { currency: USD_CURRENCY }),
    activationStatus: activation.status,
    smsCode: classic ? (activation.codes.at(-1) ?? null) : activation.codes,
    smsText: classic ? (activation.texts.at(-1) ?? null) : activation.texts,
    activationTime: classic ? saDateTime(activation.boughtAtMs) : rfc3339(activation.boughtAtMs),
    discount: '0.00',
    repeated: activation.repeated ? '1' : '0',
    countryCode: classic ? String(activation.countryId) : activation.countryId,
    countryName: activation.countryName,
    canGetAnotherSms: classic ? (activation.canGetAnotherSms ? '1' : '0') : activation.canGetAnotherSms,
    ...(classic ? {} : { verificationType: 'sms', subtype: subtypeOf({}) }),
  };
}

/** A rented number as getRentNumber and continueRentNumber tell it. */
export interface RentedNumber {
  id: string | number;
  phoneNumber: string;
  endsAtMs: number;
}

export function rentPhoneBody(rent: RentedNumber, style: ResponseStyle) {
  const classic = style === 'classic';
  return {
    status: 'success',
    phone: {
      id: classic ? Number(rent.id) : String(rent.id),
      endDate: classic ? saDateTime(rent.endsAtMs).replace(' ', 'T') : rfc3339(rent.endsAtMs),
      number: rent.phoneNumber,
    },
  };
}

const RUSSIAN_NAMES = new Intl.DisplayNames(['ru'], { type: 'region', fallback: 'none' });
const CHINESE_NAMES = new Intl.DisplayNames(['zh'], { type: 'region', fallback: 'none' });

/**
 * A country as getCountries lists it, with its Russian and Chinese names (`rus`, `chn`) from the runtime's
 * Unicode data; the English name stands in where that has none. `retry`: another SMS can be had there.
 */
export function countryBody(country: {
  id: number;
  iso: string;
  name: string;
  rent: boolean;
  retry?: boolean;
}) {
  return {
    id: country.id,
    rus: RUSSIAN_NAMES.of(country.iso) ?? country.name,
    eng: country.name,
    chn: CHINESE_NAMES.of(country.iso) ?? country.name,
    visible: 1,
    retry: (country.retry ?? true) ? 1 : 0,
    rent: country.rent ? 1 : 0,
  };
}

/** Numbers at one price, cheapest first: a Free Price shelf. */
export interface PriceTier {
  priceUsd: number;
  stock: number;
}

/** `freePriceMap` / `physicalPriceMap`: price → numbers at that price. */
export function tierMap(tiers: readonly PriceTier[]): Record<string, number> {
  return Object.fromEntries(tiers.map((tier) => [formatUsd(tier.priceUsd), tier.stock]));
}

/** One country of getTopCountriesByService's list for a service. */
export interface TopCountry {
  /** The protocol's country id. */
  country: number;
  /** Numbers at any price. */
  count: number;
  /** What the list says a number costs (Hero's is below what one sells at). */
  priceUsd: number;
  /** What a number sells at. */
  retailPriceUsd: number;
  /** Its shelves, cheapest (the listed price) first. */
  tiers: readonly PriceTier[];
}

/**
 * A country of getTopCountriesByService. Hero always gives the tiers (`physical*`); SMS-Activate gives them
 * as `freePriceMap` when asked with freePrice.
 */
export function topCountryBody(top: TopCountry, style: ResponseStyle, freePrice: boolean) {
  const common = {
    country: top.country,
    count: top.count,
    price: top.priceUsd,
    retail_price: top.retailPriceUsd,
  };
  if (style === 'hero') {
    return {
      ...common,
      physicalTotalCount: top.count,
      physicalCountForDefaultPrice: top.tiers[0]?.stock ?? 0,
      physicalPriceMap: tierMap(top.tiers),
    };
  }
  return freePrice ? { ...common, freePriceMap: tierMap(top.tiers) } : common;
}

/** getNumbersStatus: numbers per service, `<service>_0` without forwarding and `<service>_1` with it. */
export function numbersStatusBody(
  stock: Iterable<readonly [service: string, count: number]>,
  forwardingStock: (service: string) => number = () => 0,
): Record<string, number> {
  const body: Record<string, number> = {};
  for (const [service, count] of stock) {
    body[`${service}_0`] = count;
    body[`${service}_1`] = forwardingStock(service);
  }
  return body;
}

/** One service in one country as getPricesVerification tells it. */
export interface VerificationPrice {
  /** The protocol's service code and country id. */
  service: string;
  country: number;
  count: number;
  priceUsd: number;
  tiers: readonly PriceTier[];
}

/** getPricesVerification (DaisySMS's family): service → country → `{count, price}`, the inverse of getPrices. */
export function pricesVerificationBody(prices: Iterable<VerificationPrice>, freePrice: boolean) {
  const body: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const entry of prices) {
    body[entry.service] ??= {};
    body[entry.service]![String(entry.country)] = {
      count: entry.count,
      price: entry.priceUsd,
      ...(freePrice ? { freePriceMap: tierMap(entry.tiers) } : {}),
    };
  }
  return body;
}

/** An activation as getHistory lists it. */
export interface HistoryEntry {
  id: string;
  boughtAtMs: number;
  phoneNumber: string;
  /** The codes of its SMS, oldest first, and the last one's text. */
  codes: readonly string[];
  lastText: string | null;
  costUsd: number;
  /** 4 waiting, 2 code received, 3 another SMS asked for, 6 finished, 8 cancelled, 10 refunded. */
  status: string;
}

/** SMS-Activate lists the codes in `sms` (null without any) and a numeric id; Hero the last SMS's text. */
export function historyItemBody(item: HistoryEntry, style: ResponseStyle) {
  const classic = style === 'classic';
  return {
    id: classic ? Number(item.id) : item.id,
    date: saDateTime(item.boughtAtMs),
    phone: item.phoneNumber,
    sms: classic ? (item.codes.length > 0 ? item.codes : null) : item.lastText,
    cost: item.costUsd,
    status: item.status,
    currency: USD_CURRENCY,
  };
}

/** An SMS as getStatusV2 and getRentStatus tell it; the sender where the server knows it. */
export interface ReceivedSms {
  from?: string;
  text: string;
  code: string | null;
  receivedAtMs: number;
}

/**
 * getStatusV2's answer (protocols.md A.4.5): the last SMS with its full text, in SMS-Activate's shape
 * (`sms`/`call`) or Hero's (`data`); null while none came. A cancelled activation answers `STATUS_CANCEL`
 * instead, as text.
 */
export function statusV2Body(
  activation: { id: string; service: string },
  last: ReceivedSms | undefined,
  style: ResponseStyle,
) {
  if (style === 'classic') {
    return {
      verificationType: 0,
      sms: last ? { dateTime: saDateTime(last.receivedAtMs), code: last.code, text: last.text } : null,
      call: null,
    };
  }
  return {
    verificationType: 'sms',
    data: last
      ? {
          id: Number(activation.id),
          phoneFrom: last.from,
          code: last.code,
          text: last.text,
          service: activation.service,
          date: rfc3339(last.receivedAtMs),
          type: 'sms',
        }
      : null,
  };
}

/** One SMS of a rented number as getRentStatus lists it. */
export function rentMessageBody(
  sms: { from: string; text: string; receivedAtMs: number },
  service: string,
  style: ResponseStyle,
) {
  return {
    phoneFrom: sms.from,
    text: sms.text,
    service,
    date: style === 'classic' ? saDateTime(sms.receivedAtMs) : rfc3339(sms.receivedAtMs),
  };
}

/** getRentStatus's page size when a call asks for a page without naming one (`size`). */
export const DEFAULT_RENT_STATUS_PAGE_SIZE = 10;

/**
 * getRentStatus's answer: one page of the rent's SMS, newest first, and how many it has in all. Classic
 * servers key the list by position and write the total as a string; newer ones (Hero's era) send an array,
 * a number, the rent's service and the currency.
 */
export function rentStatusBody(
  page: ReadonlyArray<{ from: string; text: string; receivedAtMs: number }>,
  total: number,
  service: string,
  style: ResponseStyle,
) {
  const values = page.map((sms) => rentMessageBody(sms, service, style));
  return style === 'classic'
    ? { status: 'success', quantity: String(total), values: indexed(values) }
    : { status: 'success', quantity: total, service, currency: USD_CURRENCY, values };
}
