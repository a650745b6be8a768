import {
  statsCountryParamsSchema,
  statsCountrySchema,
  statsQuerySchema,
  statsSchema,
  statsServiceParamsSchema,
  statsServiceSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SerializedAnswers } from '../../lib/compress-answers';
import { fail } from '../../lib/errors';
import type { DeliveryIndex } from './delivery-index';
import { STATS_CACHE_MS } from './delivery-index';

const TAG = 'v1 stats';
/** Open data: no key, and shared caches may keep an answer as long as the server does. */
const CACHE_CONTROL = `public, max-age=${STATS_CACHE_MS / 1000}`;
const LICENCE_NOTE =
  'Open data under CC BY 4.0: counted from SimCode’s own settled orders, across suppliers, frozen once a UTC day closes.';

/** The public SMS Delivery Index under `/api/v1` (issue 30): JSON, CSV and one service's or country's page data. */
export const statsRoutes: FastifyPluginAsyncZod<{ deliveryIndex: DeliveryIndex }> = async (
  app,
  { deliveryIndex },
) => {
  // Each window's answer is one object for a minute: serialized and compressed once, not per request.
  const answers = new SerializedAnswers();
  app.get(
    '/stats',
    {
      schema: {
        tags: [TAG],
        security: [],
        summary: 'The SMS Delivery Index: delivery rate and time to code per service and country',
        description: LICENCE_NOTE,
        querystring: statsQuerySchema,
        response: { 200: statsSchema },
      },
    },
    async (request, reply) => {
      const answer = await deliveryIndex.window(request.query.window);
      return answers.send(request, reply.header('cache-control', CACHE_CONTROL), answer, () => answer);
    },
  );

  app.get(
    '/stats.csv',
    {
      schema: {
        tags: [TAG],
        security: [],
        summary: 'The SMS Delivery Index as CSV (the JSON rows’ fields as columns)',
        description: LICENCE_NOTE,
        querystring: statsQuerySchema,
        response: { 200: z.string().describe('text/csv') },
      },
    },
    async (request, reply) => {
      const { window } = request.query;
      reply
        .header('cache-control', CACHE_CONTROL)
        .header('content-disposition', `attachment; filename="simcode-delivery-index-${window}.csv"`)
        .type('text/csv; charset=utf-8');
      return deliveryIndex.csv(window);
    },
  );

  app.get(
    '/stats/country/:country',
    {
      schema: {
        tags: [TAG],
        security: [],
        summary: 'One country of the index: every service, and its daily delivery rate and median time',
        description: LICENCE_NOTE,
        params: statsCountryParamsSchema,
        querystring: statsQuerySchema,
        response: { 200: statsCountrySchema },
      },
    },
    async (request, reply) => {
      const answer = await deliveryIndex.country(request.query.window, request.params.country);
      if (!answer) throw fail('unknown_country');
      return answers.send(request, reply.header('cache-control', CACHE_CONTROL), answer, () => answer);
    },
  );

  app.get(
    '/stats/:service',
    {
      schema: {
        tags: [TAG],
        security: [],
        summary: 'One service of the index: every country, and its daily delivery rate and median time',
        description: LICENCE_NOTE,
        params: statsServiceParamsSchema,
        querystring: statsQuerySchema,
        response: { 200: statsServiceSchema },
      },
    },
    async (request, reply) => {
      const answer = await deliveryIndex.service(request.query.window, request.params.service);
      if (!answer) throw fail('unknown_service');
      return answers.send(request, reply.header('cache-control', CACHE_CONTROL), answer, () => answer);
    },
  );
};
