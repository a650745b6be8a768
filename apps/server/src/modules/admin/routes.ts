import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { reconciliationRoutes } from '../reconciliation/routes';
import type { ReconciliationService } from '../reconciliation/service';
import { adminOrderRoutes } from './orders/routes';
import type { AdminOrdersService } from './orders/service';
import { adminOverviewRoutes } from './overview/routes';
import type { AdminOverviewService } from './overview/service';
import { adminPaymentRoutes } from './payments/routes';
import type { AdminPaymentsService } from './payments/service';
import { adminPricingRoutes } from './pricing/routes';
import type { AdminPricingService } from './pricing/service';
import { adminProviderRoutes } from './providers/routes';
import type { AdminProvidersService } from './providers/service';
import { adminRentRoutes } from './rents/routes';
import type { AdminRentsService } from './rents/service';
import { adminUserRoutes } from './users/routes';
import type { AdminUsersService } from './users/service';

/** The console's services, one per section. */
export interface AdminServices {
  overview: AdminOverviewService;
  users: AdminUsersService;
  orders: AdminOrdersService;
  rents: AdminRentsService;
  payments: AdminPaymentsService;
  providers: AdminProvidersService;
  pricing: AdminPricingService;
  reconciliation: ReconciliationService;
}

/**
 * The operator console's API, registered where the administrator's guard has settled who is calling (a
 * visitor gets 401, a user 403; the role is read from the database on every request).
 */
export const adminRoutes: FastifyPluginAsyncZod<{ admin: AdminServices; db: Database }> = async (
  app,
  { admin, db },
) => {
  await app.register(adminOverviewRoutes, { overview: admin.overview, db });
  await app.register(adminUserRoutes, { users: admin.users });
  await app.register(adminOrderRoutes, { orders: admin.orders });
  await app.register(adminRentRoutes, { rents: admin.rents });
  await app.register(adminPaymentRoutes, { payments: admin.payments });
  await app.register(adminProviderRoutes, { providers: admin.providers });
  await app.register(adminPricingRoutes, { pricing: admin.pricing });
  await app.register(reconciliationRoutes, { reconciliation: admin.reconciliation });
};
