import {
  countriesAnswer,
  operatorsAnswer,
  type PriceReading,
  type ProviderAnswer,
  pricesAnswer,
  readPriceEntry,
  topCountriesAnswer,
  topCountryEntry,
} from '@simcode/sms-activate-protocol';
import { type UpstreamCatalog, UpstreamError, type UpstreamOffer } from '../types';
import type { Connection } from './connection';

/** The provider's catalog: countries with their operators, and an offer per country and service. */
export async function readCatalog(connection: Connection): Promise<UpstreamCatalog> {
  const { call, readJson, optionalCall, ids, log, name } = connection;

  /** One price-list entry, named by the provider's ids, read (undefined: of no shape we know). */
  interface PriceEntry {
    country: string;
    service: string;
    reading: PriceReading | undefined;
  }

  /** Reads a list keyed outer → inner → entry; `countryFirst` for getPrices, service first otherwise. */
  function priceEntries(action: string, answer: ProviderAnswer, countryFirst: boolean): PriceEntry[] {
    return Object.entries(readJson(action, answer, pricesAnswer, 'read')).flatMap(([outer, row]) =>
      Object.entries(row).map(([inner, entry]) => ({
        country: countryFirst ? outer : inner,
        service: countryFirst ? inner : outer,
        reading: readPriceEntry(entry),
      })),
    );
  }

  /**
   * An action that only refines the prices: undefined where the provider lacks it (`absentTokens` as for
   * optionalCall) or answers it badly, for without it the catalog is still right, if less exact.
   */
  async function refinement<T>(
    action: string,
    absentTokens: readonly string[],
    read: (answer: ProviderAnswer) => T,
  ): Promise<T | undefined> {
    try {
      const answer = await optionalCall(action, { freePrice: 'true' }, absentTokens);
      return answer && read(answer);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      log?.warn({ provider: name, action, token: error.token }, 'price tiers unreadable, reading getPrices');
      return undefined;
    }
  }

  /**
   * The catalog's prices, in one call per refresh where the provider allows. getPrices' `count` is the stock
   * at any price; the stock at the listed price comes from tiers: getPricesVerification's (service → country
   * → entry), or, where there is none, getTopCountriesByService's for every service (Hero; SMS-Activate
   * wants a service there and says BAD_SERVICE). getPrices is asked unless the tiers cover every entry.
   */
  async function readPrices(): Promise<PriceEntry[]> {
    const verification = await refinement('getPricesVerification', [], (answer) =>
      priceEntries('getPricesVerification', answer, false),
    );
    // An empty list says nothing about getPrices' entries.
    if (verification?.length && verification.every((entry) => entry.reading?.atCost !== false))
      return verification;
    const [prices, top] = await Promise.all([
      call('getPrices', {}, 'read').then((answer) => priceEntries('getPrices', answer, true)),
      verification ? [] : refinement('getTopCountriesByService', ['BAD_SERVICE'], topCountryEntries),
    ]);
    // Later entries refine earlier ones (getCatalog ranks them): the prices first.
    return [...prices, ...(verification ?? top ?? [])];
  }

  function topCountryEntries(answer: ProviderAnswer): PriceEntry[] {
    return readJson('getTopCountriesByService', answer, topCountriesAnswer, 'read').flatMap((lists) =>
      Object.entries(lists).flatMap(([service, entries]) =>
        entries.flatMap((entry) => {
          const country = topCountryEntry.safeParse(entry);
          return country.success
            ? [{ country: country.data.country, service, reading: readPriceEntry(entry) }]
            : [];
        }),
      ),
    );
  }

  const [countryAnswer, operatorAnswer, prices] = await Promise.all([
    call('getCountries', {}, 'read'),
    call('getOperators', {}, 'read'),
    readPrices(),
  ]);
  const providerCountries = readJson('getCountries', countryAnswer, countriesAnswer, 'read');
  // A provider without operator lists answers OPERATORS_NOT_FOUND: every country then has only "any".
  const operators =
    operatorAnswer.type === 'error' && operatorAnswer.token === 'OPERATORS_NOT_FOUND'
      ? {}
      : readJson('getOperators', operatorAnswer, operatorsAnswer, 'read').countryOperators;

  const countries = providerCountries.flatMap((country) => {
    const countryId = ids.countryToIso(country.id);
    if (countryId === undefined || country.visible === false) return [];
    const operatorKeys = (operators[country.id] ?? []).map((key) => key.trim().toLowerCase());
    return [
      {
        countryId,
        operators: [...new Set(operatorKeys)].filter((key) => key !== '' && key !== 'any'),
        rentSupported: country.rent === true,
      },
    ];
  });
  const offers = new Map<string, UpstreamOffer & { rank: number }>();
  let skipped = 0;
  for (const { country, service: providerCode, reading } of prices) {
    const countryId = ids.countryToIso(country);
    const service = ids.serviceToCanonical(providerCode);
    if (countryId === undefined || service === undefined) continue;
    if (!reading) {
      skipped += 1;
      continue;
    }
    // Stock known to sell at the price beats a bare count; then stock beats none; getPrices breaks ties.
    const rank = (reading.atCost ? 2 : 0) + (reading.stock > 0 ? 1 : 0);
    const key = `${countryId}:${service}`;
    if ((offers.get(key)?.rank ?? -1) < rank)
      offers.set(key, { countryId, service, cost: reading.cost, stock: reading.stock, rank });
  }
  // One provider's odd entry (`cost: null`, a shape of its own) must not cost the whole catalog.
  if (skipped > 0) log?.warn({ provider: name, skipped }, 'skipped price entries of no known shape');
  return {
    countries,
    offers: [...offers.values()].map(({ rank: _rank, ...offer }) => offer),
  };
}
