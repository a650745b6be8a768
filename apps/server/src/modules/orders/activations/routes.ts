import {
  buyingMessages,
  buyNumberRequestSchema,
  buyNumberResponseSchema,
  dayAfter,
  idParamSchema,
  liveNumberStatuses,
  type NumberStatus,
  type NumbersQuery,
  numberIdParamSchema,
  numberStatusResponseSchema,
  numbersQuerySchema,
  numbersResponseSchema,
  repeatNumberRequestSchema,
  reportProblemRequestSchema,
  reportProblemResponseSchema,
  TICKET_CREATE_RATE_LIMIT,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SerializedAnswers } from '../../../lib/compress-answers';
import { currentUser } from '../../auth/guards';
import type { NumberListFilter } from './repository';
import type { ActivationService } from './service';

const endedNumberStatuses = ['completed', 'canceled', 'expired'] as const satisfies readonly NumberStatus[];

/** The list's narrowing, or undefined for the whole list (the one the cache keeps). */
function numberFilter(query: {
  state?: NumbersQuery['state'];
  status?: NumberStatus;
  service?: string;
  from?: Date;
  to?: Date;
}): NumberListFilter | undefined {
  const { state, status, service, from, to } = query;
  if (!state && !status && !service && !from && !to) return undefined;
  const ofState = state === 'live' ? liveNumberStatuses : state === 'ended' ? endedNumberStatuses : undefined;
  // A status outside the asked state matches nothing, as the two conditions together say.
  const statuses = status ? (ofState && !ofState.some((one) => one === status) ? [] : [status]) : ofState;
  return { statuses, service, from, toExclusive: to ? dayAfter(to) : undefined };
}

export const activationRoutes: FastifyPluginAsyncZod<{
  activations: ActivationService;
  purchasesPerMinute: number;
}> = async (app, { activations, purchasesPerMinute }) => {
  const firstPages = new SerializedAnswers();
  // Spending is limited per user, after the guard has said who the user is.
  // A report opens a ticket: as limited as opening one by hand.
  const reportLimit = app.rateLimit({
    max: TICKET_CREATE_RATE_LIMIT.max,
    timeWindow: TICKET_CREATE_RATE_LIMIT.timeWindowMs,
    keyGenerator: (request) => `tickets:create:${request.authUser?.id}`,
  });
  const purchaseLimit = app.rateLimit({
    max: purchasesPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `purchases:${request.authUser?.id}`,
  });

  app.get(
    '/numbers',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        tags: ['numbers'],
        summary: "The user's one-time numbers, newest first",
        description:
          'Narrowed by `state` (live or ended), `status`, `service` and `from`/`to` (UTC days, both included). Pages by keyset: pass `next_before` as `before`.',
        querystring: numbersQuerySchema,
        response: { 200: numbersResponseSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const { limit, before } = request.query;
      const filter = numberFilter(request.query);
      // One more than asked tells whether an older page exists.
      const numbers = await activations.listNumbers(user.id, limit + 1, before, filter);
      const answer = () => {
        const page = numbers.slice(0, limit);
        return {
          success: true as const,
          numbers: page,
          next_before: numbers.length > limit ? page[page.length - 1]!.id : null,
        };
      };
      // The first page comes from the service's cache (the same list until the user's orders change):
      // its answer is serialized and compressed once for that list.
      if (before === undefined && filter === undefined)
        return firstPages.send(request, reply, numbers, answer);
      return answer();
    },
  );

  app.get(
    '/number-status/:number_id',
    {
      // Polled every few seconds while the number waits for its code.
      config: { poll: true },
      schema: {
        tags: ['numbers'],
        summary: 'Status of one number, from our database (never an upstream call)',
        params: numberIdParamSchema,
        response: { 200: numberStatusResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const { status, code } = await activations.statusOf(user.id, request.params.number_id);
      return { success: true as const, status, code };
    },
  );

  app.post(
    '/buy-number',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Buy a one-time number',
        description:
          'Send `price` (the price shown, in dollars) to be refused with 409 `price_changed` and the new `price` when it went up since.',
        body: buyNumberRequestSchema,
        response: { 200: buyNumberResponseSchema },
      },
      preHandler: purchaseLimit,
    },
    async (request) => {
      const user = currentUser(request);
      const { countryID, operator, service, price } = request.body;
      const order = await activations.buy(user.id, {
        countryId: countryID,
        operator,
        service,
        shownPriceCents: price === undefined ? undefined : Math.round(price * 100),
      });
      return { success: true as const, number: activations.present(order, []) };
    },
  );

  app.post(
    '/numbers/:id/cancel',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Cancel a number before any SMS (refunds once)',
        params: idParamSchema,
        response: { 200: buyNumberResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const order = await activations.cancel(user.id, request.params.id);
      return { success: true as const, number: activations.present(order, []) };
    },
  );

  app.post(
    '/numbers/:id/finish',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Finish a number that got its code (frees it upstream; the code stays in the history)',
        params: idParamSchema,
        response: { 200: buyNumberResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const order = await activations.finish(user.id, request.params.id);
      return {
        success: true as const,
        number: activations.present(order, await activations.messagesOf([order.id])),
      };
    },
  );

  app.post(
    '/numbers/:id/repeat',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Buy again the same country, operator and service',
        description:
          'Send `price` (the price shown) to be refused with `price_changed` when it went up since.',
        params: idParamSchema,
        body: repeatNumberRequestSchema,
        response: { 200: buyNumberResponseSchema },
      },
      preHandler: purchaseLimit,
    },
    async (request) => {
      const user = currentUser(request);
      const price = request.body?.price;
      const order = await activations.repeat(
        user.id,
        request.params.id,
        price === undefined ? undefined : Math.round(price * 100),
      );
      return { success: true as const, number: activations.present(order, []) };
    },
  );

  app.post(
    '/numbers/:id/another-sms',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Wait for another SMS on a number that received its code (free, within its lifetime)',
        params: idParamSchema,
        response: { 200: buyNumberResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const order = await activations.findOwn(user.id, request.params.id);
      await activations.requestAnotherSms(order);
      return { success: true as const, number: await activations.numberOf(user.id, order.id) };
    },
  );

  app.post(
    '/numbers/:id/report',
    {
      schema: {
        tags: ['numbers'],
        summary: 'Report a problem with a number: opens a support ticket about the order',
        description:
          'A number reported as `number_used` while it still waits for its code is ended at the supplier and refunded at once (`refunded: true`, the number); `early_cancel` while the supplier does not allow it yet. Every other report opens a ticket (`ticket_id`).',
        params: idParamSchema,
        body: reportProblemRequestSchema,
        response: { 200: reportProblemResponseSchema },
      },
      preHandler: reportLimit,
    },
    async (request) => {
      const user = currentUser(request);
      const outcome = await activations.reportProblem(user.id, request.params.id, request.body);
      if ('refunded' in outcome)
        return {
          success: true as const,
          refunded: true as const,
          number: activations.present(outcome.refunded, []),
          message: buyingMessages.numberUsedRefunded,
        };
      return { success: true as const, ticket_id: outcome.ticketId, message: buyingMessages.problemReported };
    },
  );
};
