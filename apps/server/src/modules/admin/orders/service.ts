import {
  type AdminOrderRow,
  adminMessages,
  centsToDollars,
  formatCents,
  orderReasonText,
} from '@simcode/contract';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import {
  type Activation,
  type ActivationStatus,
  activationMessages,
  activations,
  ledgerEntries,
  users,
} from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { fail, notFound } from '../../../lib/errors';
import type { ProviderPool } from '../../../providers/sms/pool';
import { UpstreamError } from '../../../providers/sms/types';
import type { ActivationService } from '../../orders/activations/service';
import { activationRefundReason } from '../../orders/lifecycle';
import { upstreamFailure } from '../../orders/upstream-failure';
import { type Actor, createAuditRepository, nextBefore, presentAudit, recordAudit } from '../audit';
import { type PurchaseFilter, purchaseConditions } from '../filters';
import { presentLedgerEntry } from '../users/service';

export interface OrderFilter extends PurchaseFilter {
  problem?: 'true';
  limit: number;
}

type OrderWithOwner = Activation & { username: string; code: string | null };

function presentOrder(order: OrderWithOwner): AdminOrderRow {
  return {
    id: order.id,
    user_id: order.userId,
    username: order.username,
    provider: order.provider,
    provider_order_id: order.providerActivationId,
    country_id: order.countryId,
    operator: order.operator,
    service: order.service,
    phone: order.phoneNumber,
    price: centsToDollars(order.priceCents),
    status: order.status,
    status_reason: orderReasonText('activation', order.statusReason),
    refund_reason: activationRefundReason(order.status, order.statusReason),
    created_at: order.createdAt.toISOString(),
    code: order.code,
    problem_note: order.problemNote,
  };
}

/** What an audit entry keeps of an order. */
function auditedState(order: Activation) {
  return { status: order.status, status_reason: order.statusReason, problem_note: order.problemNote };
}

interface Deps {
  db: Database;
  activations: ActivationService;
  providers: ProviderPool;
  clock: Clock;
}

/** The console's one-time orders: search, an order's history, refund, cancel upstream, mark as problem. */
export function createAdminOrdersService({ db, activations: activationService, providers, clock }: Deps) {
  const audit = createAuditRepository(db);
  /** The latest code of an order that got one (not a late SMS). */
  const latestCode = sql<string | null>`(
    select m.code from ${activationMessages} m
    where m.activation_id = ${activations.id} and not m.late and m.code is not null
    order by m.id desc limit 1
  )`;

  function select() {
    return db
      .select({ order: activations, username: users.username, code: latestCode })
      .from(activations)
      .innerJoin(users, eq(users.id, activations.userId));
  }

  async function find(id: number): Promise<OrderWithOwner> {
    const [row] = await select().where(eq(activations.id, id));
    if (!row) throw notFound();
    return { ...row.order, username: row.username, code: row.code };
  }

  return {
    async list(filter: OrderFilter) {
      const conditions = [
        ...purchaseConditions(activations, filter),
        filter.problem ? isNotNull(activations.problemNote) : undefined,
      ];
      const rows = await select()
        .where(and(...conditions))
        .orderBy(desc(activations.id))
        .limit(filter.limit);
      const orders = rows.map((row) =>
        presentOrder({ ...row.order, username: row.username, code: row.code }),
      );
      return { orders, next_before: nextBefore(orders, filter.limit) };
    },

    /** An order's history: its SMS (late ones too), its ledger entries and what administrators did to it. */
    async detail(id: number) {
      const order = await find(id);
      const [upstream, messages, ledger, auditRows] = await Promise.all([
        activationService.historyOf(id),
        db
          .select()
          .from(activationMessages)
          .where(eq(activationMessages.activationId, id))
          .orderBy(activationMessages.id),
        db
          .select()
          .from(ledgerEntries)
          .where(
            and(eq(ledgerEntries.referenceType, 'activation'), eq(ledgerEntries.referenceId, String(id))),
          )
          .orderBy(ledgerEntries.id),
        audit.forObject('order', id),
      ]);
      return {
        order: presentOrder(order),
        upstream: upstream.map((event) => ({
          at: event.at.toISOString(),
          provider: event.provider,
          action: event.action,
          outcome: event.outcome,
          detail: event.detail,
          latency_ms: event.latencyMs,
        })),
        messages: messages.map((message) => ({
          received_at: message.receivedAt.toISOString(),
          code: message.code,
          text: message.text,
          late: message.late,
        })),
        ledger: ledger.map(presentLedgerEntry),
        audit: auditRows.map(presentAudit),
      };
    },

    /**
     * Refunds an order now, exactly once: the activations' own refund (a conditional status change and a
     * ledger credit under a unique key) with the audit entry in its transaction. An order with a code is
     * refunded only when forced; of two administrators refunding at once, one refunds and the other is told.
     */
    async refund(actor: Actor, id: number, reason: string, force: boolean) {
      const order = await find(id);
      const withCode: readonly ActivationStatus[] = ['received', 'completed'];
      if (['canceled', 'expired', 'failed'].includes(order.status)) throw fail('already_refunded');
      if (withCode.includes(order.status) && !force) throw fail('has_code');
      const from: readonly ActivationStatus[] = force
        ? ['pending', 'waiting', ...withCode]
        : ['pending', 'waiting'];
      const refunded = await activationService.refundBySupport(order, from, (tx, changed) =>
        recordAudit(
          tx,
          actor,
          {
            action: 'order.refund',
            objectType: 'order',
            objectId: id,
            before: auditedState(order),
            after: {
              ...auditedState(changed),
              refunded: centsToDollars(changed.priceCents),
              forced: force,
            },
            reason,
          },
          clock.now(),
        ),
      );
      if (!refunded) throw fail('already_refunded');
      return {
        order: presentOrder({ ...refunded, username: order.username, code: order.code }),
        message: adminMessages.refunded(formatCents(refunded.priceCents)),
      };
    },

    /** Cancels the number at its provider (it stops costing there); the money is the refund's business. */
    async cancelUpstream(actor: Actor, id: number, reason: string) {
      const order = await find(id);
      if (!order.providerActivationId || !providers.has(order.provider)) throw fail('no_upstream_number');
      try {
        await activationService.cancelAtProvider(order);
      } catch (error) {
        if (error instanceof UpstreamError) throw upstreamFailure(error);
        throw error;
      }
      await recordAudit(
        db,
        actor,
        {
          action: 'order.cancel_upstream',
          objectType: 'order',
          objectId: id,
          before: auditedState(order),
          reason,
        },
        clock.now(),
      );
      return { order: presentOrder(order), message: adminMessages.canceledUpstream };
    },

    async markProblem(actor: Actor, id: number, note: string) {
      const order = await find(id);
      const updated = await db.transaction(async (tx) => {
        const [row] = await tx
          .update(activations)
          .set({ problemNote: note, updatedAt: clock.now() })
          .where(eq(activations.id, id))
          .returning();
        await recordAudit(
          tx,
          actor,
          {
            action: 'order.mark_problem',
            objectType: 'order',
            objectId: id,
            before: auditedState(order),
            after: auditedState(row!),
            reason: note,
          },
          clock.now(),
        );
        return row!;
      });
      return {
        order: presentOrder({ ...updated, username: order.username, code: order.code }),
        message: adminMessages.markedProblem,
      };
    },
  };
}

export type AdminOrdersService = ReturnType<typeof createAdminOrdersService>;
