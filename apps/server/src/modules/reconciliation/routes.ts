import {
  databaseIdParam,
  mismatchActionRequestSchema,
  mismatchActionResponseSchema,
  reconciliationQuerySchema,
  reconciliationResponseSchema,
  reconciliationRunRequestSchema,
  reconciliationRunResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../auth/guards';
import type { ReconciliationService } from './service';

const tags = ['admin'];

/** The console's supplier reconciliation; the administrator guard runs before these (see ../admin/routes.ts). */
export const reconciliationRoutes: FastifyPluginAsyncZod<{ reconciliation: ReconciliationService }> = async (
  app,
  { reconciliation },
) => {
  app.get(
    '/reconciliation',
    {
      schema: {
        tags,
        summary: 'Per supplier and day: bought, cost, returned, refunded, leakage; and the mismatches',
        querystring: reconciliationQuerySchema,
        response: { 200: reconciliationResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await reconciliation.report(request.query)) }),
  );

  app.get(
    '/reconciliation.csv',
    {
      schema: {
        tags,
        summary: 'The mismatches of the range as a CSV file',
        querystring: reconciliationQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) =>
      reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header(
          'content-disposition',
          `attachment; filename="simcode-reconciliation-${request.query.from}-${request.query.to}.csv"`,
        )
        .header('cache-control', 'no-store')
        .send(await reconciliation.csv(request.query)),
  );

  app.post(
    '/reconciliation/run',
    {
      schema: {
        tags,
        summary: "Reconcile a day now, for one supplier or all (reads the suppliers' history within budget)",
        body: reconciliationRunRequestSchema,
        response: { 200: reconciliationRunResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      runs: await reconciliation.run(request.body.day, request.body.provider),
    }),
  );

  app.post(
    '/reconciliation/mismatches/:id',
    {
      schema: {
        tags,
        summary: 'Retry the cancel upstream, write a mismatch off, or open a dispute note; audited',
        params: z.object({ id: databaseIdParam }),
        body: mismatchActionRequestSchema,
        response: { 200: mismatchActionResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      mismatch: await reconciliation.act(currentUser(request), request.params.id, request.body),
    }),
  );
};
