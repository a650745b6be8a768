import { centsToDollars, databaseIdParam, plainText } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { createGuards, currentUser } from '../auth/guards';
import { createUsersRepository } from '../users/repository';
import { createAdminService } from './service';

/** The largest single adjustment, either way: far above any real compensation, far below overflow. */
const ADJUSTMENT_MAX_DOLLARS = 1_000_000;

const dollars = z
  .number({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a number') })
  .min(-ADJUSTMENT_MAX_DOLLARS, { error: `must be at least -${ADJUSTMENT_MAX_DOLLARS}` })
  .max(ADJUSTMENT_MAX_DOLLARS, { error: `must be at most ${ADJUSTMENT_MAX_DOLLARS}` })
  .refine((value) => Number.isFinite(value) && Math.abs(Math.round(value * 100) - value * 100) < 1e-6, {
    error: 'must have at most two decimals',
  });

/** Administrator tools beyond tickets. The role is read from the database on every request. */
export const adminRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { requireAdmin } = createGuards(ctx.auth);
  // Who is calling is settled on the request line, before any input is judged.
  app.addHook('onRequest', requireAdmin);
  const admin = createAdminService(ctx.database.db, ctx.events);

  app.get(
    '/users/lookup',
    {
      schema: {
        tags: ['admin'],
        summary: 'Find a user by username',
        querystring: z.object({ username: plainText(100).pipe(z.string().trim().min(1)) }),
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
        params: z.object({ id: databaseIdParam }),
        body: z.object({
          amount: dollars,
          note: plainText(500).pipe(z.string().trim().min(1, { error: 'is required' })),
          idempotency_key: plainText(100).min(8, { error: 'must be at least 8 characters long' }).optional(),
        }),
        response: { 200: z.object({ success: z.literal(true), applied: z.boolean(), balance: z.number() }) },
      },
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
