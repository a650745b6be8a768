import {
  adminOrderActionResponseSchema,
  adminOrderDetailResponseSchema,
  adminOrdersQuerySchema,
  adminOrdersResponseSchema,
  adminReasonRequestSchema,
  databaseIdParam,
  refundRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/guards';
import type { AdminOrdersService } from './service';

const idParams = z.object({ id: databaseIdParam });
const tags = ['admin'];

/** The console's one-time orders; the administrator guard runs before these (see ../routes.ts). */
export const adminOrderRoutes: FastifyPluginAsyncZod<{ orders: AdminOrdersService }> = async (
  app,
  { orders },
) => {
  app.get(
    '/orders',
    {
      schema: {
        tags,
        summary:
          'Search one-time orders by status, service, country, provider, user, date or phone, newest first',
        querystring: adminOrdersQuerySchema,
        response: { 200: adminOrdersResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await orders.list(request.query)) }),
  );

  app.get(
    '/orders/:id',
    {
      schema: {
        tags,
        summary: "An order's history: its SMS, ledger entries and administrators' actions",
        params: idParams,
        response: { 200: adminOrderDetailResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await orders.detail(request.params.id)) }),
  );

  app.post(
    '/orders/:id/refund',
    {
      schema: {
        tags,
        summary: 'Refund an order now, exactly once (an order with a code only when forced)',
        params: idParams,
        body: refundRequestSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await orders.refund(
        currentUser(request),
        request.params.id,
        request.body.reason,
        request.body.force,
      )),
    }),
  );

  app.post(
    '/orders/:id/cancel-upstream',
    {
      schema: {
        tags,
        summary: "Cancel the order's number at its provider",
        params: idParams,
        body: adminReasonRequestSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await orders.cancelUpstream(currentUser(request), request.params.id, request.body.reason)),
    }),
  );

  app.post(
    '/orders/:id/problem',
    {
      schema: {
        tags,
        summary: 'Mark an order as a problem, with a note',
        params: idParams,
        body: adminReasonRequestSchema,
        response: { 200: adminOrderActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await orders.markProblem(currentUser(request), request.params.id, request.body.reason)),
    }),
  );
};
