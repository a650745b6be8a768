import {
  adminPaymentActionResponseSchema,
  adminPaymentDetailResponseSchema,
  adminPaymentProvidersResponseSchema,
  adminPaymentsQuerySchema,
  adminPaymentsResponseSchema,
  databaseIdParam,
  paymentCreditRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/guards';
import type { AdminPaymentsService } from './service';

const idParams = z.object({ id: databaseIdParam });
const tags = ['admin'];

/** The console's payments; the administrator guard runs before these (see ../routes.ts). */
export const adminPaymentRoutes: FastifyPluginAsyncZod<{ payments: AdminPaymentsService }> = async (
  app,
  { payments },
) => {
  app.get(
    '/payments',
    {
      schema: {
        tags,
        summary: 'Search top-up invoices by status, user or order id, newest first',
        querystring: adminPaymentsQuerySchema,
        response: { 200: adminPaymentsResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await payments.list(request.query)) }),
  );

  app.get(
    '/payments/providers',
    {
      schema: {
        tags,
        summary: 'The payment providers in order, each with its health as this server sees it',
        response: { 200: adminPaymentProvidersResponseSchema },
      },
    },
    async () => ({ success: true as const, providers: await payments.providers() }),
  );

  app.get(
    '/payments/:id',
    {
      schema: {
        tags,
        summary: 'A payment with every provider event received about it, its ledger entries and audit',
        params: idParams,
        response: { 200: adminPaymentDetailResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await payments.detail(request.params.id)) }),
  );

  app.post(
    '/payments/:id/reconcile',
    {
      schema: {
        tags,
        summary: 'Ask the payment provider about this payment now and apply its answer',
        params: idParams,
        response: { 200: adminPaymentActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await payments.reconcile(currentUser(request), request.params.id)),
    }),
  );

  app.post(
    '/payments/:id/credit',
    {
      schema: {
        tags,
        summary: 'Credit a payment that did not credit itself (wrong amount, paid late), once, with a reason',
        params: idParams,
        body: paymentCreditRequestSchema,
        response: { 200: adminPaymentActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await payments.creditByHand(
        currentUser(request),
        request.params.id,
        Math.round(request.body.amount * 100),
        request.body.reason,
      )),
    }),
  );
};
