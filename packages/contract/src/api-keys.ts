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
  priceAboveKeyCeiling: (price: string, ceiling: string) => t('priceAboveKeyCeiling', { price, ceiling }),
  deliveryBelowFloor: (rate: string, floor: string) => t('deliveryBelowFloor', { rate, floor }),
  keyPaused: (failures: number) => t('keyPaused', { count: failures }),
  dailyCapReached: (cap: string, spent: string, price: string) => t('dailyCapReached', { cap, spent, price }),
  totalCapReached: (cap: string, spent: string, price: string) => t('totalCapReached', { cap, spent, price }),
  activeOrdersCapReached: (max: number) => t('activeOrdersCapReached', { max }),
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

/** What a key may do: everything; read only; or buy, reading only what it bought. */
export const apiKeyScopes = ['full', 'read', 'buy'] as const;
export type ApiKeyScope = (typeof apiKeyScopes)[number];
/** The most failed orders in a row a key may be told to stop after. */
export const API_KEY_STOP_AFTER_MAX = 1000;

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
  scope: z.enum(apiKeyScopes, { error: () => say.oneOf(apiKeyScopes) }),
  /** Dollars one purchase through the key may cost at most; null for no ceiling. */
  max_price: capUsd,
  /** Offers whose known delivery rate (0 to 1) is below this are refused; null for no floor. */
  min_delivery_rate: z
    .number({ error: () => say.mustBeNumber })
    .min(0, { error: () => say.atLeast(0) })
    .max(1, { error: () => say.atMost(1) })
    .nullable(),
  /** The key pauses after this many orders in a row ended without a code; null never. */
  stop_after_failures: z
    .number({ error: () => say.mustBeNumber })
    .int({ error: () => say.mustBeWholeNumber })
    .min(1, { error: () => say.atLeast(1) })
    .max(API_KEY_STOP_AFTER_MAX, { error: () => say.atMost(API_KEY_STOP_AFTER_MAX) })
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
  scope: keySettings.scope.optional().default('full'),
  max_price: keySettings.max_price.optional().default(null),
  min_delivery_rate: keySettings.min_delivery_rate.optional().default(null),
  stop_after_failures: keySettings.stop_after_failures.optional().default(null),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

export const updateApiKeyRequestSchema = z.strictObject({
  name: keyName.optional(),
  allowed_ips: keySettings.allowed_ips.optional(),
  daily_cap: keySettings.daily_cap.optional(),
  total_cap: keySettings.total_cap.optional(),
  max_active_orders: keySettings.max_active_orders.optional(),
  callback_url: keySettings.callback_url.optional(),
  scope: keySettings.scope.optional(),
  max_price: keySettings.max_price.optional(),
  min_delivery_rate: keySettings.min_delivery_rate.optional(),
  stop_after_failures: keySettings.stop_after_failures.optional(),
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
  scope: z.enum(apiKeyScopes),
  max_price: z.number().nullable(),
  min_delivery_rate: z.number().nullable(),
  stop_after_failures: z.number().int().nullable(),
  /** Orders through the key that ended without a code since the last one that got one. */
  failures_in_a_row: z.number().int(),
  /** When the key paused itself after stop_after_failures orders in a row; null while it is not paused. */
  paused_at: z.string().nullable(),
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
