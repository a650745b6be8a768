import {
  pricingPreviewRequestSchema,
  pricingPreviewResponseSchema,
  pricingResponseSchema,
  pricingUpdateRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/guards';
import type { AdminPricingService } from './service';

const tags = ['admin'];

/** The console's pricing; the administrator guard runs before these (see ../routes.ts). */
export const adminPricingRoutes: FastifyPluginAsyncZod<{ pricing: AdminPricingService }> = async (
  app,
  { pricing },
) => {
  app.get(
    '/pricing',
    {
      schema: {
        tags,
        summary: 'The markup rules in force and their history',
        response: { 200: pricingResponseSchema },
      },
    },
    async () => ({ success: true as const, ...(await pricing.state()) }),
  );

  app.put(
    '/pricing',
    {
      schema: {
        tags,
        summary: 'Replace the markup rules (global, per service, per country, per pair); audited',
        body: pricingUpdateRequestSchema,
        response: { 200: pricingResponseSchema.extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const { reason, ...rules } = request.body;
      return { success: true as const, ...(await pricing.save(currentUser(request), rules, reason)) };
    },
  );

  app.post(
    '/pricing/preview',
    {
      schema: {
        tags,
        summary: "A service's sale price in every country under proposed rules, beside today's",
        body: pricingPreviewRequestSchema,
        response: { 200: pricingPreviewResponseSchema },
      },
    },
    async (request) => {
      const { service, ...rules } = request.body;
      return { success: true as const, service, countries: pricing.preview(rules, service) };
    },
  );
};
