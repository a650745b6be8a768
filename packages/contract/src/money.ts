import { z } from 'zod';
import { LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX, numberStatuses } from './dashboard';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { databaseIdParam, decimalInteger, validationMessages as say } from './wire';

/**
 * The Money view (`/dashboard/balance`): the customer's ledger, what live orders hold, and why a refund
 * happened. Amounts are dollars on the wire and integer cents everywhere else.
 */

/**
 * An entry's kind as the customer reads it. The database knows four kinds; a renewal is a purchase whose
 * reference is a rent renewal, shown apart because it is charged on an existing rent.
 */
export const ledgerEntryKinds = ['topup', 'purchase', 'refund', 'renewal', 'adjustment'] as const;
export type LedgerEntryKind = (typeof ledgerEntryKinds)[number];

/** Why money came back: derived on the server from the refund's reference and the order's state. */
export const refundReasons = [
  'no_code',
  'canceled_by_you',
  'provider_failure',
  'refunded_by_support',
  'number_used',
] as const;
export type RefundReason = (typeof refundReasons)[number];

/** What an entry is about, when it is about something the customer can open. */
export const ledgerReferenceKinds = ['number', 'rent', 'topup'] as const;
export type LedgerReferenceKind = (typeof ledgerReferenceKinds)[number];

const TRANSACTION_ID_DIGITS = 6;

/** The ledger entry's id as support and the refund policy name it: 123 → 'TX-000123'. Stable forever. */
export function transactionId(entryId: number): string {
  return `TX-${String(entryId).padStart(TRANSACTION_ID_DIGITS, '0')}`;
}

export const moneyMessages = defineMessages('money', en.money);

/** A calendar day in UTC, `YYYY-MM-DD`, that exists (no 2026-02-30). The output is the day's midnight UTC. */
export const utcDateParam = z
  .string({ error: () => say.date })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: () => say.dateWritten, abort: true })
  .transform((value, context) => {
    const day = new Date(`${value}T00:00:00.000Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value) {
      context.addIssue({ code: 'custom', message: say.dateExists });
      return z.NEVER;
    }
    return day;
  });

const DAY_MS = 24 * 60 * 60 * 1000;

/** The midnight after a UTC day: where a range whose last included day is `day` stops. */
export function dayAfter(day: Date): Date {
  return new Date(day.getTime() + DAY_MS);
}

export const LEDGER_PAGE_DEFAULT = 50;
export const LEDGER_PAGE_MAX = 200;

const ledgerFilterShape = {
  kind: z.enum(ledgerEntryKinds).optional(),
  /** First day included (UTC). */
  from: utcDateParam.optional(),
  /** Last day included (UTC). */
  to: utcDateParam.optional(),
};

function orderedRange(query: { from?: Date; to?: Date }): boolean {
  return !query.from || !query.to || query.from.getTime() <= query.to.getTime();
}

/** One-time numbers still running (`live`: being issued, waiting, code received) or over (`ended`). */
export const numberStates = ['live', 'ended'] as const;
export type NumberState = (typeof numberStates)[number];

/** My Numbers: the spec's list, optionally narrowed to live or ended numbers, a status, a service or UTC days. */
export const numbersQuerySchema = z
  .object({
    limit: decimalInteger(1, LIST_LIMIT_MAX).optional().default(LIST_LIMIT_DEFAULT),
    before: databaseIdParam.optional(),
    state: z.enum(numberStates).optional(),
    status: z.enum(numberStatuses).optional(),
    service: z
      .string({ error: () => say.mustBeString })
      .regex(/^[a-z0-9]{1,10}$/, { error: () => say.serviceCode })
      .optional(),
    from: utcDateParam.optional(),
    to: utcDateParam.optional(),
  })
  .refine(orderedRange, { error: () => moneyMessages.badDateRange, path: ['from'] });
export type NumbersQuery = z.input<typeof numbersQuerySchema>;

// Strict: a parameter this endpoint does not know is a mistake worth saying, not a filter silently dropped.
export const ledgerCsvQuerySchema = z
  .strictObject(ledgerFilterShape)
  .refine(orderedRange, { error: () => moneyMessages.badDateRange, path: ['from'] });

export const ledgerQuerySchema = z
  .strictObject({
    ...ledgerFilterShape,
    /** Entries older than this entry id (keyset pagination). */
    before: decimalInteger(1, Number.MAX_SAFE_INTEGER).optional(),
    limit: decimalInteger(1, LEDGER_PAGE_MAX).optional().default(LEDGER_PAGE_DEFAULT),
  })
  .refine(orderedRange, { error: () => moneyMessages.badDateRange, path: ['from'] });
export type LedgerQuery = z.input<typeof ledgerQuerySchema>;

export const ledgerEntrySchema = z.object({
  id: z.number().int(),
  /** `TX-000123`: the id to quote to support. */
  transaction_id: z.string(),
  created_at: z.string(),
  kind: z.enum(ledgerEntryKinds),
  /** Signed dollars: a debit is negative. */
  amount: z.number(),
  /** The balance right after this entry, in dollars. */
  balance_after: z.number(),
  /** The order, rent or top-up the entry is about; null for an adjustment. */
  reference: z.object({ kind: z.enum(ledgerReferenceKinds), id: z.number().int() }).nullable(),
  /** Why the money came back, on refunds and credits from support. */
  refund_reason: z.enum(refundReasons).nullable(),
});
export type LedgerEntryView = z.infer<typeof ledgerEntrySchema>;

export const ledgerResponseSchema = z.object({
  success: z.literal(true),
  /** Dollars. */
  balance: z.number(),
  /** Dollars that live orders and rents could still return to the balance (see ADR 0015). */
  reserved: z.number(),
  entries: z.array(ledgerEntrySchema),
  /** Pass as `before` for the next (older) page; null on the last page. */
  next_before: z.number().int().nullable(),
});
export type LedgerResponse = z.infer<typeof ledgerResponseSchema>;

/** The money side of one order or rent, for its detail view. */
export const orderMoneyResponseSchema = z.object({
  success: z.literal(true),
  /** What was charged in all (a rent's renewals included), in dollars. */
  price: z.number(),
  refund_reason: z.enum(refundReasons).nullable(),
  entries: z.array(ledgerEntrySchema),
});
export type OrderMoneyResponse = z.infer<typeof orderMoneyResponseSchema>;

export const orderMoneyParamsSchema = z.object({ id: databaseIdParam });

/** The CSV export's columns, in order: a stable contract for spreadsheets and scripts. */
export const LEDGER_CSV_COLUMNS = [
  'transaction_id',
  'created_at_utc',
  'kind',
  'amount_usd',
  'balance_after_usd',
  'reference_kind',
  'reference_id',
  'refund_reason',
  'service',
  'country',
  'phone',
] as const;
