import { countryById, rentServices, services } from '@simcode/contract';
import { type PriceTier, SMS_ACTIVATE_COUNTRY_IDS } from '@simcode/sms-activate-protocol';
import { hashUnit } from './random';

/** Real operator keys as SMS-Activate-style providers list them, for the countries that have many numbers. */
const OPERATORS: Readonly<Record<string, readonly string[]>> = {
  US: ['tmobile', 'verizon', 'att'],
  CA: ['rogers', 'bell', 'telus', 'freedom'],
  GB: ['ee', 'vodafone', 'three', 'o2'],
  DE: ['telekom', 'vodafone', 'o2'],
  FR: ['orange', 'sfr', 'bouygues', 'free'],
  ES: ['movistar', 'vodafone', 'orange', 'yoigo'],
  IT: ['tim', 'vodafone', 'windtre', 'iliad'],
  NL: ['kpn', 'vodafone', 'odido'],
  PL: ['orange', 'play', 'plus', 'tmobile'],
  RO: ['orange', 'vodafone', 'telekom', 'digi'],
  RU: ['mts', 'megafon', 'beeline', 'tele2', 'yota'],
  UA: ['kyivstar', 'vodafone', 'lifecell'],
  KZ: ['beeline', 'kcell', 'activ', 'tele2', 'altel'],
  UZ: ['beeline', 'ucell', 'uzmobile', 'mobiuz'],
  GE: ['magti', 'silknet', 'beeline'],
  TR: ['turkcell', 'vodafone', 'turktelekom'],
  IN: ['airtel', 'jio', 'vi', 'bsnl'],
  PK: ['jazz', 'zong', 'telenor', 'ufone'],
  BD: ['grameenphone', 'robi', 'banglalink', 'teletalk'],
  ID: ['telkomsel', 'indosat', 'xl', 'axis', 'smartfren', 'three'],
  PH: ['globe', 'smart', 'tm', 'dito', 'sun'],
  MY: ['maxis', 'celcom', 'digi', 'umobile'],
  VN: ['viettel', 'mobifone', 'vinaphone', 'vietnamobile'],
  TH: ['ais', 'dtac', 'truemove'],
  CN: ['chinamobile', 'chinaunicom', 'chinatelecom'],
  JP: ['docomo', 'au', 'softbank', 'rakuten'],
  KR: ['skt', 'kt', 'lgu'],
  AU: ['telstra', 'optus', 'vodafone'],
  BR: ['vivo', 'claro', 'tim', 'oi'],
  MX: ['telcel', 'movistar', 'att'],
  CO: ['claro', 'movistar', 'tigo'],
  AR: ['claro', 'movistar', 'personal'],
  PE: ['claro', 'movistar', 'entel', 'bitel'],
  CL: ['entel', 'movistar', 'claro', 'wom'],
  NG: ['mtn', 'airtel', 'glo', '9mobile'],
  KE: ['safaricom', 'airtel', 'telkom'],
  ZA: ['vodacom', 'mtn', 'cellc', 'telkom'],
  EG: ['vodafone', 'orange', 'etisalat', 'we'],
  SA: ['stc', 'mobily', 'zain'],
  AE: ['etisalat', 'du'],
};

/** Price level of a country's numbers, relative to the cheapest markets. */
const PREMIUM = new Set('US GB CA AU DE FR NL SE CH NO DK FI IE AT BE JP KR IL SG NZ LU IS HK'.split(' '));
const MID = new Set(
  'PL ES IT PT CZ GR RO BG HU HR SK SI LT LV EE TR BR MX AR CL CO PE AE SA QA KW BH OM TW MY TH ZA UA MO CY MT'.split(
    ' ',
  ),
);
const CHEAP = new Set('RU KZ ID PH VN IN PK BD NG KE EG MA UZ KG MM KH LA CN GH TZ UG ET NP LK'.split(' '));
/** Countries with deep stock; the rest have hundreds or thousands of numbers per service. */
const LARGE = new Set(
  'US GB RU IN ID PH VN BR MX KZ UA MY TH CN NG KE EG PL DE FR CA CO ZA PK BD UZ'.split(' '),
);

/** Typical price of a service in a cheap market, in USD: messengers and money apps cost more. */
const SERVICE_BASE_USD: Readonly<Record<string, number>> = {
  tg: 0.5,
  wa: 0.55,
  wb: 0.6,
  go: 0.3,
  fb: 0.15,
  ig: 0.15,
  tw: 0.2,
  vk: 0.2,
  ok: 0.1,
  vi: 0.12,
  ds: 0.25,
  lf: 0.15,
  oi: 0.35,
  mo: 0.3,
  qv: 0.2,
  dr: 0.4,
  acz: 0.4,
  am: 0.25,
  wx: 0.35,
  ts: 0.4,
  aon: 0.45,
  re: 0.45,
  ij: 0.45,
  ub: 0.2,
  ot: 0.08,
  mm: 0.12,
  mb: 0.1,
  ya: 0.12,
  ma: 0.1,
  mt: 0.1,
  bw: 0.3,
  fu: 0.2,
  nf: 0.2,
  kt: 0.35,
  me: 0.25,
  nv: 0.4,
  qq: 0.3,
  hw: 0.3,
  ka: 0.15,
  bt: 0.3,
};
const DEFAULT_SERVICE_BASE_USD = 0.12;

export const MIN_PRICE_USD = 0.05;
export const MAX_PRICE_USD = 3;
/** Prices move once an hour and stock every ten minutes, so a quote stays valid long enough to buy. */
const PRICE_PERIOD_MS = 60 * 60 * 1000;
export const STOCK_PERIOD_MS = 10 * 60 * 1000;
const OUT_OF_STOCK_SHARE = 0.12;

export interface SimCountry {
  /** The SMS-Activate numeric id the simulator answers with. */
  providerId: number;
  iso: string;
  name: string;
  dialCode: string;
  operators: readonly string[];
  rentSupported: boolean;
}

export const SIM_COUNTRIES: readonly SimCountry[] = Object.entries(SMS_ACTIVATE_COUNTRY_IDS).flatMap(
  ([providerId, iso]) => {
    const country = countryById(iso);
    if (!country) return [];
    const operators = OPERATORS[iso] ?? [];
    return [
      {
        providerId: Number(providerId),
        iso,
        name: country.name,
        dialCode: country.dialCode,
        operators,
        rentSupported: operators.length > 0,
      },
    ];
  },
);

const countriesByProviderId = new Map(SIM_COUNTRIES.map((country) => [country.providerId, country]));

export function simCountry(providerId: number): SimCountry | undefined {
  return countriesByProviderId.get(providerId);
}

export const SIM_SERVICES: readonly string[] = services.map((service) => service.code);
/** Services that can be rented: those the contract's rent options point at. */
export const SIM_RENT_SERVICES: readonly string[] = [
  ...new Set(rentServices.map((option) => option.service)),
];

function countryPriceFactor(iso: string): number {
  if (PREMIUM.has(iso)) return 4;
  if (MID.has(iso)) return 1.8;
  if (CHEAP.has(iso)) return 0.6;
  return 1;
}

function roundUsd(value: number): number {
  return Math.round(value * 100) / 100;
}

/** Activation price of a service in a country at a moment, in USD. */
export function activationPrice(seed: number, country: SimCountry, service: string, nowMs: number): number {
  const base = SERVICE_BASE_USD[service] ?? DEFAULT_SERVICE_BASE_USD;
  const spread = 0.75 + 0.5 * hashUnit(seed, 'price', country.iso, service);
  const drift =
    0.95 + 0.1 * hashUnit(seed, 'price-drift', country.iso, service, Math.floor(nowMs / PRICE_PERIOD_MS));
  const price = base * countryPriceFactor(country.iso) * spread * drift;
  return Math.min(MAX_PRICE_USD, Math.max(MIN_PRICE_USD, roundUsd(price)));
}

/** Numbers on offer before this period's sales are taken off. */
export function baseStock(seed: number, country: SimCountry, service: string, nowMs: number): number {
  if (hashUnit(seed, 'stock-empty', country.iso, service) < OUT_OF_STOCK_SHARE) return 0;
  const ceiling = LARGE.has(country.iso) ? 50_000 : country.operators.length > 0 ? 5_000 : 400;
  const level = hashUnit(seed, 'stock', country.iso, service) ** 2;
  const drift =
    0.9 + 0.2 * hashUnit(seed, 'stock-drift', country.iso, service, Math.floor(nowMs / STOCK_PERIOD_MS));
  return Math.max(1, Math.floor(ceiling * level * drift));
}

/** Share of offers that also sell above their listed price (SMS-Activate's Free Price). */
const FREE_PRICE_SHARE = 0.5;
/** The dearer tiers of such an offer, as a multiple of the listed price. */
const FREE_PRICE_STEPS = [1.25, 1.6] as const;

/**
 * Numbers an offer sells above its listed price, cheapest first: on real providers `count` is the stock at
 * any price and only part of it sells at the listed one. Empty for half of the offers and for sold-out ones.
 */
export function freePriceTiers(
  seed: number,
  country: SimCountry,
  service: string,
  listedUsd: number,
  listedStock: number,
): PriceTier[] {
  if (listedStock === 0 || hashUnit(seed, 'free-price', country.iso, service) >= FREE_PRICE_SHARE) return [];
  const tiers: PriceTier[] = [];
  let belowUsd = listedUsd;
  for (const [index, step] of FREE_PRICE_STEPS.entries()) {
    // Near the price ceiling the steps collapse into one price, or into none above the listed one.
    const priceUsd = Math.min(MAX_PRICE_USD, Math.ceil(listedUsd * step * 100) / 100);
    if (priceUsd <= belowUsd) continue;
    const share = 0.05 + 0.3 * hashUnit(seed, 'free-price-stock', country.iso, service, index);
    tiers.push({ priceUsd, stock: Math.max(1, Math.floor(listedStock * share)) });
    belowUsd = priceUsd;
  }
  return tiers;
}

export const MIN_RENT_HOURS = 4;
export const MAX_RENT_HOURS = 8760;
export const MIN_EXTENSION_HOURS = 1;

/** Rent price for a period: a daily rate from the activation price, cheaper per day for longer periods. */
export function rentPrice(
  seed: number,
  country: SimCountry,
  service: string,
  hours: number,
  nowMs: number,
): number {
  const dailyUsd = Math.max(0.5, activationPrice(seed, country, service, nowMs) * 2.5);
  return Math.max(MIN_PRICE_USD, roundUsd(dailyUsd * (hours / 24) ** 0.75));
}

export function baseRentStock(seed: number, country: SimCountry, service: string): number {
  if (hashUnit(seed, 'rent-empty', country.iso, service) < 0.1) return 0;
  return (
    1 + Math.floor(hashUnit(seed, 'rent-stock', country.iso, service) * (LARGE.has(country.iso) ? 400 : 60))
  );
}
