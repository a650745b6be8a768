import { adminProvidersResponseSchema, plainText, providerRoutingRequestSchema } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../../auth/guards';
import type { AdminProvidersService } from './service';

const tags = ['admin'];

/** The console's providers; the administrator guard runs before these (see ../routes.ts). */
export const adminProviderRoutes: FastifyPluginAsyncZod<{ providers: AdminProvidersService }> = async (
  app,
  { providers },
) => {
  app.get(
    '/providers',
    {
      schema: {
        tags,
        summary: "Each SMS provider's health, balance, recent errors and whether it is in routing",
        response: { 200: adminProvidersResponseSchema },
      },
    },
    async () => ({ success: true as const, providers: await providers.list() }),
  );

  app.post(
    '/providers/:name/routing',
    {
      schema: {
        tags,
        summary: 'Take a provider out of routing, or put it back',
        params: z.object({ name: plainText(40) }),
        body: providerRoutingRequestSchema,
        response: { 200: adminProvidersResponseSchema.extend({ message: z.string() }) },
      },
    },
    async (request) => {
      const message = await providers.setRouting(
        currentUser(request),
        request.params.name,
        request.body.in_routing,
        request.body.reason,
      );
      return { success: true as const, message, providers: await providers.list() };
    },
  );
};
