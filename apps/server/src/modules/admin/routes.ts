import { centsToDollars } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { createGuards, currentUser } from '../auth/guards';
import { createUsersRepository } from '../users/repository';
import { createAdminService } from './service';

const dollars = z
  .number({ error: 'must be a number' })
  .refine((value) => Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    error: 'must have at most two decimals',
  });

/** Administrator tools beyond tickets. The role is read from the database on every request. */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { requireAdmin } = createGuards(ctx.auth);
  const admin = createAdminService(ctx.database.db, ctx.events);

  app.get(
    '/users/lookup',
    {
      schema: {
        tags: ['admin'],
        summary: 'Find a user by username',
        querystring: z.object({ username: z.string().trim().min(1).max(100) }),
        response: {
          200: z.object({
            success: z.literal(true),
            user: z.object({
              id: z.number(),
              username: z.string(),
              email: z.string(),
              role: z.number(),
              balance: z.number(),
            }),
          }),
        },
      },
      preHandler: requireAdmin,
    },
    async (request) => {
      const user = await createUsersRepository(ctx.database.db).findByUsername(request.query.username);
      if (!user) throw notFound();
      return {
        success: true as const,
        user: {
          id: user.id,
          username: user.username,
          email: user.email,
          role: user.role,
          balance: centsToDollars(user.balanceCents),
        },
      };
    },
  );

  app.post(
    '/users/:id/adjustments',
    {
      schema: {
        tags: ['admin'],
        summary: "Credit or debit a user's balance through the ledger",
        params: z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) }),
        body: z.object({
          amount: dollars,
          note: z.string().trim().min(1, { error: 'is required' }).max(500),
          idempotency_key: z.string().min(8).max(100).optional(),
        }),
        response: { 200: z.object({ success: z.literal(true), applied: z.boolean(), balance: z.number() }) },
      },
      preHandler: requireAdmin,
    },
    async (request) => {
      const result = await admin.adjustBalance({
        userId: request.params.id,
        amountCents: Math.round(request.body.amount * 100),
        note: request.body.note,
        adminUsername: currentUser(request).username,
        idempotencyKey: request.body.idempotency_key,
      });
      return {
        success: true as const,
        applied: result.applied,
        balance: centsToDollars(result.balanceAfterCents),
      };
    },
  );
};
