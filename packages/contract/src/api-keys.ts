import { z } from 'zod';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { plainText, validationMessages as say } from './wire';

/** A user may hold this many keys that are not revoked. */
export const API_KEYS_MAX_LIVE = 10;
export const API_KEY_NAME_MAX_LENGTH = 60;
export const API_KEY_ALLOWED_IPS_MAX = 20;
/** Largest spending cap, in dollars (a bigger one means no cap). */
export const API_KEY_CAP_MAX_USD = 100_000;
export const API_KEY_MAX_ACTIVE_ORDERS_MAX = 1000;
export const API_KEY_CALLBACK_URL_MAX_LENGTH = 500;

export const apiKeyMessages = defineMessages('apiKeys', en.apiKeys, (t) => ({
  get tooManyKeys() {
    return t('tooManyKeys', { max: API_KEYS_MAX_LIVE });
  },
}));

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

const keyName = z
  .string({ error: () => say.mustBeString })
  .trim()
  .min(1, { error: () => say.keyName })
  .max(API_KEY_NAME_MAX_LENGTH, { error: () => say.longerThan(API_KEY_NAME_MAX_LENGTH) })
  .regex(NO_CONTROL_CHARACTERS, { error: () => say.noControlCharacters });

/** An address or a CIDR range, IPv4 or IPv6. */
export const ipOrCidrSchema = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
  error: () => say.ipOrCidr,
});

const capUsd = z
  .number({ error: () => say.mustBeNumber })
  .positive({ error: () => say.moreThan(0) })
  .max(API_KEY_CAP_MAX_USD, { error: () => say.atMost(API_KEY_CAP_MAX_USD) })
  .nullable();

const keySettings = {
  allowed_ips: z
    .array(ipOrCidrSchema, { error: () => say.mustBeList })
    .max(API_KEY_ALLOWED_IPS_MAX, { error: () => say.maxEntries(API_KEY_ALLOWED_IPS_MAX) }),
  /** Dollars; null for no cap. */
  daily_cap: capUsd,
  total_cap: capUsd,
  max_active_orders: z
    .number({ error: () => say.mustBeNumber })
    .int({ error: () => say.mustBeWholeNumber })
    .min(1, { error: () => say.atLeast(1) })
    .max(API_KEY_MAX_ACTIVE_ORDERS_MAX, { error: () => say.atMost(API_KEY_MAX_ACTIVE_ORDERS_MAX) })
    .nullable(),
  callback_url: z
    .string({ error: () => say.mustBeString })
    .trim()
    .max(API_KEY_CALLBACK_URL_MAX_LENGTH, { error: () => say.isTooLong })
    .regex(NO_CONTROL_CHARACTERS, { error: () => say.noControlCharacters })
    // https only; the server also lets http through when the operator allows private targets (tests).
    .refine((value) => /^https?:\/\/[^\s/?#]+/i.test(value), { error: () => apiKeyMessages.callbackNotHttps })
    .nullable(),
};

/**
 * A key outlives every session, so creating one asks for proof that the owner is there: the current
 * password, and a two-factor code when two-factor is on.
 */
export const createApiKeyRequestSchema = z.strictObject({
  current_password: plainText(1000).optional().default(''),
  code: plainText(40).optional().default(''),
  name: keyName,
  allowed_ips: keySettings.allowed_ips.optional().default([]),
  daily_cap: keySettings.daily_cap.optional().default(null),
  total_cap: keySettings.total_cap.optional().default(null),
  max_active_orders: keySettings.max_active_orders.optional().default(null),
  callback_url: keySettings.callback_url.optional().default(null),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

export const updateApiKeyRequestSchema = z.strictObject({
  name: keyName.optional(),
  allowed_ips: keySettings.allowed_ips.optional(),
  daily_cap: keySettings.daily_cap.optional(),
  total_cap: keySettings.total_cap.optional(),
  max_active_orders: keySettings.max_active_orders.optional(),
  callback_url: keySettings.callback_url.optional(),
});
export type UpdateApiKeyRequest = z.input<typeof updateApiKeyRequestSchema>;

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's first characters, to tell keys apart. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
  allowed_ips: z.array(z.string()),
  daily_cap: z.number().nullable(),
  total_cap: z.number().nullable(),
  max_active_orders: z.number().int().nullable(),
  callback_url: z.string().nullable(),
  /** Signs the callback (HMAC-SHA256); shown to the owner only. */
  webhook_secret: z.string(),
  /** Dollars spent through the key today (UTC) and in all, refunds excluded. */
  spent_today: z.number(),
  spent_total: z.number(),
  active_orders: z.number().int(),
});
export type ApiKeyView = z.infer<typeof apiKeySchema>;

export const apiKeysResponseSchema = z.object({ success: z.literal(true), keys: z.array(apiKeySchema) });
export type ApiKeysResponse = z.infer<typeof apiKeysResponseSchema>;
export const apiKeyResponseSchema = z.object({ success: z.literal(true), key: apiKeySchema });
export type ApiKeyResponse = z.infer<typeof apiKeyResponseSchema>;
export const createdApiKeyResponseSchema = z.object({
  success: z.literal(true),
  key: apiKeySchema,
  /** The key itself: shown this once, stored only as a hash. */
  secret: z.string(),
});
export type CreatedApiKeyResponse = z.infer<typeof createdApiKeyResponseSchema>;

export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  kind: z.enum(['activation_sms', 'rent_sms', 'test']),
  status: z.enum(['pending', 'delivered', 'failed']),
  attempts: z.number().int(),
  last_status_code: z.number().int().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  last_attempt_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
});
export type WebhookDeliveryView = z.infer<typeof webhookDeliverySchema>;

export const apiKeyEventSchema = z.object({ at: z.string(), kind: z.string(), detail: z.string() });

export const apiKeyLogResponseSchema = z.object({
  success: z.literal(true),
  deliveries: z.array(webhookDeliverySchema),
  events: z.array(apiKeyEventSchema),
});
export type ApiKeyLogResponse = z.infer<typeof apiKeyLogResponseSchema>;
