import {
  apiKeyLogResponseSchema,
  apiKeyResponseSchema,
  apiKeysResponseSchema,
  createApiKeyRequestSchema,
  createdApiKeyResponseSchema,
  idParamSchema,
  successResponseSchema,
  updateApiKeyRequestSchema,
} from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountService } from '../account/service';
import { currentUser } from '../auth/guards';
import type { ApiKeyService } from './service';

const iso = (date: Date | null) => date?.toISOString() ?? null;

/** Managing one's own API keys: create (shown once), list, edit, revoke, the delivery log, a test delivery. */
/** Managing one's own API keys; creating one asks for proof that the owner is there (the account's check). */
export const apiKeyRoutes: FastifyPluginAsyncZod<{
  apiKeys: ApiKeyService;
  account: AccountService;
}> = async (app, { apiKeys, account }) => {
  app.get(
    '/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary: "The user's API keys",
        response: { 200: apiKeysResponseSchema },
      },
    },
    async (request) => ({ success: true as const, keys: await apiKeys.list(currentUser(request).id) }),
  );

  app.post(
    '/api-keys',
    {
      schema: {
        tags: ['api-keys'],
        summary:
          'Create an API key (the key is in this answer only); asks for the password, and the two-factor code when it is on',
        body: createApiKeyRequestSchema,
        response: { 200: createdApiKeyResponseSchema },
      },
      // The password check must not become a way for a stolen session to guess the password.
      config: {
        rateLimit: {
          max: 10,
          timeWindow: 5 * 60_000,
          keyGenerator: (request) => `api-key-create:${request.authUser?.id ?? request.ip}`,
        },
      },
    },
    async (request) => {
      const { current_password: currentPassword, code, ...settings } = request.body;
      await account.requireOwnerProof(currentUser(request).id, { currentPassword, code });
      const { key, secret } = await apiKeys.create(currentUser(request).id, settings);
      return { success: true as const, key, secret };
    },
  );

  app.patch(
    '/api-keys/:id',
    {
      schema: {
        tags: ['api-keys'],
        summary: "Change a key's name, allow-list, caps or callback URL",
        params: idParamSchema,
        body: updateApiKeyRequestSchema,
        response: { 200: apiKeyResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      key: await apiKeys.update(currentUser(request).id, request.params.id, request.body),
    }),
  );

  app.post(
    '/api-keys/:id/resume',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Resume a key that paused itself after orders in a row without a code',
        params: idParamSchema,
        response: { 200: apiKeyResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      key: await apiKeys.resume(currentUser(request).id, request.params.id),
    }),
  );

  app.post(
    '/api-keys/:id/revoke',
    {
      schema: {
        tags: ['api-keys'],
        summary: 'Revoke a key (at once)',
        params: idParamSchema,
        response: { 200: apiKeyResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      key: await apiKeys.revoke(currentUser(request).id, request.params.id),
    }),
  );

  app.get(
    '/api-keys/:id/log',
    {
      schema: {
        tags: ['api-keys'],
        summary: "A key's webhook deliveries and refusals, newest first",
        params: idParamSchema,
        response: { 200: apiKeyLogResponseSchema },
      },
    },
    async (request) => {
      const log = await apiKeys.log(currentUser(request).id, request.params.id);
      return {
        success: true as const,
        deliveries: log.deliveries.map((delivery) => ({
          id: delivery.id,
          kind: delivery.kind,
          status: delivery.status,
          attempts: delivery.attempts,
          last_status_code: delivery.lastStatusCode,
          last_error: delivery.lastError,
          created_at: delivery.createdAt.toISOString(),
          last_attempt_at: iso(delivery.lastAttemptAt),
          next_attempt_at:
            delivery.status === 'pending' && delivery.attempts > 0 ? iso(delivery.nextAttemptAt) : null,
        })),
        events: log.events.map((event) => ({
          at: event.at.toISOString(),
          kind: event.kind,
          detail: event.detail,
        })),
      };
    },
  );

  app.post(
    '/api-keys/:id/test-delivery',
    {
      schema: {
        tags: ['api-keys'],
        summary: "Queue a signed test delivery to the key's callback URL",
        params: idParamSchema,
        response: { 200: successResponseSchema },
      },
    },
    async (request) => {
      await apiKeys.sendTestDelivery(currentUser(request).id, request.params.id);
      return { success: true as const };
    },
  );
};
