import {
  apiV1BalanceSchema,
  apiV1LedgerSchema,
  apiV1OffersQuerySchema,
  apiV1OffersSchema,
  apiV1PageQuerySchema,
  findCountry,
  findService,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { fail } from '../../lib/errors';
import { clearsDeliveryFloor, knownDeliveryRate } from '../orders/hold';
import { cursorAfter, positionOf } from './cursor';
import type { ApiV1Deps } from './deps';

export const TAGS = { offers: 'v1 offers', orders: 'v1 orders', rents: 'v1 rents', account: 'v1 account' };
export const asKey = [{ apiKey: [] }];

/** The country and service a request names, as people write them, or a 400 naming the one not known. */
export function namedChoice(names: { country?: string; service?: string }) {
  const country = names.country === undefined ? undefined : findCountry(names.country);
  if (names.country !== undefined && !country) throw fail('unknown_country');
  const service = names.service === undefined ? undefined : findService(names.service);
  if (names.service !== undefined && !service) throw fail('unknown_service');
  return { countryId: country?.id, service: service?.code };
}

/** Offers, the balance and the ledger. */
export const accountRoutes: FastifyPluginAsyncZod<ApiV1Deps> = async (app, { catalog, money }) => {
  app.get(
    '/offers',
    {
      config: { need: 'own' },
      schema: {
        tags: [TAGS.offers],
        security: asKey,
        summary: 'What is on sale: price, stock and SimCode’s own delivery figures per service and country',
        querystring: apiV1OffersQuerySchema,
        response: { 200: apiV1OffersSchema },
      },
    },
    async (request) => {
      const { countryId, service } = namedChoice(request.query);
      const floor = request.query.min_delivery_rate;
      const data = catalog
        .countries()
        .filter((country) => !countryId || country.id === countryId)
        .flatMap((country) =>
          catalog
            .services(country.id)
            .filter((offer) => !service || offer.service === service)
            .filter((offer) => clearsDeliveryFloor(catalog.deliveryOf(offer.service, country.id), floor))
            .map((offer) => {
              const figures = catalog.deliveryOf(offer.service, country.id);
              return {
                country: country.id,
                country_name: country.name,
                service: offer.service,
                service_name: offer.name,
                price: offer.priceCents / 100,
                in_stock: offer.stock,
                delivery: {
                  rate: knownDeliveryRate(figures),
                  median_seconds: figures?.median_seconds ?? null,
                  orders: figures?.orders ?? 0,
                },
              };
            }),
        );
      return { data };
    },
  );

  app.get(
    '/balance',
    {
      config: { need: 'own' },
      schema: {
        tags: [TAGS.account],
        security: asKey,
        summary: 'The balance, and what live orders could still return to it (dollars)',
        response: { 200: apiV1BalanceSchema },
      },
    },
    async (request) => money.balance(request.resellerKey!.userId),
  );

  app.get(
    '/ledger',
    {
      schema: {
        tags: [TAGS.account],
        security: asKey,
        summary: 'Every change of the balance, newest first',
        querystring: apiV1PageQuerySchema,
        response: { 200: apiV1LedgerSchema },
      },
    },
    async (request) => {
      const { limit, cursor } = request.query;
      const ledger = await money.ledger(request.resellerKey!.userId, { limit, before: positionOf(cursor) });
      return { data: ledger.entries, next_cursor: cursorAfter(ledger.next_before) };
    },
  );
};
