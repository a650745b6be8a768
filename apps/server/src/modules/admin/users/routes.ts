import {
  adjustmentRequestSchema,
  adminLedgerResponseSchema,
  adminMessages,
  adminReasonRequestSchema,
  adminUserActionResponseSchema,
  adminUserDetailResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  databaseIdParam,
  longPageQuerySchema,
  roleRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { User } from '../../../db/schema';
import { currentUser } from '../../auth/guards';
import type { AdminUsersService } from './service';
import { presentUserRow } from './service';

const idParams = z.object({ id: databaseIdParam });
const tags = ['admin'];

/** The console's users area; the administrator guard runs before these (see ../routes.ts). */
export const adminUserRoutes: FastifyPluginAsyncZod<{ users: AdminUsersService }> = async (
  app,
  { users },
) => {
  const answer = (user: User, message: string) => ({
    success: true as const,
    message,
    user: presentUserRow(user),
  });

  app.get(
    '/users',
    {
      schema: {
        tags,
        summary: 'Search users by username, e-mail or id, newest first',
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await users.list(request.query)) }),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags,
        summary:
          "A user's page: account, sessions, API keys, rents, tickets and the audit entries about them",
        params: idParams,
        response: { 200: adminUserDetailResponseSchema },
      },
    },
    async (request) => ({ success: true as const, ...(await users.detail(request.params.id)) }),
  );

  app.get(
    '/users/:id/ledger',
    {
      schema: {
        tags,
        summary: "A user's ledger, newest first, each entry with what it refers to",
        params: idParams,
        querystring: longPageQuerySchema,
        response: { 200: adminLedgerResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await users.ledger(request.params.id, request.query)),
    }),
  );

  app.post(
    '/users/:id/adjustments',
    {
      schema: {
        tags,
        summary: "Credit or debit a user's balance through the ledger, once per idempotency key",
        params: idParams,
        body: adjustmentRequestSchema,
        response: { 200: adminUserActionResponseSchema.extend({ applied: z.boolean() }) },
      },
    },
    async (request) => {
      const result = await users.adjust(currentUser(request), request.params.id, {
        amountCents: Math.round(request.body.amount * 100),
        reason: request.body.reason,
        idempotencyKey: request.body.idempotency_key,
      });
      return { ...answer(result.user, result.message), applied: result.applied };
    },
  );

  app.post(
    '/users/:id/block',
    {
      schema: {
        tags,
        summary: 'Block a user: no sign-in, no purchases, no API keys; every session ends',
        params: idParams,
        body: adminReasonRequestSchema,
        response: { 200: adminUserActionResponseSchema },
      },
    },
    async (request) => {
      const user = await users.block(currentUser(request), request.params.id, request.body.reason);
      return answer(user, adminMessages.blocked(user.username));
    },
  );

  app.post(
    '/users/:id/unblock',
    {
      schema: {
        tags,
        summary: 'Unblock a user',
        params: idParams,
        body: adminReasonRequestSchema,
        response: { 200: adminUserActionResponseSchema },
      },
    },
    async (request) => {
      const user = await users.unblock(currentUser(request), request.params.id, request.body.reason);
      return answer(user, adminMessages.unblocked(user.username));
    },
  );

  app.post(
    '/users/:id/role',
    {
      schema: {
        tags,
        summary: 'Promote a user to administrator or demote an administrator; their sessions end',
        params: idParams,
        body: roleRequestSchema,
        response: { 200: adminUserActionResponseSchema },
      },
    },
    async (request) => {
      const { role, reason } = request.body;
      const user = await users.setRole(currentUser(request), request.params.id, role, reason);
      return answer(
        user,
        role === 'admin' ? adminMessages.promoted(user.username) : adminMessages.demoted(user.username),
      );
    },
  );

  app.post(
    '/users/:id/two-factor/reset',
    {
      schema: {
        tags,
        summary: "Turn off a user's two-factor sign-in (lost authenticator and recovery codes)",
        params: idParams,
        body: adminReasonRequestSchema,
        response: { 200: adminUserActionResponseSchema },
      },
    },
    async (request) => {
      const user = await users.resetTwoFactor(currentUser(request), request.params.id, request.body.reason);
      return answer(user, adminMessages.twoFactorReset(user.username));
    },
  );

  app.post(
    '/users/:id/sign-out',
    {
      schema: {
        tags,
        summary: 'Sign a user out everywhere',
        params: idParams,
        body: adminReasonRequestSchema,
        response: { 200: adminUserActionResponseSchema },
      },
    },
    async (request) => {
      const user = await users.signOutEverywhere(
        currentUser(request),
        request.params.id,
        request.body.reason,
      );
      return answer(user, adminMessages.signedOut(user.username));
    },
  );
};
