import { z } from 'zod';

/** The operators' alert thresholds (integers, unit in the name); see the server's modules/alerts/settings.ts. */
export const alertSettingsSchema = z.object({
  balanceHorizonHours: z.number().int().min(1).max(720),
  balanceFloorCents: z.number().int().min(0).max(100_000_000),
  leakageThresholdPercent: z.number().int().min(0).max(100),
  lateSmsThreshold: z.number().int().min(1).max(100_000),
  channelMessagesPerHour: z.number().int().min(1).max(10_000),
  buyerWindowMinutes: z.number().int().min(5).max(10_080),
  buyerMaxCancels: z.number().int().min(1).max(100_000),
  buyerMaxNoCode: z.number().int().min(1).max(100_000),
  buyerMaxEarlyCancelRefusals: z.number().int().min(1).max(100_000),
});
export type AlertSettingsView = z.infer<typeof alertSettingsSchema>;

export const alertChannelKindSchema = z.enum(['email', 'webhook', 'telegram']);

/** A channel as the console shows it: never its secret. */
export const alertChannelSchema = z.object({
  id: z.number().int(),
  kind: alertChannelKindSchema,
  name: z.string(),
  addresses: z.array(z.string()).optional(),
  url: z.string().optional(),
  chat_id: z.string().optional(),
  /** Null: the built-in Telegram Bot API stand-in. */
  api_base_url: z.string().nullable().optional(),
  enabled: z.boolean(),
  created_at: z.string(),
});
export type AlertChannelView = z.infer<typeof alertChannelSchema>;

const httpUrl = z
  .string()
  .trim()
  .max(2000)
  .regex(/^https?:\/\/[^\s]+$/, { error: 'must be an http(s) URL' });

export const alertChannelCreateSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('email'),
    name: z.string().trim().min(1).max(100),
    addresses: z.array(z.email().max(254)).min(1).max(20),
  }),
  z.object({ kind: z.literal('webhook'), name: z.string().trim().min(1).max(100), url: httpUrl }),
  z.object({
    kind: z.literal('telegram'),
    name: z.string().trim().min(1).max(100),
    bot_token: z
      .string()
      .trim()
      .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/, { error: 'must be a bot token (digits:characters)' }),
    chat_id: z
      .string()
      .trim()
      .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,32})$/, { error: 'must be a chat id or @channel' }),
    api_base_url: httpUrl.optional(),
  }),
]);
export type AlertChannelCreate = z.input<typeof alertChannelCreateSchema>;

export const alertChannelCreatedSchema = z.object({
  success: z.literal(true),
  channel: alertChannelSchema,
  /** A webhook's signing secret, shown this once; never again. */
  secret: z.string().optional(),
});

export const alertChannelUpdateSchema = z.object({ enabled: z.boolean() });

export const operatorAlertSchema = z.object({
  id: z.number().int(),
  key: z.string(),
  kind: z.string(),
  summary: z.string(),
  evidence: z.record(z.string(), z.unknown()),
  link: z.string(),
  since: z.string(),
  opened_at: z.string(),
  resolved_at: z.string().nullable(),
});
export type OperatorAlertView = z.infer<typeof operatorAlertSchema>;

export const supplierBalanceSchema = z.object({
  provider: z.string(),
  balance_cents: z.number().int(),
  read_at: z.string(),
  spend_cents_per_hour: z.number().int().nullable(),
  hours_left: z.number().nullable(),
  in_routing: z.boolean(),
});

export const alertsResponseSchema = z.object({
  success: z.literal(true),
  alerts: z.array(operatorAlertSchema),
  channels: z.array(alertChannelSchema),
  settings: alertSettingsSchema,
  balances: z.array(supplierBalanceSchema),
});
export type AlertsResponse = z.infer<typeof alertsResponseSchema>;
