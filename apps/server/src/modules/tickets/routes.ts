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
  unreadTicketsResponseSchema,
} from '@simcode/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SerializedAnswers } from '../../lib/compress-answers';
import { currentUser } from '../auth/guards';
import type { TicketsService } from './service';

const ticketParams = z.object({ id: databaseIdParam });
const userParams = z.object({ userId: databaseIdParam });

const bearer = [{ bearer: [] }];

const perUser = (name: string) => (request: FastifyRequest) => `tickets:${name}:${currentUser(request).id}`;

/** Messages one writer (a user, or an administrator answering) may send in the window. */
function messageLimitOf(app: { rateLimit: FastifyInstance['rateLimit'] }) {
  return app.rateLimit({
    max: TICKET_MESSAGE_RATE_LIMIT.max,
    timeWindow: TICKET_MESSAGE_RATE_LIMIT.timeWindowMs,
    keyGenerator: perUser('message'),
  });
}

/** A user's own tickets (spec section 7); writes are rate-limited per user. */
export const ticketRoutes: FastifyPluginAsyncZod<{ tickets: TicketsService }> = async (app, { tickets }) => {
  const ownPages = new SerializedAnswers();
  const createLimit = app.rateLimit({
    max: TICKET_CREATE_RATE_LIMIT.max,
    timeWindow: TICKET_CREATE_RATE_LIMIT.timeWindowMs,
    keyGenerator: perUser('create'),
  });
  const messageLimit = messageLimitOf(app);
  const asUser = { tags: ['tickets'], security: bearer };

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
      preHandler: createLimit,
    },
    async (request, reply) => {
      const ticket = await tickets.create(currentUser(request), request.body);
      return reply.code(201).send({ success: true as const, ticket });
    },
  );

  app.get(
    '/unread',
    {
      schema: {
        ...asUser,
        summary: 'How many of your tickets hold an answer you have not read',
        response: { 200: unreadTicketsResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      count: await tickets.countUnread(currentUser(request)),
    }),
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
    },
    async (request) => ({
      success: true as const,
      ticket: await tickets.closeOwn(currentUser(request), request.params.id),
    }),
  );
};

/** Every ticket, for support (spec section 7): the administrators' endpoints under /admin. */
export const ticketAdminRoutes: FastifyPluginAsyncZod<{ tickets: TicketsService }> = async (
  app,
  { tickets },
) => {
  const asAdmin = { tags: ['tickets (administrators)'], security: bearer };
  const messageLimit = messageLimitOf(app);

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
    },
    async (request) => ({ success: true as const, user: await tickets.userInfo(request.params.userId) }),
  );
};
