import { createHash } from 'node:crypto';
import { and, asc, desc, eq, isNotNull, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type Payment,
  type PaymentEventSource,
  type PaymentState,
  paymentEvents,
  payments,
} from '../../db/schema';

export interface NewPayment {
  userId: number;
  provider: string;
  orderId: string;
  amountCents: number;
  expiresAt: Date;
  now: Date;
}

export interface InvoiceDetails {
  providerPaymentId: string;
  paymentUrl: string | null;
  providerStatus: string;
  expiresAt: Date;
  now: Date;
}

export interface NewPaymentEvent {
  paymentId: number | null;
  orderId: string;
  providerPaymentId: string | null;
  source: PaymentEventSource;
  status: string;
  isFinal: boolean;
  amountCents: number | null;
  paidAmountUsdCents: number | null;
  rawBody: string | null;
  receivedAt: Date;
}

export function createPaymentsRepository(db: Executor) {
  return {
    async insertPending(payment: NewPayment): Promise<Payment> {
      const [row] = await db
        .insert(payments)
        .values({
          userId: payment.userId,
          provider: payment.provider,
          orderId: payment.orderId,
          amountCents: payment.amountCents,
          status: 'pending',
          createdAt: payment.now,
          updatedAt: payment.now,
          expiresAt: payment.expiresAt,
        })
        .returning();
      return row!;
    },

    /**
     * Records the provider's invoice on our row. Only while it has none (or the same one), so a lookup that
     * comes back with a different invoice can never re-point a payment.
     */
    async attachInvoice(id: number, invoice: InvoiceDetails): Promise<Payment | undefined> {
      const [row] = await db
        .update(payments)
        .set({
          providerPaymentId: invoice.providerPaymentId,
          ...(invoice.paymentUrl !== null ? { paymentUrl: invoice.paymentUrl } : {}),
          providerStatus: invoice.providerStatus,
          expiresAt: invoice.expiresAt,
          updatedAt: invoice.now,
        })
        .where(
          and(
            eq(payments.id, id),
            sql`(${payments.providerPaymentId} is null or ${payments.providerPaymentId} = ${invoice.providerPaymentId})`,
          ),
        )
        .returning();
      return row;
    },

    /**
     * Marks a payment credited, from any state but credited: the one conditional update that decides,
     * among every webhook and poll racing for it, which one pays out (the ledger key backs it up).
     */
    async markCompleted(
      id: number,
      credit: { creditedCents: number; providerStatus: string; now: Date },
    ): Promise<Payment | undefined> {
      const [row] = await db
        .update(payments)
        .set({
          status: 'completed',
          creditedCents: credit.creditedCents,
          creditedAt: credit.now,
          providerStatus: credit.providerStatus,
          lastCheckedAt: credit.now,
          updatedAt: credit.now,
        })
        .where(and(eq(payments.id, id), ne(payments.status, 'completed')))
        .returning();
      return row;
    },

    /** Ends a pending payment without a credit; undefined when it is not pending any more. */
    async markEnded(
      id: number,
      to: Exclude<PaymentState, 'pending' | 'completed'>,
      end: { providerStatus?: string; now: Date },
    ): Promise<Payment | undefined> {
      const [row] = await db
        .update(payments)
        .set({
          status: to,
          ...(end.providerStatus !== undefined ? { providerStatus: end.providerStatus } : {}),
          lastCheckedAt: end.now,
          updatedAt: end.now,
        })
        .where(and(eq(payments.id, id), eq(payments.status, 'pending')))
        .returning();
      return row;
    },

    /** What the provider said last, and when we asked. */
    async recordCheck(id: number, check: { providerStatus?: string; now: Date }): Promise<void> {
      await db
        .update(payments)
        .set({
          ...(check.providerStatus !== undefined ? { providerStatus: check.providerStatus } : {}),
          lastCheckedAt: check.now,
          updatedAt: check.now,
        })
        .where(eq(payments.id, id));
    },

    /**
     * The row of one deposit to a deposit address, created by the first webhook or poll that sees it; a
     * concurrent one finds the row the first made (one row per provider payment id).
     */
    async insertDeposit(deposit: NewPayment & { providerPaymentId: string; depositAddressId: number }) {
      await db
        .insert(payments)
        .values({
          userId: deposit.userId,
          provider: deposit.provider,
          orderId: deposit.orderId,
          providerPaymentId: deposit.providerPaymentId,
          depositAddressId: deposit.depositAddressId,
          amountCents: deposit.amountCents,
          status: 'pending',
          createdAt: deposit.now,
          updatedAt: deposit.now,
          expiresAt: deposit.expiresAt,
        })
        .onConflictDoNothing({ target: payments.providerPaymentId });
      const [row] = await db
        .select()
        .from(payments)
        .where(eq(payments.providerPaymentId, deposit.providerPaymentId));
      return row;
    },

    async findByProviderPaymentId(providerPaymentId: string): Promise<Payment | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId));
      return row;
    },

    /** Per provider since `since`: payments opened, and those credited with their sum in cents. */
    async dayFigures(since: Date) {
      const rows = await db
        .select({
          provider: payments.provider,
          opened: sql<number>`count(*) filter (where ${payments.createdAt} >= ${since})`.mapWith(Number),
          credited: sql<number>`count(*) filter (where ${payments.creditedAt} >= ${since})`.mapWith(Number),
          creditedCents:
            sql<number>`coalesce(sum(${payments.creditedCents}) filter (where ${payments.creditedAt} >= ${since}), 0)`.mapWith(
              Number,
            ),
        })
        .from(payments)
        .where(sql`${payments.createdAt} >= ${since} or ${payments.creditedAt} >= ${since}`)
        .groupBy(payments.provider);
      return new Map(rows.map((row) => [row.provider, row]));
    },

    async findByOrderId(orderId: string): Promise<Payment | undefined> {
      const [row] = await db.select().from(payments).where(eq(payments.orderId, orderId));
      return row;
    },

    async findByOrderIdForUser(userId: number, orderId: string): Promise<Payment | undefined> {
      const [row] = await db
        .select()
        .from(payments)
        .where(and(eq(payments.orderId, orderId), eq(payments.userId, userId)));
      return row;
    },

    /** The user's latest invoices, newest first; rows whose invoice was never created are not shown. */
    async listForUser(userId: number, limit: number): Promise<Payment[]> {
      return db
        .select()
        .from(payments)
        .where(and(eq(payments.userId, userId), isNotNull(payments.providerPaymentId)))
        .orderBy(desc(payments.id))
        .limit(limit);
    },

    /** Pending payments not asked about since `checkedBefore`, least recently checked first. */
    async listDueForCheck(checkedBefore: Date, limit: number): Promise<Payment[]> {
      return db
        .select()
        .from(payments)
        .where(
          and(
            eq(payments.status, 'pending'),
            sql`coalesce(${payments.lastCheckedAt}, ${payments.createdAt}) <= ${checkedBefore}`,
          ),
        )
        .orderBy(asc(sql`coalesce(${payments.lastCheckedAt}, ${payments.createdAt})`), asc(payments.id))
        .limit(limit);
    },

    /**
     * Records what the provider said. A webhook delivered again byte for byte (a retry, a replay) is the
     * same event: it is counted on its first row instead of adding one.
     */
    async addEvent(event: NewPaymentEvent): Promise<void> {
      const dedupeKey =
        event.source === 'webhook' && event.rawBody !== null
          ? `webhook:${createHash('sha256').update(event.rawBody).digest('base64url')}`
          : null;
      await db
        .insert(paymentEvents)
        .values({ ...event, dedupeKey })
        .onConflictDoUpdate({
          target: paymentEvents.dedupeKey,
          set: { repeatCount: sql`${paymentEvents.repeatCount} + 1`, lastReceivedAt: event.receivedAt },
        });
    },

    async eventsFor(paymentId: number) {
      return db
        .select()
        .from(paymentEvents)
        .where(eq(paymentEvents.paymentId, paymentId))
        .orderBy(asc(paymentEvents.id));
    },
  };
}

export type PaymentsRepository = ReturnType<typeof createPaymentsRepository>;
