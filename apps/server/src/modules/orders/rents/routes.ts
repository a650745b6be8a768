import {
  autoRenewRequestSchema,
  centsToDollars,
  countryById,
  listPageQuerySchema,
  parseRentPeriod,
  renewPriceQuerySchema,
  renewPriceResponseSchema,
  renewRequestSchema,
  rentCountriesResponseSchema,
  rentNumberRequestSchema,
  rentOrderIdParamSchema,
  rentResponseSchema,
  rentServicesQuerySchema,
  rentServicesResponseSchema,
  rentStatusResponseSchema,
  rentsResponseSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RentRow } from '../../../db/schema';
import { currentUser } from '../../auth/guards';
import type { RentalService } from './service';

/** Price lookups a user may make in a minute: browsing periods and the Renew dialog. */
const PRICE_LOOKUPS_PER_MINUTE = 60;

export const rentalRoutes: FastifyPluginAsyncZod<{
  rentals: RentalService;
  purchasesPerMinute: number;
}> = async (app, { rentals, purchasesPerMinute }) => {
  const { catalog: rentCatalog } = rentals;
  // Spending and price lookups are limited per user, after the guard has said who the user is.
  const purchaseLimit = app.rateLimit({
    max: purchasesPerMinute,
    timeWindow: 60_000,
    keyGenerator: (request) => `purchases:${request.authUser?.id}`,
  });
  const priceLookupLimit = app.rateLimit({
    max: PRICE_LOOKUPS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `rent-prices:${request.authUser?.id}`,
  });

  const presentOne = async (row: RentRow) => ({
    success: true as const,
    rent: await rentals.presentOne(row),
  });
  /** Browsing prices: each account's uncached reads are its own share of the providers' budget. */
  const browsing = (request: { authUser: { id: number } | null }) => ({
    browsing: `user:${request.authUser?.id}`,
  });

  app.get(
    '/rents',
    {
      schema: {
        tags: ['rents'],
        summary: "The user's long-term and renewable rents, newest first",
        querystring: listPageQuerySchema,
        response: { 200: rentsResponseSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return {
        success: true as const,
        rents: await rentals.list(user.id, request.query.limit, request.query.before),
      };
    },
  );

  app.get(
    '/rent-countries',
    {
      schema: {
        tags: ['rents'],
        summary: 'Countries where numbers can be rented',
        response: { 200: rentCountriesResponseSchema },
      },
    },
    async (request) => {
      const countries = (await rentCatalog.countries(browsing(request))).map((code) => {
        const country = countryById(code)!;
        return { code, name: country.name, dialCode: country.dialCode };
      });
      return { success: true as const, countries: countries.sort((a, b) => a.name.localeCompare(b.name)) };
    },
  );

  app.get(
    '/rent-services',
    {
      schema: {
        tags: ['rents'],
        summary: "A country's rentable services with our price for the period and the stock",
        querystring: rentServicesQuerySchema,
        response: { 200: rentServicesResponseSchema },
      },
      preHandler: priceLookupLimit,
    },
    async (request) => {
      const offers = await rentCatalog.offers(
        request.query.country,
        request.query.periodID,
        browsing(request),
      );
      return {
        success: true as const,
        services: Object.fromEntries(
          offers.map((offer) => [
            offer.key,
            {
              name: offer.name,
              price: centsToDollars(offer.priceCents),
              count: offer.stock,
              img: offer.icon,
            },
          ]),
        ),
      };
    },
  );

  app.post(
    '/rent-number',
    {
      schema: {
        tags: ['rents'],
        summary: 'Rent a number for a period (hours: long-term; weeks or months: renewable)',
        body: rentNumberRequestSchema,
        response: { 200: rentResponseSchema },
      },
      preHandler: purchaseLimit,
    },
    async (request) => {
      const user = currentUser(request);
      const { countryID, service, period, autoRenew } = request.body;
      // The schema has checked the period and that periodID matches it.
      const rented = await rentals.rent(user.id, {
        countryId: countryID,
        serviceKey: service,
        period: parseRentPeriod(period)!,
        autoRenew,
      });
      return presentOne(rented);
    },
  );

  app.get(
    '/rent-status/:order_id',
    {
      // Polled while the rent is live.
      config: { poll: true },
      schema: {
        tags: ['rents'],
        summary: "A rent's SMS and state, from our database (never an upstream call)",
        params: rentOrderIdParamSchema,
        response: { 200: rentStatusResponseSchema },
      },
    },
    async (request) => rentals.statusOf(currentUser(request).id, request.params.order_id),
  );

  app.post(
    '/rents/:order_id/cancel',
    {
      schema: {
        tags: ['rents'],
        summary: 'Cancel within 20 minutes and before any SMS (refunds once)',
        params: rentOrderIdParamSchema,
        response: { 200: rentResponseSchema },
      },
    },
    async (request) => presentOne(await rentals.cancel(currentUser(request).id, request.params.order_id)),
  );

  app.post(
    '/rents/:order_id/repeat',
    {
      schema: {
        tags: ['rents'],
        summary: 'Rent again the same country, service and period',
        params: rentOrderIdParamSchema,
        response: { 200: rentResponseSchema },
      },
      preHandler: purchaseLimit,
    },
    async (request) => presentOne(await rentals.repeat(currentUser(request).id, request.params.order_id)),
  );

  app.get(
    '/rents/:order_id/renew-price',
    {
      schema: {
        tags: ['rents'],
        summary: 'What renewing for periodID hours costs now',
        params: rentOrderIdParamSchema,
        querystring: renewPriceQuerySchema,
        response: { 200: renewPriceResponseSchema },
      },
      preHandler: priceLookupLimit,
    },
    async (request) => {
      const quote = await rentals.renewalPrice(
        currentUser(request).id,
        request.params.order_id,
        request.query.periodID,
      );
      return { success: true as const, periodID: quote.hours, price: centsToDollars(quote.priceCents) };
    },
  );

  app.post(
    '/rents/:order_id/renew',
    {
      schema: {
        tags: ['rents'],
        summary: 'Extend a rent by periodID hours (charged once)',
        params: rentOrderIdParamSchema,
        body: renewRequestSchema,
        response: { 200: rentResponseSchema },
      },
      preHandler: purchaseLimit,
    },
    async (request) =>
      presentOne(
        await rentals.renew(currentUser(request).id, request.params.order_id, request.body.periodID),
      ),
  );

  app.post(
    '/rents/:order_id/auto-renew',
    {
      schema: {
        tags: ['rents'],
        summary: 'Switch automatic renewal of a renewable rent',
        params: rentOrderIdParamSchema,
        body: autoRenewRequestSchema,
        response: { 200: rentResponseSchema },
      },
    },
    async (request) =>
      presentOne(
        await rentals.setAutoRenew(currentUser(request).id, request.params.order_id, request.body.enabled),
      ),
  );
};
