import { type AdminPaymentRow, adminMessages, centsToDollars, formatCents } from '@simcode/contract';
import { and, desc, eq, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { ledgerEntries, type Payment, paymentEvents, payments, users } from '../../../db/schema';
import type { UserEventBus } from '../../../db/user-events';
import type { Clock } from '../../../lib/clock';
import { fail, notFound } from '../../../lib/errors';
import { applyLedgerChange } from '../../accounts/ledger';
import { createPaymentsRepository } from '../../payments/repository';
import type { TopupService } from '../../payments/service';
import {
  type Actor,
  containsPattern,
  createAuditRepository,
  nextBefore,
  presentAudit,
  recordAudit,
} from '../audit';
import { presentLedgerEntry } from '../users/service';

type PaymentWithOwner = Payment & { username: string };

function presentPayment(payment: PaymentWithOwner): AdminPaymentRow {
  return {
    id: payment.id,
    user_id: payment.userId,
    username: payment.username,
    order_id: payment.orderId,
    provider: payment.provider,
    provider_payment_id: payment.providerPaymentId,
    provider_status: payment.providerStatus,
    amount: centsToDollars(payment.amountCents),
    credited: payment.creditedCents === null ? null : centsToDollars(payment.creditedCents),
    status: payment.status,
    created_at: payment.createdAt.toISOString(),
  };
}

function auditedState(payment: Payment) {
  return {
    status: payment.status,
    provider_status: payment.providerStatus,
    credited: payment.creditedCents === null ? null : centsToDollars(payment.creditedCents),
  };
}

interface Deps {
  db: Database;
  topups: TopupService;
  events: UserEventBus;
  clock: Clock;
}

/** The console's payments: invoices and what the provider said about them, reconcile now, credit by hand. */
export function createAdminPaymentsService({ db, topups, events, clock }: Deps) {
  const audit = createAuditRepository(db);

  function select() {
    return db
      .select({ payment: payments, username: users.username })
      .from(payments)
      .innerJoin(users, eq(users.id, payments.userId));
  }

  async function find(id: number): Promise<PaymentWithOwner> {
    const [row] = await select().where(eq(payments.id, id));
    if (!row) throw notFound();
    return {
      ...row.payment,
      username: row.username,
    };
  }

  return {
    /**
     * The payment pool with each provider's health, its balance at the processor and today's figures
     * (since midnight UTC), for the console.
     */
    async providers() {
      const now = clock.now();
      const midnight = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
      const figures = await createPaymentsRepository(db).dayFigures(midnight);
      const listed = topups.providers();
      const balances = await Promise.all(listed.map((provider) => topups.balancesOf(provider.name)));
      return listed.map((provider, index) => {
        const today = figures.get(provider.name);
        return {
          name: provider.name,
          kind: provider.kind,
          up: provider.up,
          down_since: provider.downSince?.toISOString() ?? null,
          last_error: provider.lastError,
          last_error_code: provider.lastErrorCode,
          deposit_addresses: provider.depositAddresses,
          balances: balances[index] ?? null,
          today: {
            payments: today?.opened ?? 0,
            credited: today?.credited ?? 0,
            credited_amount: centsToDollars(today?.creditedCents ?? 0),
          },
        };
      });
    },
    async list(filter: { status?: string; user_id?: number; q?: string; before?: number; limit: number }) {
      const conditions: (SQL | undefined)[] = [
        filter.before === undefined ? undefined : lt(payments.id, filter.before),
        filter.status ? eq(payments.status, filter.status as Payment['status']) : undefined,
        filter.user_id ? eq(payments.userId, filter.user_id) : undefined,
      ];
      const text = filter.q?.trim();
      if (text) {
        const pattern = containsPattern(text);
        conditions.push(or(ilike(payments.orderId, pattern), ilike(payments.providerPaymentId, pattern)));
      }
      const rows = await select()
        .where(and(...conditions))
        .orderBy(desc(payments.id))
        .limit(filter.limit);
      const list = rows.map((row) => presentPayment({ ...row.payment, username: row.username }));
      return { payments: list, next_before: nextBefore(list, filter.limit) };
    },

    async detail(id: number) {
      const payment = await find(id);
      const [eventRows, ledger, auditRows] = await Promise.all([
        db.select().from(paymentEvents).where(eq(paymentEvents.paymentId, id)).orderBy(paymentEvents.id),
        db
          .select()
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.referenceType, 'payment'), eq(ledgerEntries.referenceId, String(id))))
          .orderBy(ledgerEntries.id),
        audit.forObject('payment', id),
      ]);
      return {
        payment: presentPayment(payment),
        events: eventRows.map((event) => ({
          received_at: event.receivedAt.toISOString(),
          source: event.source,
          status: event.status,
          amount: event.amountCents === null ? null : centsToDollars(event.amountCents),
          paid_amount_usd:
            event.paidAmountUsdCents === null ? null : centsToDollars(event.paidAmountUsdCents),
          raw_body: event.rawBody,
        })),
        ledger: ledger.map(presentLedgerEntry),
        audit: auditRows.map(presentAudit),
      };
    },

    /** Reads the payment from the provider now and applies the answer, as the reconciliation job would. */
    async reconcile(actor: Actor, id: number) {
      const before = await find(id);
      await topups.reconcile(before);
      const after = await find(id);
      await recordAudit(
        db,
        actor,
        {
          action: 'payment.reconcile',
          objectType: 'payment',
          objectId: id,
          before: auditedState(before),
          after: auditedState(after),
          reason: 'Checked with the provider from the console.',
        },
        clock.now(),
      );
      return { payment: presentPayment(after), message: adminMessages.paymentReconciled(after.status) };
    },

    /**
     * Credits a payment that did not credit itself (paid the wrong amount, paid after it expired): the
     * payment is marked completed with the amount, the ledger credited and the audit entry written in one
     * transaction. The status change is conditional and the ledger key unique: at most once per payment.
     */
    async creditByHand(actor: Actor, id: number, amountCents: number, reason: string) {
      const payment = await find(id);
      if (payment.status === 'completed') throw fail('already_credited');
      if (payment.status === 'pending') throw fail('still_pending');
      const now = clock.now();
      const credited = await db.transaction(async (tx) => {
        const changed = await createPaymentsRepository(tx).markCompleted(id, {
          creditedCents: amountCents,
          providerStatus: payment.providerStatus ?? 'credited_by_hand',
          now,
        });
        if (!changed) return undefined;
        await applyLedgerChange(tx, {
          userId: changed.userId,
          amountCents,
          kind: 'topup',
          referenceType: 'payment',
          referenceId: String(id),
          idempotencyKey: `topup-by-hand:${id}`,
          note: `Top-up ${changed.orderId} credited by support`,
        });
        await recordAudit(
          tx,
          actor,
          {
            action: 'payment.credit',
            objectType: 'payment',
            objectId: id,
            before: auditedState(payment),
            after: auditedState(changed),
            reason,
          },
          now,
        );
        return changed;
      });
      if (!credited) throw fail('already_credited');
      events.publish({ userId: credited.userId, type: 'balance' });
      return {
        payment: presentPayment({ ...credited, username: payment.username }),
        message: adminMessages.paymentCredited(formatCents(amountCents)),
      };
    },
  };
}

export type AdminPaymentsService = ReturnType<typeof createAdminPaymentsService>;
