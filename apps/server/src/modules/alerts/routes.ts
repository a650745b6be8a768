import {
  alertChannelCreatedSchema,
  alertChannelCreateSchema,
  alertChannelSchema,
  alertChannelUpdateSchema,
  alertSettingsSchema,
  alertsResponseSchema,
  databaseIdParam,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../auth/guards';
import type { AlertsService } from './service';

const tags = ['admin'];

/** The console's operator alerts; the administrator guard runs before these (registered with the console's). */
export const alertRoutes: FastifyPluginAsyncZod<{ alerts: AlertsService }> = async (app, { alerts }) => {
  app.get(
    '/alerts',
    {
      schema: {
        tags,
        summary:
          'Operator alerts (open and resolved), channels (without secrets), thresholds, supplier balances',
        response: { 200: alertsResponseSchema },
      },
    },
    async () => ({ success: true as const, ...(await alerts.view()) }),
  );

  app.post(
    '/alerts/channels',
    {
      schema: {
        tags,
        summary: "Add an alert channel; a webhook's signing secret is answered this once",
        body: alertChannelCreateSchema,
        response: { 200: alertChannelCreatedSchema },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await alerts.addChannel(currentUser(request), request.body)),
    }),
  );

  app.patch(
    '/alerts/channels/:id',
    {
      schema: {
        tags,
        summary: 'Switch an alert channel on or off',
        params: z.object({ id: databaseIdParam }),
        body: alertChannelUpdateSchema,
        response: { 200: z.object({ success: z.literal(true), channel: alertChannelSchema }) },
      },
    },
    async (request) => ({
      success: true as const,
      channel: await alerts.setChannelEnabled(currentUser(request), request.params.id, request.body.enabled),
    }),
  );

  app.delete(
    '/alerts/channels/:id',
    {
      schema: {
        tags,
        summary: 'Remove an alert channel (its queued messages go with it)',
        params: z.object({ id: databaseIdParam }),
        response: { 200: z.object({ success: z.literal(true) }) },
      },
    },
    async (request) => {
      await alerts.removeChannel(currentUser(request), request.params.id);
      return { success: true as const };
    },
  );

  app.put(
    '/alerts/settings',
    {
      schema: {
        tags,
        summary: 'Save the alert and buyer-isolation thresholds',
        body: alertSettingsSchema,
        response: { 200: z.object({ success: z.literal(true), settings: alertSettingsSchema }) },
      },
    },
    async (request) => ({
      success: true as const,
      settings: await alerts.saveSettings(currentUser(request), request.body),
    }),
  );
};
