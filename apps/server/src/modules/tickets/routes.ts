import {
  adminReasonRequestSchema,
  createTicketRequestSchema,
  databaseIdParam,
  optionalReasonRequestSchema,
  setTicketStatusRequestSchema,
  successResponseSchema,
  TICKET_CREATE_RATE_LIMIT,
  TICKET_MESSAGE_RATE_LIMIT,
  ticketListQuerySchema,
  ticketListResponseSchema,
  ticketMessageRequestSchema,
  ticketMessageResponseSchema,
  ticketResponseSchema,
  ticketThreadResponseSchema,
  ticketUserResponseSchema,
} from '@simcode/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { SerializedAnswers } from '../../lib/compress-answers';
import { createGuards, currentUser } from '../auth/guards';
import { createTicketsService } from './service';

const ticketParams = z.object({ id: databaseIdParam });
const userParams = z.object({ userId: databaseIdParam });

const bearer = [{ bearer: [] }];

/**
 * The user endpoints (a user's own tickets) and the administrator endpoints under /admin (every ticket),
 * spec section 7. The guard runs first, on the request line alone, so a caller without the right to the
 * route learns nothing from how their input would have been judged. Writes are rate-limited per user.
 */
export const ticketRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const tickets = createTicketsService({ db: ctx.database.db, clock: ctx.clock, events: ctx.events });
  const { requireUser, requireAdmin } = createGuards(ctx.auth);
  const ownPages = new SerializedAnswers();
  const perUser = (name: string) => (request: FastifyRequest) => `tickets:${name}:${currentUser(request).id}`;
  const createLimit = app.rateLimit({
    max: TICKET_CREATE_RATE_LIMIT.max,
    timeWindow: TICKET_CREATE_RATE_LIMIT.timeWindowMs,
    keyGenerator: perUser('create'),
  });
  const messageLimit = app.rateLimit({
    max: TICKET_MESSAGE_RATE_LIMIT.max,
    timeWindow: TICKET_MESSAGE_RATE_LIMIT.timeWindowMs,
    keyGenerator: perUser('message'),
  });
  const asUser = { tags: ['tickets'], security: bearer };
  const asAdmin = { tags: ['tickets (administrators)'], security: bearer };

  app.get(
    '/',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        ...asUser,
        summary: 'Your tickets',
        querystring: ticketListQuerySchema,
        response: { 200: ticketListResponseSchema },
      },
      onRequest: requireUser,
    },
    async (request, reply) => {
      const page = await tickets.listOwn(currentUser(request), request.query);
      // The first page is the same object until the user's tickets change: serialized and compressed once.
      return ownPages.send(request, reply, page, () => ({ success: true as const, ...page }));
    },
  );

  app.post(
    '/',
    {
      schema: {
        ...asUser,
        summary: 'Open a ticket',
        body: createTicketRequestSchema,
        response: { 201: ticketResponseSchema },
      },
      onRequest: requireUser,
      preHandler: createLimit,
    },
    async (request, reply) => {
      const ticket = await tickets.create(currentUser(request), request.body);
      return reply.code(201).send({ success: true as const, ticket });
    },
  );

  app.get(
    '/:id',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        ...asUser,
        summary: 'One of your tickets with its messages',
        params: ticketParams,
        response: { 200: ticketThreadResponseSchema },
      },
      onRequest: requireUser,
    },
    async (request) => ({
      success: true as const,
      ...(await tickets.getOwn(currentUser(request), request.params.id)),
    }),
  );

  app.post(
    '/:id/messages',
    {
      schema: {
        ...asUser,
        summary: 'Write to support in one of your tickets',
        params: ticketParams,
        body: ticketMessageRequestSchema,
        response: { 201: ticketMessageResponseSchema },
      },
      onRequest: requireUser,
      preHandler: messageLimit,
    },
    async (request, reply) => {
      const written = await tickets.postUserMessage(
        currentUser(request),
        request.params.id,
        request.body.content,
      );
      return reply.code(201).send({ success: true as const, ...written });
    },
  );

  app.post(
    '/:id/close',
    {
      schema: {
        ...asUser,
        summary: 'Close one of your tickets while it is open',
        params: ticketParams,
        response: { 200: ticketResponseSchema },
      },
      onRequest: requireUser,
    },
    async (request) => ({
      success: true as const,
      ticket: await tickets.closeOwn(currentUser(request), request.params.id),
    }),
  );

  app.get(
    '/admin/tickets',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        ...asAdmin,
        summary: 'Every ticket',
        querystring: ticketListQuerySchema,
        response: { 200: ticketListResponseSchema },
      },
      onRequest: requireAdmin,
    },
    async (request) => ({ success: true as const, ...(await tickets.listAll(request.query)) }),
  );

  app.get(
    '/admin/tickets/:id',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        ...asAdmin,
        summary: 'Any ticket with its messages',
        params: ticketParams,
        response: { 200: ticketThreadResponseSchema },
      },
      onRequest: requireAdmin,
    },
    async (request) => ({ success: true as const, ...(await tickets.getAny(request.params.id)) }),
  );

  app.post(
    '/admin/tickets/:id/messages',
    {
      schema: {
        ...asAdmin,
        summary: 'Reply as support',
        params: ticketParams,
        body: ticketMessageRequestSchema,
        response: { 201: ticketMessageResponseSchema },
      },
      onRequest: requireAdmin,
      preHandler: messageLimit,
    },
    async (request, reply) => {
      const written = await tickets.postAdminReply(
        currentUser(request),
        request.params.id,
        request.body.content,
      );
      return reply.code(201).send({ success: true as const, ...written });
    },
  );

  app.post(
    '/admin/tickets/:id/status',
    {
      schema: {
        ...asAdmin,
        summary: 'Set any status, with a reason (audited)',
        params: ticketParams,
        body: setTicketStatusRequestSchema,
        response: { 200: ticketResponseSchema },
      },
      onRequest: requireAdmin,
    },
    async (request) => ({
      success: true as const,
      ticket: await tickets.setStatus(
        currentUser(request),
        request.params.id,
        request.body.status,
        request.body.reason,
      ),
    }),
  );

  app.post(
    '/admin/tickets/:id/close',
    {
      schema: {
        ...asAdmin,
        summary: 'Close a ticket that is not closed yet (audited; a reason is optional)',
        params: ticketParams,
        body: optionalReasonRequestSchema,
        response: { 200: ticketResponseSchema },
      },
      onRequest: requireAdmin,
    },
    async (request) => ({
      success: true as const,
      ticket: await tickets.closeAny(currentUser(request), request.params.id, request.body?.reason),
    }),
  );

  app.delete(
    '/admin/tickets/:id',
    {
      schema: {
        ...asAdmin,
        summary: 'Delete a ticket, with a reason: gone from every list, kept for the record (audited)',
        params: ticketParams,
        body: adminReasonRequestSchema,
        response: { 200: successResponseSchema },
      },
      onRequest: requireAdmin,
    },
    async (request) => {
      await tickets.delete(currentUser(request), request.params.id, request.body.reason);
      return { success: true as const };
    },
  );

  app.get(
    '/admin/user/:userId',
    {
      schema: {
        ...asAdmin,
        summary: "A ticket author's username and e-mail",
        params: userParams,
        response: { 200: ticketUserResponseSchema },
      },
      onRequest: requireAdmin,
    },
    async (request) => ({ success: true as const, user: await tickets.userInfo(request.params.userId) }),
  );
};
