import { centsToDollars, type SummaryResponse, summaryResponseSchema } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import type { UserEventBus } from '../../db/user-events';
import type { Clock } from '../../lib/clock';
import { UserCache } from '../../lib/user-cache';
import { currentUser } from '../auth/guards';
import type { CatalogService } from '../catalog/service';
import type { ActivationService } from '../orders/activations/service';
import type { RentalService } from '../orders/rents/service';
import { balanceOf } from './ledger';

interface SummaryRouteDeps {
  db: Database;
  events: UserEventBus;
  clock: Clock;
  catalog: CatalogService;
  activations: ActivationService;
  rentals: RentalService;
}

/** The summary is polled by every open dashboard; it is dropped on any change of its user. */
const SUMMARY_CACHE_TTL_MS = 10_000;

export const summaryRoutes: FastifyPluginAsyncZod<SummaryRouteDeps> = async (app, deps) => {
  const summaries = new UserCache<SummaryResponse>({
    clock: deps.clock,
    ttlMs: SUMMARY_CACHE_TTL_MS,
    maxEntries: 100_000,
    events: deps.events,
    invalidatedBy: () => true,
  });

  async function loadSummary(userId: number): Promise<SummaryResponse> {
    const [balanceCents, counts, rentCounts] = await Promise.all([
      balanceOf(deps.db, userId),
      deps.activations.countsForUser(userId),
      deps.rentals.countsForUser(userId),
    ]);
    return {
      success: true as const,
      balance: centsToDollars(balanceCents),
      // One-time numbers and rents together: both are orders, and both are numbers the user holds now.
      totalNumbers: counts.live + rentCounts.live,
      totalOrders: counts.orders + rentCounts.orders,
      totalCountries: deps.catalog.countryCount(),
      liveOneTime: counts.live,
      liveRented: rentCounts.live,
    };
  }

  app.get(
    '/summary',
    {
      schema: {
        tags: ['account'],
        summary: 'Balance, orders placed, numbers live now and countries on sale',
        response: { 200: summaryResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return summaries.getOrLoad(user.id, 'summary', () => loadSummary(user.id));
    },
  );
};
