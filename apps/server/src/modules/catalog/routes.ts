import {
  centsToDollars,
  countriesResponseSchema,
  serviceByCode,
  serviceCountriesQuerySchema,
  serviceCountriesResponseSchema,
  servicesQuerySchema,
  servicesResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../lib/errors';
import { PrecomputedJson, sendPrecompressed } from '../../lib/precompressed';
import { ANY_OPERATOR, type CatalogCountry, type CatalogOffer, type CatalogService } from './service';

/** Browsers may reuse a catalog answer this long; the catalog itself refreshes every minute. */
const catalogHeaders = {
  contentType: 'application/json; charset=utf-8',
  // Revalidated on every load (a 304 while the catalog is unchanged): a new price shows on the next page
  // load, as the price shown must be the price charged.
  cacheControl: 'private, no-cache',
};

/**
 * Every country selling a service, with our price, the stock and our delivery figures: built once per
 * catalog version for the dashboard's "By service" and the public price list alike.
 */
export function serviceCountriesEntry(catalog: CatalogService, answers: PrecomputedJson, service: string) {
  const known = serviceByCode(service);
  if (!known) throw fail('unknown_service');
  // A cached answer costs a map lookup, not a walk over the countries.
  return answers.get(`service-countries:${service}`, catalog.version(), () => ({
    success: true,
    service: { id: known.code, name: known.name },
    countries: catalog.countriesSelling(service).map(({ country, offer }) => ({
      countryID: country.id,
      name: country.name,
      code: country.code,
      price: centsToDollars(offer.priceCents),
      stock: offer.stock,
      delivery: catalog.deliveryOf(service, country.id),
    })),
  }));
}

/** What "By country" shows beside a country: its lowest price in stock, its stock, and our week's orders there. */
function countryFigures(catalog: CatalogService, country: CatalogCountry) {
  const offers = catalog.services(country.id);
  let orders = 0;
  for (const offer of offers) orders += catalog.deliveryOf(offer.service, country.id)?.orders ?? 0;
  return {
    ...offerFigures(offers),
    orders,
    // Each operator's own, where the country has any: a buyer who wants one sees what it costs first.
    operatorFigures: Object.fromEntries(
      country.operators
        .filter((operator) => operator.key !== ANY_OPERATOR)
        .map((operator) => [operator.key, offerFigures(catalog.services(country.id, operator.key))]),
    ),
  };
}

/** The lowest price in stock (dollars; null when nothing is) and the stock over some offers. */
function offerFigures(offers: readonly CatalogOffer[]) {
  let fromPriceCents: number | null = null;
  let stock = 0;
  for (const offer of offers) {
    stock += offer.stock;
    if (offer.stock > 0 && (fromPriceCents === null || offer.priceCents < fromPriceCents))
      fromPriceCents = offer.priceCents;
  }
  return { fromPrice: fromPriceCents === null ? null : fromPriceCents / 100, stock };
}

export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (app, { catalog }) => {
  // The same for every user until the next refresh: built, serialized and compressed once per version.
  const answers = new PrecomputedJson();
  const version = () => catalog.version();

  app.get(
    '/countries',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Countries with their operators',
        response: { 200: countriesResponseSchema },
      },
    },
    async (request, reply) => {
      const countries = catalog.countries();
      const entry = answers.get('countries', version(), () => ({
        success: true,
        countries: countries.map((country) => ({
          id: country.id,
          name: country.name,
          code: country.code,
          dialCode: country.dialCode,
          operators: Object.fromEntries(country.operators.map((operator) => [operator.key, operator.name])),
          ...countryFigures(catalog, country),
        })),
      }));
      return sendPrecompressed(request, reply, entry, catalogHeaders);
    },
  );

  app.get(
    '/services',
    {
      schema: {
        tags: ['catalog'],
        summary: "A country's services with our price and the stock (out of stock ones included)",
        querystring: servicesQuerySchema,
        response: { 200: servicesResponseSchema },
      },
    },
    async (request, reply) => {
      const { countryID, operator } = request.query;
      // Validates the country and operator (4xx) before anything is cached under their names.
      const offers = catalog.services(countryID, operator);
      const entry = answers.get(`services:${countryID}:${operator}`, version(), () => ({
        success: true,
        services: offers.map((offer) => ({
          id: offer.service,
          name: offer.name,
          price: centsToDollars(offer.priceCents),
          stock: offer.stock,
          delivery: catalog.deliveryOf(offer.service, countryID, operator),
        })),
      }));
      return sendPrecompressed(request, reply, entry, catalogHeaders);
    },
  );

  app.get(
    '/service-countries',
    {
      schema: {
        tags: ['catalog'],
        summary: 'Every country selling a service, with our price, the stock and our delivery figures',
        querystring: serviceCountriesQuerySchema,
        response: { 200: serviceCountriesResponseSchema },
      },
    },
    async (request, reply) =>
      sendPrecompressed(
        request,
        reply,
        serviceCountriesEntry(catalog, answers, request.query.service),
        catalogHeaders,
      ),
  );
};
