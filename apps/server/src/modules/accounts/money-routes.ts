import { Readable } from 'node:stream';
import {
  ledgerCsvQuerySchema,
  ledgerQuerySchema,
  ledgerResponseSchema,
  orderMoneyParamsSchema,
  orderMoneyResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../lib/clock';
import { currentUser } from '../auth/guards';
import type { MoneyService } from './money-service';

/** The Money view: the caller's ledger as pages and as a CSV file, and the money side of one order or rent. */
export const moneyRoutes: FastifyPluginAsyncZod<{ money: MoneyService; clock: Clock }> = async (
  app,
  { money, clock },
) => {
  app.get(
    '/ledger',
    {
      config: { compress: true },
      schema: {
        tags: ['account'],
        summary: "The caller's ledger, newest first, with the balance and the money live orders hold",
        description:
          'Filters: `kind`, `from` and `to` (UTC days, both included). Pages by keyset: pass `next_before` as `before`.',
        querystring: ledgerQuerySchema,
        response: { 200: ledgerResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { success: true as const, ...(await money.ledger(user.id, request.query)) };
    },
  );

  app.get(
    '/ledger.csv',
    {
      schema: {
        tags: ['account'],
        summary: "The caller's whole filtered ledger as a CSV file, streamed",
        description:
          'An RFC 4180 file with a header line. Columns: transaction_id, created_at_utc (ISO 8601), kind, amount_usd, balance_after_usd, reference_kind, reference_id, refund_reason.',
        querystring: ledgerCsvQuerySchema,
        produces: ['text/csv'],
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const day = clock.now().toISOString().slice(0, 10);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="simcode-transactions-${day}.csv"`)
        .header('cache-control', 'no-store')
        .send(Readable.from(money.ledgerCsv(user.id, request.query)));
    },
  );

  app.get(
    '/numbers/:id/money',
    {
      schema: {
        tags: ['numbers'],
        summary: "A one-time number's price, ledger entries and refund reason",
        params: orderMoneyParamsSchema,
        response: { 200: orderMoneyResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { success: true as const, ...(await money.numberMoney(user.id, request.params.id)) };
    },
  );

  app.get(
    '/rents/:id/money',
    {
      schema: {
        tags: ['rents'],
        summary: "A rent's price (renewals included), ledger entries and refund reason",
        params: orderMoneyParamsSchema,
        response: { 200: orderMoneyResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return { success: true as const, ...(await money.rentMoney(user.id, request.params.id)) };
    },
  );
};
