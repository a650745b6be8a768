import { plainText } from '@simcode/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { notFound } from '../../lib/errors';
import { timingSafeEqualText } from '../../lib/timing-safe';

/**
 * Where the SMS upstream pushes incoming SMS (activation webhooks are set in the provider's dashboard,
 * rent webhooks are passed per rent). The providers do not sign them, so the URL carries a secret path
 * segment; anything else answers 404 as if the route did not exist.
 */
export const upstreamWebhookRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.post(
    '/sms/:secret',
    {
      schema: { hide: true, params: z.object({ secret: plainText(200) }) },
      config: { rateLimit: { max: 600, timeWindow: 60_000 } },
    },
    async (request) => {
      if (!timingSafeEqualText(request.params.secret, ctx.config.SMS_WEBHOOK_SECRET)) throw notFound();
      const event = ctx.sms.parseWebhook(request.body);
      if (!event) return { success: true, ignored: true };
      if (event.type === 'activation') {
        const recorded = await ctx.activations.recordPushedSms(event.activationId, {
          code: event.code,
          text: event.text,
          receivedAt: event.receivedAt,
        });
        return { success: true, recorded };
      }
      const recorded = await ctx.rentals.recordPushedSms(event.rentId, {
        from: event.from,
        text: event.text,
        receivedAt: event.receivedAt,
      });
      return { success: true, recorded };
    },
  );
};

export function smsWebhookPath(secret: string): string {
  return `/api/upstream/sms/${secret}`;
}
