import {
  adminRentActionResponseSchema,
  adminRentDetailResponseSchema,
  adminRentsQuerySchema,
  adminRentsResponseSchema,
  databaseIdParam,
  refundRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/guards';
import type { AdminRentsService } from './service';

const idParams = z.object({ id: databaseIdParam });
const tags = ['admin'];

/** The console's rents; the administrator guard runs before these (see ../routes.ts). */
export const adminRentRoutes: FastifyPluginAsyncZod<{ rents: AdminRentsService }> = async (
  app,
  { rents },
) => {
  app.get(
    '/rents',
    {
      schema: {
        tags,
        summary: 'Search rents by status, service, country, provider, user, date or phone, newest first',
        querystring: adminRentsQuerySchema,
        response: { 200: adminRentsResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await rents.list(request.query)) }),
  );

  app.get(
    '/rents/:id',
    {
      schema: {
        tags,
        summary: "A rent's history: its SMS, renewals, ledger entries and administrators' actions",
        params: idParams,
        response: { 200: adminRentDetailResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await rents.detail(request.params.id)) }),
  );

  app.post(
    '/rents/:id/refund',
    {
      schema: {
        tags,
        summary: 'Refund a rent whole, exactly once (one that received SMS only when forced)',
        params: idParams,
        body: refundRequestSchema,
        response: { 200: adminRentActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await rents.refund(
        currentUser(request),
        request.params.id,
        request.body.reason,
        request.body.force,
      )),
    }),
  );
};
