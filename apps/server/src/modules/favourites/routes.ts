import { favouriteRequestSchema, favouritesResponseSchema } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { currentUser } from '../auth/guards';
import type { FavouritesService } from './service';

/** Starred services and pairs, and the last purchases: what the dashboard offers first, one click to buy. */
export const favouriteRoutes: FastifyPluginAsyncZod<{ favourites: FavouritesService }> = async (
  app,
  { favourites },
) => {
  app.get(
    '/favourites',
    {
      schema: {
        tags: ['numbers'],
        summary: "The user's starred services and pairs, and their last five different purchases",
        response: { 200: favouritesResponseSchema },
      },
    },
    async (request) => favourites.list(currentUser(request).id),
  );

  app.put(
    '/favourites',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Star or unstar a service (every country) or a (service, country) pair',
        body: favouriteRequestSchema,
        response: { 200: favouritesResponseSchema },
      },
    },
    async (request) => favourites.set(currentUser(request).id, request.body),
  );
};
