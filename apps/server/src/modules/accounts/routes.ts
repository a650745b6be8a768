import { centsToDollars, type SummaryResponse, summaryResponseSchema } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/container';
import { UserCache } from '../../lib/user-cache';
import { createGuards, currentUser } from '../auth/guards';
import { balanceOf } from './ledger';

/** The summary is polled by every open dashboard; it is dropped on any change of its user. */
const SUMMARY_CACHE_TTL_MS = 10_000;

export const summaryRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { requireUser } = createGuards(ctx.auth);
  // Who is calling is settled on the request line, before any input is judged.
  app.addHook('onRequest', requireUser);
  const summaries = new UserCache<SummaryResponse>({
    clock: ctx.clock,
    ttlMs: SUMMARY_CACHE_TTL_MS,
    maxEntries: 100_000,
    events: ctx.events,
    invalidatedBy: () => true,
  });

  async function loadSummary(userId: number): Promise<SummaryResponse> {
    const [balanceCents, counts, rentCounts] = await Promise.all([
      balanceOf(ctx.database.db, userId),
      ctx.activations.countsForUser(userId),
      ctx.rentals.countsForUser(userId),
    ]);
    return {
      success: true as const,
      balance: centsToDollars(balanceCents),
      // One-time numbers and rents together: both are orders, and both are numbers the user holds now.
      totalNumbers: counts.live + rentCounts.live,
      totalOrders: counts.orders + rentCounts.orders,
      totalCountries: ctx.catalog.countryCount(),
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
