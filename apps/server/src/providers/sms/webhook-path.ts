/** Where a provider that can send a header puts the SMS webhook secret, instead of in the URL. */
export const SMS_WEBHOOK_SECRET_HEADER = 'x-webhook-secret';

/**
 * Where the SMS upstream pushes incoming SMS (modules/upstream/routes.ts): the secret path segment, then
 * the provider's name; without a name, the first provider's, as it was before the pool.
 */
export function smsWebhookPath(secret: string, provider?: string): string {
  return provider === undefined ? `/api/upstream/sms/${secret}` : `/api/upstream/sms/${secret}/${provider}`;
}
