import { z } from 'zod';
import { formatCents } from './http';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { MIN_TOPUP_CENTS } from './limits';
import { validationMessages as say } from './wire';

/**
 * Balance top-ups with cryptocurrency (spec sections 2, 4, 5, 7, 8 and 9): texts, statuses, the amount
 * rule both apps apply, and the wire shapes of the top-up endpoints. Amounts are dollars on the wire and
 * integer cents everywhere else.
 */

export const topupMessages = defineMessages('topup', en.topup, (t) => ({
  maximum: (maxCents: number) => t('maximum', { amount: formatCents(maxCents) }),
  /** Names the processor actually used; for Cryptomus it is the spec's 'Failed to create Cryptomus invoice'. */
  invoiceFailedAt: (brand: string) => t('invoiceFailedAt', { provider: brand }),
}));

/** Payment processors' names are brands: the same in every language. */
const PAYMENT_PROVIDER_BRANDS: Record<string, string> = {
  cryptomus: 'Cryptomus',
  heleket: 'Heleket',
  nowpayments: 'NOWPayments',
};
/** The brand of a provider of the pool (`cryptomus` → Cryptomus); an unknown name as it is. */
export const paymentProviderBrand = (provider: string) => PAYMENT_PROVIDER_BRANDS[provider] ?? provider;

/** Per-user limit on creating invoices: plenty for a person, a wall for a script. */
export const TOPUP_CREATE_RATE_LIMIT = { max: 10, timeWindowMs: 60_000 } as const;
/** How many of a user's latest top-ups the list shows. */
export const RECENT_TOPUPS_LIMIT = 20;
/** Suggested amounts on the Top Up page, in cents. */
export const QUICK_TOPUP_AMOUNTS_CENTS = [500, 1000, 2500, 5000, 10_000] as const;

/**
 * A top-up's state as the API reports it. COMPLETED means the money is on the balance; PENDING waits for
 * the payment (or its blockchain confirmations); the others ended without a credit: UNDERPAID needs
 * support (less than the invoice arrived), CANCELED was closed before its time, EXPIRED ran out of time.
 */
export const topupStatuses = ['PENDING', 'COMPLETED', 'UNDERPAID', 'CANCELED', 'FAILED', 'EXPIRED'] as const;
export type TopupStatus = (typeof topupStatuses)[number];

export type TopupAmountCheck =
  | { amountCents: number; error?: undefined }
  | { amountCents?: undefined; error: string };

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;

/**
 * The top-up amount rule: a number of dollars from $5 to the maximum, with at most two decimals. Text (the
 * page's input) and numbers (the API's JSON) are both read from their digits, so 12.34 is exactly 1234
 * cents and 5.001 is refused instead of rounded. Not a number at all is 'Minimum top up is $5' (spec 5).
 */
export function checkTopupAmount(amount: number | string, maxCents: number): TopupAmountCheck {
  // A JSON number's shortest text is the text that was sent (12.34 reads "12.34", never 12.339999...).
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const value = Number(text);
  if (text === '' || !Number.isFinite(value) || value < MIN_TOPUP_CENTS / 100)
    return { error: topupMessages.minimum };
  if (value > maxCents / 100) return { error: topupMessages.maximum(maxCents) };
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return { error: topupMessages.notAnAmount };
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > 2) return { error: topupMessages.tooManyDecimals };
  return { amountCents: Number(match[1]) * 100 + Number(fraction.padEnd(2, '0')) };
}

export const createInvoiceRequestSchema = z.object({
  /** Dollars: at least 5, at most the configured maximum, two decimals at most (checked by the rule above). */
  amount: z.number({ error: (issue) => (issue.input === undefined ? say.isRequired : say.mustBeNumber) }),
  /** Which payment provider of GET /api/topup/methods to pay through; the first healthy one when absent. */
  provider: z.string().min(1).max(32).optional(),
});
export type CreateInvoiceRequest = z.input<typeof createInvoiceRequestSchema>;

export const createInvoiceResponseSchema = z.object({
  success: z.literal(true),
  /** The provider's hosted payment page, opened in the popup. */
  url: z.string(),
  order_id: z.string(),
  /** The payment provider the invoice was made at. */
  provider: z.string(),
});
export type CreateInvoiceResponse = z.infer<typeof createInvoiceResponseSchema>;

export const ORDER_ID_MAX_LENGTH = 128;
export const topupStatusQuerySchema = z.object({
  order_id: z
    .string({ error: () => say.isRequired })
    .trim()
    .min(1, { error: () => say.isRequired })
    .max(ORDER_ID_MAX_LENGTH, { error: () => say.isTooLong })
    .regex(/^[A-Za-z0-9_-]+$/, { error: () => say.orderIdCharacters }),
});

export const topupStatusResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(topupStatuses),
});
export type TopupStatusResponse = z.infer<typeof topupStatusResponseSchema>;

export const topupSchema = z.object({
  order_id: z.string(),
  /** Dollars: the invoice amount. */
  amount: z.number(),
  /** Dollars put on the balance; more than `amount` when the payer paid over. Null until credited. */
  credited_amount: z.number().nullable(),
  status: z.enum(topupStatuses),
  /** The payment provider's last word (e.g. `confirm_check` while the blockchain confirms), for detail. */
  provider_status: z.string().nullable(),
  created_at: z.string(),
  expires_at: z.string(),
  credited_at: z.string().nullable(),
  /** The payment page, while the invoice can still be paid. */
  url: z.string().nullable(),
});
export type Topup = z.infer<typeof topupSchema>;

export const topupsResponseSchema = z.object({
  success: z.literal(true),
  payments: z.array(topupSchema),
  /** The amount range the server accepts, in dollars (the maximum is configurable). */
  limits: z.object({ min_amount: z.number(), max_amount: z.number() }),
});
export type TopupsResponse = z.infer<typeof topupsResponseSchema>;

/** One way to pay at a provider, as the provider states it. */
export const paymentMethodSchema = z.object({
  currency: z.string(),
  network: z.string(),
  /** The least the provider accepts in this coin, in the coin (decimal text). */
  min_amount: z.string(),
  /** The processor's commission in percent (decimal text); the payer pays the invoice amount only. */
  fee_percent: z.string(),
});

/** The payment providers that answer now, in order of preference, with their methods. */
export const topupMethodsResponseSchema = z.object({
  success: z.literal(true),
  providers: z.array(
    z.object({ provider: z.string(), kind: z.string(), methods: z.array(paymentMethodSchema) }),
  ),
});
export type TopupMethodsResponse = z.infer<typeof topupMethodsResponseSchema>;

/** A coin and a network as a provider writes them. */
const coinCode = z.string().regex(/^[A-Za-z0-9]{1,16}$/, { error: () => say.isRequired });
const networkCode = z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, { error: () => say.isRequired });

/** Asks for the user's permanent deposit address of a coin on a network at a provider. */
export const depositAddressRequestSchema = z.object({
  provider: z.string().min(1).max(32),
  currency: coinCode,
  network: networkCode,
});
export type DepositAddressRequest = z.input<typeof depositAddressRequestSchema>;

/** A permanent address: every confirmed deposit to it is credited at the processor's US dollar value. */
export const depositAddressSchema = z.object({
  provider: z.string(),
  currency: z.string(),
  network: z.string(),
  address: z.string(),
  /** The provider's page of the wallet, when it has one. */
  url: z.string().nullable(),
  created_at: z.string(),
});
export type DepositAddress = z.infer<typeof depositAddressSchema>;

export const depositAddressResponseSchema = z.object({
  success: z.literal(true),
  address: depositAddressSchema,
});
export type DepositAddressResponse = z.infer<typeof depositAddressResponseSchema>;

export const depositAddressesResponseSchema = z.object({
  success: z.literal(true),
  /** The user's addresses. */
  addresses: z.array(depositAddressSchema),
  /** Coins an address can be had in now: healthy providers with static wallets only. */
  options: z.array(
    z.object({ provider: z.string(), currency: z.string(), network: z.string(), min_amount: z.string() }),
  ),
});
export type DepositAddressesResponse = z.infer<typeof depositAddressesResponseSchema>;
