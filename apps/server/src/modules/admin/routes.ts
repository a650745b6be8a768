import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app/container';
import { createGuards } from '../auth/guards';
import { createTopupService } from '../payments/service';
import { adminOrderRoutes } from './orders/routes';
import { createAdminOrdersService } from './orders/service';
import { adminOverviewRoutes } from './overview/routes';
import { createAdminOverviewService } from './overview/service';
import { adminPaymentRoutes } from './payments/routes';
import { createAdminPaymentsService } from './payments/service';
import { adminPricingRoutes } from './pricing/routes';
import { createAdminPricingService } from './pricing/service';
import { adminProviderRoutes } from './providers/routes';
import { createAdminProvidersService } from './providers/service';
import { adminRentRoutes } from './rents/routes';
import { createAdminRentsService } from './rents/service';
import { adminUserRoutes } from './users/routes';
import { createAdminUsersService } from './users/service';

/**
 * The operator console's API. Who is calling is settled on the request line, before any input is judged:
 * a visitor gets 401, a user 403; the role is read from the database on every request.
 */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { requireAdmin } = createGuards(ctx.auth);
  app.addHook('onRequest', requireAdmin);
  const deps = { db: ctx.database.db, events: ctx.events, clock: ctx.clock };
  await app.register(adminOverviewRoutes, {
    overview: createAdminOverviewService({ ...deps, providers: ctx.providers }),
    db: ctx.database.db,
  });
  await app.register(adminUserRoutes, { users: createAdminUsersService(deps) });
  await app.register(adminOrderRoutes, {
    orders: createAdminOrdersService({ ...deps, activations: ctx.activations, providers: ctx.providers }),
  });
  await app.register(adminRentRoutes, { rents: createAdminRentsService({ ...deps, rentals: ctx.rentals }) });
  await app.register(adminPaymentRoutes, {
    payments: createAdminPaymentsService({ ...deps, topups: createTopupService(ctx) }),
  });
  await app.register(adminProviderRoutes, {
    providers: createAdminProvidersService({ ...deps, providers: ctx.providers, catalog: ctx.catalog }),
  });
  await app.register(adminPricingRoutes, {
    pricing: createAdminPricingService({
      ...deps,
      pricing: ctx.pricing,
      catalog: ctx.catalog,
      providers: ctx.providers,
    }),
  });
};
