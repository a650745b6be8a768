import {
  centsToDollars,
  createInvoiceRequestSchema,
  createInvoiceResponseSchema,
  depositAddressesResponseSchema,
  depositAddressRequestSchema,
  depositAddressResponseSchema,
  successResponseSchema,
  TOPUP_CREATE_RATE_LIMIT,
  topupMethodsResponseSchema,
  topupStatusQuerySchema,
  topupStatusResponseSchema,
  topupsResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import { currentUser } from '../auth/guards';
import { presentDepositAddress, presentTopup, wireStatus } from './presenter';
import type { TopupService } from './service';

/** Webhooks come from the provider's few addresses; this only stops a flood, never a real delivery. */
const WEBHOOK_RATE_LIMIT = { max: 600, timeWindow: 60_000 };

/** Balance top-ups (spec section 7): create an invoice, follow its status, list the latest ones. */
export const topupRoutes: FastifyPluginAsyncZod<{ topups: TopupService; clock: Clock }> = async (
  app,
  { topups, clock },
) => {
  // Each invoice costs a provider call: limited per user, once the guard has said who the user is.
  const createLimit = app.rateLimit({
    max: TOPUP_CREATE_RATE_LIMIT.max,
    timeWindow: TOPUP_CREATE_RATE_LIMIT.timeWindowMs,
    keyGenerator: (request) => `topup:${currentUser(request).id}`,
  });
  const asUser = { tags: ['top-up'], security: [{ bearer: [] }] };

  app.post(
    '/cryptomus/create-invoice',
    {
      schema: {
        ...asUser,
        summary: 'Create a crypto invoice to top up the balance',
        body: createInvoiceRequestSchema,
        response: { 200: createInvoiceResponseSchema },
      },
      preHandler: createLimit,
    },
    async (request) => {
      const { url, orderId, provider } = await topups.createInvoice(
        currentUser(request).id,
        request.body.amount,
        request.body.provider,
      );
      return { success: true as const, url, order_id: orderId, provider };
    },
  );

  app.get(
    '/methods',
    {
      schema: {
        ...asUser,
        summary: 'The payment providers that answer now, with their coins, networks, minimums and fees',
        response: { 200: topupMethodsResponseSchema },
      },
    },
    async () => {
      const providers = await topups.methods();
      return {
        success: true as const,
        providers: providers.map(({ provider, kind, methods }) => ({
          provider,
          kind,
          methods: methods.map((method) => ({
            currency: method.currency,
            network: method.network,
            min_amount: method.minAmount,
            fee_percent: method.feePercent,
          })),
        })),
      };
    },
  );

  app.get(
    '/deposit-addresses',
    {
      schema: {
        ...asUser,
        summary: 'Your permanent deposit addresses, and the coins an address can be had in now',
        response: { 200: depositAddressesResponseSchema },
      },
    },
    async (request) => {
      const [addresses, options] = await Promise.all([
        topups.deposits.list(currentUser(request).id),
        topups.deposits.options(),
      ]);
      return {
        success: true as const,
        addresses: addresses.map(presentDepositAddress),
        options: options.map(({ provider, currency, network, minAmount }) => ({
          provider,
          currency,
          network,
          min_amount: minAmount,
        })),
      };
    },
  );

  app.post(
    '/deposit-addresses',
    {
      schema: {
        ...asUser,
        summary: 'Your permanent deposit address of a coin on a network (created once, then the same)',
        body: depositAddressRequestSchema,
        response: { 200: depositAddressResponseSchema },
      },
      preHandler: createLimit,
    },
    async (request) => {
      const address = await topups.deposits.addressFor(currentUser(request).id, request.body);
      return { success: true as const, address: presentDepositAddress(address) };
    },
  );

  app.get(
    '/cryptomus/status',
    {
      // Polled until the invoice is final.
      config: { poll: true },
      schema: {
        ...asUser,
        summary: 'Status of one of your top-ups (COMPLETED once credited), from our database',
        querystring: topupStatusQuerySchema,
        response: { 200: topupStatusResponseSchema },
      },
    },
    async (request) => {
      const payment = await topups.findForUser(currentUser(request).id, request.query.order_id);
      return { success: true as const, status: wireStatus(payment) };
    },
  );

  app.get(
    '/payments',
    {
      // A list: large enough to be worth compressing per answer.
      config: { compress: true },
      schema: {
        ...asUser,
        summary: 'Your latest top-ups with their statuses, and the accepted amount range',
        response: { 200: topupsResponseSchema },
      },
    },
    async (request) => {
      const now = clock.now();
      const list = await topups.listRecent(currentUser(request).id);
      const { minCents, maxCents } = topups.limits();
      return {
        success: true as const,
        payments: list.map((payment) => presentTopup(payment, now)),
        limits: { min_amount: centsToDollars(minCents), max_amount: centsToDollars(maxCents) },
      };
    },
  );
};

/** Each payment provider's webhook (`/<provider>/webhook`): verified by its signature, so it needs no session. */
export const topupWebhookRoutes: FastifyPluginAsyncZod<{ topups: TopupService }> = async (
  app,
  { topups },
) => {
  // The signature covers the exact bytes sent, so this route alone keeps JSON bodies as text.
  await app.register(async (webhookScope) => {
    webhookScope.removeContentTypeParser('application/json');
    webhookScope.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );
    webhookScope.post<{ Params: { provider: string } }>(
      '/:provider/webhook',
      {
        schema: {
          tags: ['top-up'],
          summary: "A payment provider's status-change webhook (signed)",
          response: { 200: successResponseSchema },
        },
        config: { rateLimit: WEBHOOK_RATE_LIMIT },
      },
      async (request) => {
        await topups.handleWebhook(
          request.params.provider,
          typeof request.body === 'string' ? request.body : '',
          request.ip,
          request.headers,
        );
        return { success: true as const };
      },
    );
  });
};
