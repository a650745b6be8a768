import {
  type AdminRentListRow,
  adminMessages,
  centsToDollars,
  formatCents,
  orderReasonText,
  periodText,
} from '@simcode/contract';
import { and, desc, eq, inArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import {
  ledgerEntries,
  type RentRow,
  type RentRowStatus,
  rentRenewals,
  rentSmsMessages,
  rents,
  users,
} from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import { fail, notFound } from '../../../lib/errors';
import type { RentalService } from '../../orders/rents/service';
import { type Actor, createAuditRepository, nextBefore, presentAudit, recordAudit } from '../audit';
import { type PurchaseFilter, purchaseConditions } from '../filters';
import { presentLedgerEntry } from '../users/service';

type RentWithOwner = RentRow & { username: string; renewalsCents: number };

function presentRent(rent: RentWithOwner): AdminRentListRow {
  return {
    id: rent.id,
    user_id: rent.userId,
    username: rent.username,
    provider: rent.provider,
    provider_rent_id: rent.providerRentId,
    country_id: rent.countryId,
    service: rent.service,
    phone: rent.phoneNumber,
    period: periodText(rent.periodUnit, rent.periodCount),
    price: centsToDollars(rent.priceCents),
    charged: centsToDollars(rent.priceCents + rent.renewalsCents),
    status: rent.status,
    status_reason: orderReasonText('rent', rent.statusReason),
    created_at: rent.createdAt.toISOString(),
    ends_at: rent.endsAt?.toISOString() ?? null,
  };
}

function auditedState(rent: RentRow) {
  return {
    status: rent.status,
    status_reason: orderReasonText('rent', rent.statusReason),
    ends_at: rent.endsAt?.toISOString() ?? null,
  };
}

interface Deps {
  db: Database;
  rentals: RentalService;
  clock: Clock;
}

/** The console's rents: search, a rent's history (SMS, renewals, ledger, audit), and refund. */
export function createAdminRentsService({ db, rentals, clock }: Deps) {
  const audit = createAuditRepository(db);
  /** Renewals charged and standing, in cents. */
  const renewalsCents = sql<number>`coalesce((
    select sum(r.price_cents) from ${rentRenewals} r where r.rent_id = ${rents.id} and r.status = 'done'
  ), 0)::bigint`;

  function select() {
    return db
      .select({ rent: rents, username: users.username, renewalsCents })
      .from(rents)
      .innerJoin(users, eq(users.id, rents.userId));
  }

  async function find(id: number): Promise<RentWithOwner> {
    const [row] = await select().where(eq(rents.id, id));
    if (!row) throw notFound();
    return { ...row.rent, username: row.username, renewalsCents: Number(row.renewalsCents) };
  }

  return {
    async list(filter: PurchaseFilter & { limit: number }) {
      const conditions = purchaseConditions(rents, filter);
      const rows = await select()
        .where(and(...conditions))
        .orderBy(desc(rents.id))
        .limit(filter.limit);
      const list = rows.map((row) =>
        presentRent({ ...row.rent, username: row.username, renewalsCents: Number(row.renewalsCents) }),
      );
      return { rents: list, next_before: nextBefore(list, filter.limit) };
    },

    async detail(id: number) {
      const rent = await find(id);
      const [messages, renewals, auditRows] = await Promise.all([
        db.select().from(rentSmsMessages).where(eq(rentSmsMessages.rentId, id)).orderBy(rentSmsMessages.id),
        db.select().from(rentRenewals).where(eq(rentRenewals.rentId, id)).orderBy(rentRenewals.id),
        audit.forObject('rent', id),
      ]);
      const references = [
        sql`(${ledgerEntries.referenceType} = 'rent' and ${ledgerEntries.referenceId} = ${String(id)})`,
        ...(renewals.length > 0
          ? [
              and(
                eq(ledgerEntries.referenceType, 'rent_renewal'),
                inArray(
                  ledgerEntries.referenceId,
                  renewals.map((renewal) => String(renewal.id)),
                ),
              )!,
            ]
          : []),
      ];
      const ledger = await db
        .select()
        .from(ledgerEntries)
        .where(or(...references))
        .orderBy(ledgerEntries.id);
      return {
        rent: presentRent(rent),
        messages: messages.map((message) => ({
          received_at: message.receivedAt.toISOString(),
          sender: message.sender,
          code: message.code,
          text: message.text,
        })),
        renewals: renewals.map((renewal) => ({
          id: renewal.id,
          created_at: renewal.createdAt.toISOString(),
          hours: renewal.hours,
          price: centsToDollars(renewal.priceCents),
          status: renewal.status,
          automatic: renewal.automatic,
        })),
        ledger: ledger.map(presentLedgerEntry),
        audit: auditRows.map(presentAudit),
      };
    },

    /**
     * Refunds a rent whole (its first period and every standing renewal), exactly once: the rentals' own
     * refund with the audit entry in its transaction. A rent that received SMS is refunded only when forced;
     * one that ended already only then too.
     */
    async refund(actor: Actor, id: number, reason: string, force: boolean) {
      const rent = await find(id);
      if (rent.status === 'canceled' || rent.status === 'failed') throw fail('already_refunded');
      const hasSms = (await db.$count(rentSmsMessages, eq(rentSmsMessages.rentId, id))) > 0;
      if ((hasSms || rent.status === 'expired') && !force) throw fail('has_sms');
      const from: readonly RentRowStatus[] = [
        'pending',
        'active',
        'renewed',
        ...(force ? (['expired'] as const) : []),
      ];
      const refunded = await rentals.refundBySupport(rent, from, (tx, changed) =>
        recordAudit(
          tx,
          actor,
          {
            action: 'rent.refund',
            objectType: 'rent',
            objectId: id,
            before: auditedState(rent),
            after: {
              ...auditedState(changed),
              refunded: centsToDollars(rent.priceCents + rent.renewalsCents),
              forced: force,
            },
            reason,
          },
          clock.now(),
        ),
      );
      if (!refunded) throw fail('already_refunded');
      return {
        rent: presentRent({ ...refunded, username: rent.username, renewalsCents: rent.renewalsCents }),
        message: adminMessages.rentRefunded(formatCents(rent.priceCents + rent.renewalsCents)),
      };
    },
  };
}

export type AdminRentsService = ReturnType<typeof createAdminRentsService>;
