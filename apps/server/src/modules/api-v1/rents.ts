import {
  apiV1IdParamSchema,
  apiV1PageQuerySchema,
  apiV1RenewRequestSchema,
  apiV1RentRequestSchema,
  apiV1RentSchema,
  apiV1RentsSchema,
  parseRentPeriod,
  rentMessages,
  rentServices,
} from '@simcode/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RentRow } from '../../db/schema';
import { fail, notFound } from '../../lib/errors';
import { keySees } from '../api-keys/key-check';
import { asKey, namedChoice, TAGS } from './account';
import { pageOf, positionOf } from './cursor';
import type { ApiV1Deps } from './deps';
import type { WriteHooks } from './orders';

/** Rents: rent, list, read, cancel, renew. Long-term (hours) and renewable (weeks, months) alike. */
export const rentRoutes: FastifyPluginAsyncZod<ApiV1Deps & { writes: WriteHooks }> = async (app, deps) => {
  const { rentals, apiKeys } = deps;
  const schema = { tags: [TAGS.rents], security: asKey };

  async function visibleRent(request: FastifyRequest, id: number): Promise<RentRow> {
    const key = request.resellerKey!;
    const rent = await rentals.findOwnById(key.userId, id);
    if (!rent || !keySees(key, rent)) throw notFound();
    return rent;
  }

  app.post(
    '/rents',
    {
      config: { need: 'buy' },
      ...deps.writes,
      schema: {
        ...schema,
        summary: 'Rent a number for a period: hours (long-term), or weeks and months (renewable)',
        body: apiV1RentRequestSchema,
        response: { 201: apiV1RentSchema },
      },
    },
    async (request, reply) => {
      const key = request.resellerKey!;
      const { countryId, service } = namedChoice(request.body);
      const option = rentServices.find((entry) => entry.service === service);
      if (!option) throw fail('unknown_service', rentMessages.unknownService);
      const rent = await rentals.rent(
        key.userId,
        {
          countryId: countryId!,
          serviceKey: option.key,
          period: parseRentPeriod(request.body.period)!,
          autoRenew: request.body.auto_renew,
        },
        apiKeys.spendThrough(key),
      );
      return reply.code(201).send(await rentals.presentOne(rent));
    },
  );

  app.get(
    '/rents',
    {
      config: { need: 'own' },
      schema: {
        ...schema,
        summary: 'The account’s rents, newest first (a buy-only key sees the ones it rented)',
        querystring: apiV1PageQuerySchema,
        response: { 200: apiV1RentsSchema },
      },
    },
    async (request) => {
      const key = request.resellerKey!;
      const { limit, cursor } = request.query;
      const only = key.record.scope === 'buy' ? key.id : undefined;
      const rows = await rentals.listRows(key.userId, limit + 1, positionOf(cursor), only);
      const { page, next_cursor } = pageOf(rows, limit);
      return { data: await rentals.present(page), next_cursor };
    },
  );

  app.get(
    '/rents/:id',
    {
      config: { need: 'own', poll: true },
      schema: {
        ...schema,
        summary: 'One rent',
        params: apiV1IdParamSchema,
        response: { 200: apiV1RentSchema },
      },
    },
    async (request) => rentals.presentOne(await visibleRent(request, request.params.id)),
  );

  app.post(
    '/rents/:id/cancel',
    {
      config: { need: 'buy' },
      ...deps.writes,
      schema: {
        ...schema,
        summary: 'Cancel a rent within 20 minutes and before any SMS (refunded once)',
        params: apiV1IdParamSchema,
        response: { 200: apiV1RentSchema },
      },
    },
    async (request) => {
      const rent = await visibleRent(request, request.params.id);
      return rentals.presentOne(await rentals.cancel(rent.userId, String(rent.id)));
    },
  );

  app.post(
    '/rents/:id/renew',
    {
      config: { need: 'buy' },
      ...deps.writes,
      schema: {
        ...schema,
        summary: 'Extend a rent by `hours`, at the price quoted now (charged once, against the key’s caps)',
        params: apiV1IdParamSchema,
        body: apiV1RenewRequestSchema,
        response: { 200: apiV1RentSchema },
      },
    },
    async (request) => {
      const key = request.resellerKey!;
      const rent = await visibleRent(request, request.params.id);
      const renewed = await rentals.renew(
        key.userId,
        String(rent.id),
        request.body.hours,
        apiKeys.spendThrough(key),
      );
      return rentals.presentOne(renewed);
    },
  );
};
