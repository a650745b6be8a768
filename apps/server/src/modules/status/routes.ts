import {
  adminIncidentsResponseSchema,
  incidentOpenRequestSchema,
  incidentParamsSchema,
  incidentResolveRequestSchema,
  incidentUpdateRequestSchema,
  LANGUAGES,
  statusFeedPath,
  statusSchema,
  statusSubscriptionRequestSchema,
  statusSubscriptionSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { inLanguage } from '../../lib/request-language';
import { currentUser } from '../auth/guards';
import { statusFeedXml } from './feed';
import type { StatusService } from './service';

/**
 * The page's data is asked again on every visit: an incident opened or closed must show at once (the server
 * keeps the answer a few seconds itself). Feed readers poll on their own schedule and may keep a minute.
 */
const ANSWER_CACHE_CONTROL = 'no-cache';
const FEED_CACHE_CONTROL = 'public, max-age=60';

/** `/api/v1/status`: the status page's data, open like the Delivery Index (no key). */
export const statusApiRoutes: FastifyPluginAsyncZod<{ status: StatusService }> = async (app, { status }) => {
  app.get(
    '/status',
    {
      schema: {
        tags: ['v1 status'],
        security: [],
        summary: 'The state of the site, its API, payments and each supplier; uptime per day; incidents',
        description:
          'Measured by SimCode’s own synthetic checks, one a minute per component. Suppliers are anonymous ("Supplier A") unless the operator names them. Also as an Atom feed at /status/feed.atom.',
        response: { 200: statusSchema },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', ANSWER_CACHE_CONTROL);
      return status.answer();
    },
  );
};

/** `/status/feed.atom` (and `/ru/…`, `/zh/…`): incidents and their updates for feed readers. */
export const statusFeedRoutes: FastifyPluginAsyncZod<{
  status: StatusService;
  publicUrl: string;
  appName: string;
}> = async (app, { status, publicUrl, appName }) => {
  for (const language of LANGUAGES) {
    app.get(statusFeedPath(language), { schema: { hide: true } }, async (_request, reply) => {
      const answer = await status.answer();
      reply.header('cache-control', FEED_CACHE_CONTROL).type('application/atom+xml; charset=utf-8');
      return inLanguage(language, () => statusFeedXml(answer, publicUrl, appName, language));
    });
  }
};

/** A signed-in user's e-mail notices of incidents (the user guard runs before these). */
export const statusSubscriptionRoutes: FastifyPluginAsyncZod<{ status: StatusService }> = async (
  app,
  { status },
) => {
  const tags = ['status'];
  app.get(
    '/subscription',
    {
      schema: {
        tags,
        summary: 'Whether you get e-mail when an incident opens and closes',
        response: { 200: statusSubscriptionSchema },
      },
    },
    async (request) => ({
      success: true as const,
      subscribed: await status.subscribed(currentUser(request).id),
    }),
  );
  app.put(
    '/subscription',
    {
      schema: {
        tags,
        summary: 'Get e-mail when an incident opens and closes, or stop',
        body: statusSubscriptionRequestSchema,
        response: { 200: statusSubscriptionSchema },
      },
    },
    async (request) => {
      await status.setSubscribed(currentUser(request).id, request.body.subscribed);
      return { success: true as const, subscribed: request.body.subscribed };
    },
  );
};

/** The console's incidents (the administrator guard runs before these). */
export const adminIncidentRoutes: FastifyPluginAsyncZod<{ status: StatusService }> = async (
  app,
  { status },
) => {
  const tags = ['admin'];
  const done = z.object({ success: z.literal(true), id: z.number().int() });
  app.get(
    '/incidents',
    {
      schema: {
        tags,
        summary: 'Every incident, open first, with its updates',
        response: { 200: adminIncidentsResponseSchema },
      },
    },
    () => status.adminList(),
  );
  app.post(
    '/incidents',
    {
      schema: {
        tags,
        summary: 'Open an incident on a component, with its first update in each language',
        body: incidentOpenRequestSchema,
        response: { 200: done },
      },
    },
    async (request) => ({
      success: true as const,
      id: await status.openManual(currentUser(request), request.body),
    }),
  );
  app.post(
    '/incidents/:id/updates',
    {
      schema: {
        tags,
        summary: 'Add an update to an open incident',
        params: incidentParamsSchema,
        body: incidentUpdateRequestSchema,
        response: { 200: done },
      },
    },
    async (request) => {
      await status.update(currentUser(request), request.params.id, request.body);
      return { success: true as const, id: request.params.id };
    },
  );
  app.post(
    '/incidents/:id/resolve',
    {
      schema: {
        tags,
        summary: 'Close an open incident with its final update',
        params: incidentParamsSchema,
        body: incidentResolveRequestSchema,
        response: { 200: done },
      },
    },
    async (request) => {
      await status.resolveManual(currentUser(request), request.params.id, request.body);
      return { success: true as const, id: request.params.id };
    },
  );
};
