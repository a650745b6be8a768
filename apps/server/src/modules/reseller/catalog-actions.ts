import { centsToDollars } from '@simcode/contract';
import {
  countryBody,
  flagParam,
  formatUsd,
  indexed,
  json,
  numbersStatusBody,
  type Params,
  ProtocolRefusal,
  pricesVerificationBody,
  protocolIds,
  serviceParam,
  text,
  topCountryBody,
} from '@simcode/sms-activate-protocol';
import { ANY_OPERATOR, type CatalogOffer } from '../catalog/service';
import type { Handler, ResellerDeps } from './deps';
import { browsing, countryIsoParam, operatorParam } from './handler-params';

const TOP_COUNTRIES = 10;

/** The one shelf our price list has per offer: every number of it sells at its price. */
const tiersOf = (offer: CatalogOffer) => [{ priceUsd: centsToDollars(offer.priceCents), stock: offer.stock }];

/**
 * The account's balance and the catalog as the protocol lists it: countries, services, operators, prices
 * and stock, from our catalog (the customer's prices, in USD) and never from an upstream.
 */
export function createCatalogActions(deps: ResellerDeps): Record<string, Handler> {
  const { catalog, rentals, money } = deps;

  /** The country a call names (`country`), or every country. */
  function countriesOf(params: Params): string[] {
    if (params.country?.trim()) return [countryIsoParam(params)];
    return catalog.countries().map((country) => country.id);
  }

  /** Every offer of the countries a call names that the protocol has an id for, for its `service` or all. */
  function offersOf(params: Params) {
    const service = params.service?.trim() ? serviceParam(params) : undefined;
    return countriesOf(params).flatMap((countryId) => {
      const country = protocolIds.countryOf(countryId);
      if (country < 0) return [];
      return catalog
        .services(countryId)
        .filter((offer) => !service || offer.service === service)
        .map((offer) => ({ country, offer }));
    });
  }

  const balance: Handler = async ({ key }) =>
    text(`ACCESS_BALANCE:${formatUsd(centsToDollars(await money.balanceCents(key.userId)))}`);

  return {
    getBalance: balance,
    getBalanceAndCashBack: balance,

    getCountries: async ({ key }) => {
      const rentCountries = new Set(
        await rentals.catalog.countries(browsing(key)).catch(() => [] as string[]),
      );
      return json(
        Object.fromEntries(
          catalog
            .countries()
            .map((country) => ({ country, id: protocolIds.countryOf(country.id) }))
            .filter(({ id }) => id >= 0)
            .map(({ country, id }) => [
              String(id),
              // Every supplier kind delivers another SMS on a number (status 3): `retry` is 1 everywhere.
              countryBody({ id, iso: country.id, name: country.name, rent: rentCountries.has(country.id) }),
            ]),
        ),
      );
    },

    getServicesList: ({ params }) => {
      const seen = new Map<string, string>();
      for (const countryId of countriesOf(params))
        for (const offer of catalog.services(countryId)) seen.set(offer.service, offer.name);
      return json({
        status: 'success',
        services: [...seen].map(([code, name]) => ({ code: protocolIds.serviceOf(code), name })),
      });
    },

    getOperators: ({ params }) => {
      const asked = params.country?.trim() ? countryIsoParam(params) : undefined;
      const listed = catalog
        .countries()
        .filter((country) => !asked || country.id === asked)
        .map(
          (country) =>
            [
              String(protocolIds.countryOf(country.id)),
              country.operators.map((o) => o.key).filter((k) => k !== ANY_OPERATOR),
            ] as const,
        )
        .filter(([id, operators]) => id !== '-1' && operators.length > 0);
      if (listed.length === 0) throw new ProtocolRefusal('OPERATORS_NOT_FOUND');
      return json({ status: 'success', countryOperators: Object.fromEntries(listed) });
    },

    getPrices: ({ params }) => {
      const prices: Record<string, Record<string, { cost: number; count: number }>> = {};
      for (const { country, offer } of offersOf(params)) {
        prices[String(country)] ??= {};
        prices[String(country)]![protocolIds.serviceOf(offer.service)] = {
          cost: centsToDollars(offer.priceCents),
          count: offer.stock,
        };
      }
      return json(prices);
    },

    // DaisySMS's inverse of getPrices (service → country), which clients of the family read service names from.
    getPricesVerification: ({ params }) =>
      json(
        pricesVerificationBody(
          offersOf(params).map(({ country, offer }) => ({
            service: protocolIds.serviceOf(offer.service),
            country,
            count: offer.stock,
            priceUsd: centsToDollars(offer.priceCents),
            tiers: tiersOf(offer),
          })),
          flagParam(params.freePrice),
        ),
      ),

    getTopCountriesByService: ({ params, style }) => {
      const service = params.service?.trim() ? serviceParam(params) : undefined;
      const ranked = catalog
        .countries()
        .flatMap((country) =>
          catalog
            .services(country.id)
            .filter((offer) => offer.stock > 0 && (!service || offer.service === service))
            .map((offer) => ({ id: protocolIds.countryOf(country.id), offer })),
        )
        .filter(({ id }) => id >= 0)
        .sort((left, right) => right.offer.stock - left.offer.stock)
        .slice(0, TOP_COUNTRIES);
      return json(
        indexed(
          ranked.map(({ id, offer }) =>
            topCountryBody(
              {
                country: id,
                count: offer.stock,
                priceUsd: centsToDollars(offer.priceCents),
                retailPriceUsd: centsToDollars(offer.priceCents),
                tiers: tiersOf(offer),
              },
              style,
              flagParam(params.freePrice),
            ),
          ),
        ),
      );
    },

    // Stock per service in a country (Russia, SMS-Activate's default, when none is named); no number of ours
    // forwards calls, so every `_1` count is 0.
    getNumbersStatus: ({ params }) => {
      const countryId = countryIsoParam(params);
      const operator = operatorParam(params, countryId, catalog);
      return json(
        numbersStatusBody(
          catalog
            .services(countryId, operator)
            .map((offer) => [protocolIds.serviceOf(offer.service), offer.stock] as const),
        ),
      );
    },
  };
}
