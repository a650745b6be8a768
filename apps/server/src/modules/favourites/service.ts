import {
  buyingMessages,
  countryById,
  FAVOURITES_MAX,
  type FavouritesResponse,
  RECENT_PURCHASES,
  serviceByCode,
  serviceDisplayName,
} from '@simcode/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import { displayNames } from '../orders/activations/presenter';
import { createFavouritesRepository } from './repository';

/** Starred services and pairs, and the last purchases: what the dashboard offers first, one click to buy. */
export function createFavouritesService(db: Executor, clock: Clock) {
  const repository = createFavouritesRepository(db);

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

  return {
    list: answer,

    /** Stars or unstars a service (every country) or a (service, country) pair; answers the new list. */
    async set(
      userId: number,
      { service, countryID, starred }: { service: string; countryID?: string | null; starred: boolean },
    ): Promise<FavouritesResponse> {
      if (!serviceByCode(service)) throw fail('unknown_service', buyingMessages.unknownService);
      if (countryID && !countryById(countryID)) throw fail('unknown_country', buyingMessages.unknownCountry);
      const key = { service, countryId: countryID ?? null };
      if (!starred) await repository.remove(userId, key);
      else if (!(await repository.add(userId, key, FAVOURITES_MAX, clock.now())))
        throw fail('favourites_full');
      return answer(userId);
    },
  };
}

export type FavouritesService = ReturnType<typeof createFavouritesService>;
