import { plainText } from '@simcode/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { timingSafeEqualText } from '../../lib/timing-safe';
import type { ProviderPool } from '../../providers/sms/pool';
import { SMS_WEBHOOK_SECRET_HEADER } from '../../providers/sms/webhook-path';
import type { ActivationService } from '../orders/activations/service';
import type { RentalService } from '../orders/rents/service';

const WEBHOOK_RATE_LIMIT = { max: 600, timeWindow: 60_000 };

/**
 * Where the SMS upstream pushes incoming SMS (activation webhooks are set in the provider's dashboard,
 * rent webhooks are passed per rent). The SMS-Activate family neither signs them nor sends headers of our
 * choosing, so the URL carries a secret path segment (never logged: see lib/log-redaction.ts); a provider
 * that can send a header posts to `/sms` with the secret in `X-Webhook-Secret` instead. Either is compared
 * in constant time, and a wrong one answers 404 as if the route did not exist. Each stored SMS keeps the
 * address that delivered it, for support's audit.
 *
 * Each provider of the pool has its own URL, the secret followed by its name (`/sms/<secret>/<provider>`);
 * the URL without a name is the first provider's, as it was before the pool.
 */
interface UpstreamWebhookDeps {
  providers: ProviderPool;
  activations: ActivationService;
  rentals: RentalService;
  webhookSecret: string;
}

export const upstreamWebhookRoutes: FastifyPluginAsyncZod<UpstreamWebhookDeps> = async (
  app,
  { providers, activations, rentals, webhookSecret },
) => {
  async function deliver(request: FastifyRequest, secret: string | undefined, providerName?: string) {
    if (secret === undefined || !timingSafeEqualText(secret, webhookSecret)) throw notFound();
    const name = providerName ?? providers.names[0]!;
    if (!providers.has(name)) throw notFound();
    const event = providers.get(name).parseWebhook(request.body);
    if (!event) return { success: true, ignored: true };
    const sourceAddress = request.ip;
    if (event.type === 'activation') {
      const recorded = await activations.recordPushedSms(name, event.activationId, {
        code: event.code,
        text: event.text,
        sender: event.from,
        receivedAt: event.receivedAt,
        sourceAddress,
      });
      return { success: true, recorded };
    }
    const recorded = await rentals.recordPushedSms(name, event.rentId, {
      from: event.from,
      text: event.text,
      receivedAt: event.receivedAt,
      sourceAddress,
    });
    return { success: true, recorded };
  }

  app.post(
    '/sms/:secret',
    {
      schema: { hide: true, params: z.object({ secret: plainText(200) }) },
      config: { rateLimit: WEBHOOK_RATE_LIMIT },
    },
    (request) => deliver(request, request.params.secret),
  );

  app.post(
    '/sms/:secret/:provider',
    {
      schema: { hide: true, params: z.object({ secret: plainText(200), provider: plainText(40) }) },
      config: { rateLimit: WEBHOOK_RATE_LIMIT },
    },
    (request) => deliver(request, request.params.secret, request.params.provider),
  );

  app.post(
    '/sms',
    {
      schema: { hide: true, headers: z.object({ [SMS_WEBHOOK_SECRET_HEADER]: plainText(200).optional() }) },
      config: { rateLimit: WEBHOOK_RATE_LIMIT },
    },
    (request) => deliver(request, request.headers[SMS_WEBHOOK_SECRET_HEADER]),
  );
};
