import {
  auditQuerySchema,
  auditResponseSchema,
  overviewQuerySchema,
  overviewResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../../db/client';
import { createAuditRepository, nextBefore, presentAudit } from '../audit';
import type { AdminOverviewService } from './service';

const tags = ['admin'];

/** The console's overview and audit log; the administrator guard runs before these (see ../routes.ts). */
export const adminOverviewRoutes: FastifyPluginAsyncZod<{
  overview: AdminOverviewService;
  db: Database;
}> = async (app, { overview, db }) => {
  const audit = createAuditRepository(db);

  app.get(
    '/overview',
    {
      schema: {
        tags,
        summary:
          'Revenue, cost, margin, top-ups, orders by outcome, delivery, active users: today, 7 or 30 days',
        querystring: overviewQuerySchema,
        response: { 200: overviewResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await overview.overview(Number(request.query.days) as 1 | 7 | 30)),
    }),
  );

  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: 'The audit log: every administrator action, newest first, searchable',
        querystring: auditQuerySchema,
        response: { 200: auditResponseSchema },
      },
    },
    async (request) => {
      const { q, object_type: objectType, object_id: objectId, before, limit } = request.query;
      const rows = await audit.list({ q, objectType, objectId, before, limit });
      return {
        success: true as const,
        entries: rows.map(presentAudit),
        next_before: nextBefore(rows, limit),
      };
    },
  );
};
