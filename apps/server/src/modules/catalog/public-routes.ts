import { serviceByCode, serviceCountriesResponseSchema, statsServiceParamsSchema } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PrecomputedJson, sendPrecompressed } from '../../lib/precompressed';
import { serviceCountriesEntry } from './routes';
import type { CatalogService } from './service';

/** Anyone may keep a price list for a minute: the catalog refreshes every minute. */
const publicHeaders = {
  contentType: 'application/json; charset=utf-8',
  cacheControl: 'public, max-age=60',
};

/**
 * The public price list under `/api/v1` (issue 34): what a service costs in every country selling it, the
 * stock and our delivery figures, readable without an account, as the leaders publish theirs. The same
 * answer the signed-in "By service" gets; a purchase still checks the price it was shown.
 */
export const publicPriceRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (
  app,
  { catalog },
) => {
  const answers = new PrecomputedJson();
  app.get(
    '/prices/:service',
    {
      schema: {
        tags: ['v1 prices'],
        security: [],
        summary: 'Our price, the stock and delivery figures of a service in every country selling it',
        params: statsServiceParamsSchema,
        response: { 200: serviceCountriesResponseSchema },
      },
    },
    async (request, reply) =>
      sendPrecompressed(
        request,
        reply,
        serviceCountriesEntry(catalog, answers, request.params.service),
        publicHeaders,
      ),
  );
};

/**
 * A service's offers now, in cents, for the HTML of its public price list's page; null for a service not in
 * the list, or before the catalog has loaded (the page then comes without prices, and the app loads them).
 */
export function servicePricesOf(catalog: CatalogService, service: string) {
  const known = serviceByCode(service);
  if (!known || !catalog.isLoaded()) return null;
  return {
    service: { id: known.code, name: known.name },
    countries: catalog.countriesSelling(service).map(({ country, offer }) => ({
      countryID: country.id,
      name: country.name,
      priceCents: offer.priceCents,
      stock: offer.stock,
    })),
  };
}
