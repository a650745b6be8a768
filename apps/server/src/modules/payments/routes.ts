import {
  centsToDollars,
  createInvoiceRequestSchema,
  createInvoiceResponseSchema,
  successResponseSchema,
  TOPUP_CREATE_RATE_LIMIT,
  topupStatusQuerySchema,
  topupStatusResponseSchema,
  topupsResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import { currentUser } from '../auth/guards';
import { presentTopup, wireStatus } from './presenter';
import { type TopupService, WEBHOOK_PATH } from './service';

/** Webhooks come from the provider's few addresses; this only stops a flood, never a real delivery. */
const WEBHOOK_RATE_LIMIT = { max: 600, timeWindow: 60_000 };

/** Balance top-ups (spec section 7): create an invoice, follow its status, list the latest ones. */
export const topupRoutes: FastifyPluginAsyncZod<{ topups: TopupService; clock: Clock }> = async (
  app,
  { topups, clock },
) => {
  // Each invoice costs a provider call: limited per user, once the guard has said who the user is.
  const createLimit = app.rateLimit({
    max: TOPUP_CREATE_RATE_LIMIT.max,
    timeWindow: TOPUP_CREATE_RATE_LIMIT.timeWindowMs,
    keyGenerator: (request) => `topup:${currentUser(request).id}`,
  });
  const asUser = { tags: ['top-up'], security: [{ bearer: [] }] };

  app.post(
    '/cryptomus/create-invoice',
    {
      schema: {
        ...asUser,
        summary: 'Create a crypto invoice to top up the balance',
        body: createInvoiceRequestSchema,
        response: { 200: createInvoiceResponseSchema },
      },
      preHandler: createLimit,
    },
    async (request) => {
      const { url, orderId } = await topups.createInvoice(currentUser(request).id, request.body.amount);
      return { success: true as const, url, order_id: orderId };
    },
  );

  app.get(
    '/cryptomus/status',
    {
      schema: {
        ...asUser,
        summary: 'Status of one of your top-ups (COMPLETED once credited), from our database',
        querystring: topupStatusQuerySchema,
        response: { 200: topupStatusResponseSchema },
      },
    },
    async (request) => {
      const payment = await topups.findForUser(currentUser(request).id, request.query.order_id);
      return { success: true as const, status: wireStatus(payment) };
    },
  );

  app.get(
    '/payments',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        ...asUser,
        summary: 'Your latest top-ups with their statuses, and the accepted amount range',
        response: { 200: topupsResponseSchema },
      },
    },
    async (request) => {
      const now = clock.now();
      const list = await topups.listRecent(currentUser(request).id);
      const { minCents, maxCents } = topups.limits();
      return {
        success: true as const,
        payments: list.map((payment) => presentTopup(payment, now)),
        limits: { min_amount: centsToDollars(minCents), max_amount: centsToDollars(maxCents) },
      };
    },
  );
};

/** The payment provider's webhook: verified by its signature, so it needs no session. */
export const topupWebhookRoutes: FastifyPluginAsyncZod<{ topups: TopupService }> = async (
  app,
  { topups },
) => {
  // The signature covers the exact bytes sent, so this route alone keeps JSON bodies as text.
  await app.register(async (webhookScope) => {
    webhookScope.removeContentTypeParser('application/json');
    webhookScope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    webhookScope.post(
      WEBHOOK_PATH,
      {
        schema: {
          tags: ['top-up'],
          summary: "The payment provider's status-change webhook (signed)",
          response: { 200: successResponseSchema },
        },
        config: { rateLimit: WEBHOOK_RATE_LIMIT },
      },
      async (request) => {
        await topups.handleWebhook(typeof request.body === 'string' ? request.body : '', request.ip);
        return { success: true as const };
      },
    );
  });
};
