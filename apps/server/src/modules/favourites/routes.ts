import {
  buyingMessages,
  countryById,
  FAVOURITES_MAX,
  type FavouritesResponse,
  favouriteRequestSchema,
  favouritesResponseSchema,
  RECENT_PURCHASES,
  serviceByCode,
  serviceDisplayName,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/container';
import { badRequest, conflict } from '../../lib/errors';
import { createGuards, currentUser } from '../auth/guards';
import { displayNames } from '../orders/activations/presenter';
import { createFavouritesRepository } from './repository';

/** Starred services and pairs, and the last purchases: what the dashboard offers first, one click to buy. */
export const favouriteRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { requireUser } = createGuards(ctx.auth);
  // Who is calling is settled on the request line, before any input is judged.
  app.addHook('onRequest', requireUser);
  const repository = createFavouritesRepository(ctx.database.db);

  async function answer(userId: number): Promise<FavouritesResponse> {
    const [starred, recent] = await Promise.all([
      repository.list(userId),
      repository.recent(userId, RECENT_PURCHASES),
    ]);
    return {
      success: true,
      favourites: starred.map(({ service, countryId }) => ({
        service,
        service_name: serviceDisplayName(service),
        countryID: countryId,
        country_name: countryId === null ? null : (countryById(countryId)?.name ?? countryId),
      })),
      recent: recent.map((pair) => {
        const names = displayNames(pair);
        return {
          service: pair.service,
          service_name: names.serviceName,
          countryID: pair.countryId,
          country_name: names.countryName,
          operator: pair.operator,
          bought_at: pair.boughtAt.toISOString(),
        };
      }),
    };
  }

  app.get(
    '/favourites',
    {
      schema: {
        tags: ['numbers'],
        summary: "The user's starred services and pairs, and their last five different purchases",
        response: { 200: favouritesResponseSchema },
      },
    },
    async (request) => answer(currentUser(request).id),
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
    async (request) => {
      const user = currentUser(request);
      const { service, countryID, starred } = request.body;
      if (!serviceByCode(service)) throw badRequest(buyingMessages.unknownService, 'unknown_service');
      if (countryID && !countryById(countryID))
        throw badRequest(buyingMessages.unknownCountry, 'unknown_country');
      const key = { service, countryId: countryID ?? null };
      if (!starred) await repository.remove(user.id, key);
      else if (!(await repository.add(user.id, key, FAVOURITES_MAX, ctx.clock.now())))
        throw conflict(buyingMessages.favouritesFull, 'favourites_full');
      return answer(user.id);
    },
  );
};
