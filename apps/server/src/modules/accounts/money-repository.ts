import type { LedgerEntryKind } from '@simcode/contract';
import { RENT_CANCEL_WINDOW_MS } from '@simcode/contract';
import { and, desc, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import { type Executor, queryRows } from '../../db/client';
import { activations, type LedgerEntry, ledgerEntries, rentRenewals, rents } from '../../db/schema';

export interface LedgerFilter {
  kind?: LedgerEntryKind;
  /** First instant included. */
  from?: Date;
  /** First instant excluded. */
  toExclusive?: Date;
}

export type LedgerRow = Pick<
  LedgerEntry,
  'id' | 'kind' | 'amountCents' | 'balanceAfterCents' | 'referenceType' | 'referenceId' | 'createdAt' | 'note'
>;

/** A renewal is a purchase whose reference is a rent renewal (ADR 0015). */
const RENEWAL_REFERENCE = 'rent_renewal';

function kindCondition(kind: LedgerEntryKind): SQL | undefined {
  switch (kind) {
    case 'renewal':
      return and(eq(ledgerEntries.kind, 'purchase'), eq(ledgerEntries.referenceType, RENEWAL_REFERENCE));
    case 'purchase':
      return and(eq(ledgerEntries.kind, 'purchase'), ne(ledgerEntries.referenceType, RENEWAL_REFERENCE));
    default:
      return eq(ledgerEntries.kind, kind);
  }
}

const ledgerColumns = {
  id: ledgerEntries.id,
  kind: ledgerEntries.kind,
  amountCents: ledgerEntries.amountCents,
  balanceAfterCents: ledgerEntries.balanceAfterCents,
  referenceType: ledgerEntries.referenceType,
  referenceId: ledgerEntries.referenceId,
  createdAt: ledgerEntries.createdAt,
  note: ledgerEntries.note,
};

export function createMoneyRepository(db: Executor) {
  return {
    /**
     * One page of a user's entries, newest first, older than the entry id `beforeId`. The index
     * (user_id, id) serves it: an index range scan backwards from `beforeId`, never an OFFSET.
     */
    async ledgerPage(
      userId: number,
      filter: LedgerFilter,
      limit: number,
      beforeId?: number,
    ): Promise<LedgerRow[]> {
      return db
        .select(ledgerColumns)
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.userId, userId),
            filter.kind ? kindCondition(filter.kind) : undefined,
            filter.from ? gte(ledgerEntries.createdAt, filter.from) : undefined,
            filter.toExclusive ? lt(ledgerEntries.createdAt, filter.toExclusive) : undefined,
            beforeId !== undefined ? lt(ledgerEntries.id, beforeId) : undefined,
          ),
        )
        .orderBy(desc(ledgerEntries.id))
        .limit(limit);
    },

    /** Every entry about one object (`activation` 12, `rent` 7 and its renewals), oldest first. */
    async entriesAbout(userId: number, references: { type: string; ids: string[] }[]): Promise<LedgerRow[]> {
      const wanted = references.filter((reference) => reference.ids.length > 0);
      if (wanted.length === 0) return [];
      return db
        .select(ledgerColumns)
        .from(ledgerEntries)
        .where(
          and(
            eq(ledgerEntries.userId, userId),
            sql`(${sql.join(
              wanted.map(
                (reference) =>
                  sql`(${ledgerEntries.referenceType} = ${reference.type} and ${inArray(ledgerEntries.referenceId, reference.ids)})`,
              ),
              sql` or `,
            )})`,
          ),
        )
        .orderBy(ledgerEntries.id);
    },

    async activationStates(userId: number, ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: activations.id, status: activations.status, statusReason: activations.statusReason })
        .from(activations)
        .where(and(eq(activations.userId, userId), inArray(activations.id, ids)));
    },

    async rentStates(userId: number, ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: rents.id, status: rents.status, statusReason: rents.statusReason })
        .from(rents)
        .where(and(eq(rents.userId, userId), inArray(rents.id, ids)));
    },

    /** What a statement line names about each order and rent it mentions: service, country and number. */
    async orderFacts(userId: number, activationIds: number[], rentIds: number[]) {
      const facts = { service: activations.service, countryId: activations.countryId };
      const [numbers, rented] = await Promise.all([
        activationIds.length === 0
          ? []
          : db
              .select({ id: activations.id, ...facts, phoneNumber: activations.phoneNumber })
              .from(activations)
              .where(and(eq(activations.userId, userId), inArray(activations.id, activationIds))),
        rentIds.length === 0
          ? []
          : db
              .select({
                id: rents.id,
                service: rents.service,
                countryId: rents.countryId,
                phoneNumber: rents.phoneNumber,
              })
              .from(rents)
              .where(and(eq(rents.userId, userId), inArray(rents.id, rentIds))),
      ]);
      return { numbers, rented };
    },

    async renewalStates(userId: number, ids: number[]) {
      if (ids.length === 0) return [];
      return db
        .select({ id: rentRenewals.id, rentId: rentRenewals.rentId, status: rentRenewals.status })
        .from(rentRenewals)
        .where(and(eq(rentRenewals.userId, userId), inArray(rentRenewals.id, ids)));
    },

    async renewalIdsOf(userId: number, rentId: number): Promise<number[]> {
      const rows = await db
        .select({ id: rentRenewals.id })
        .from(rentRenewals)
        .where(and(eq(rentRenewals.userId, userId), eq(rentRenewals.rentId, rentId)));
      return rows.map((row) => row.id);
    },

    /**
     * Money that live orders could still return (ADR 0015): one-time numbers not yet issued or waiting for
     * a code; rents not yet issued, or within their cancel window with no SMS (their renewals with them);
     * and renewals waiting for the upstream.
     */
    async reservedCents(userId: number, now: Date): Promise<number> {
      const windowStart = new Date(now.getTime() - RENT_CANCEL_WINDOW_MS);
      const [row] = await queryRows<{ reserved_cents: string | number }>(
        db,
        sql`with cancellable_rents as (
            select r.id, r.price_cents from rents r
            where r.user_id = ${userId}
              and (r.status = 'pending'
                or (r.status in ('active', 'renewed') and r.created_at >= ${windowStart}
                  and not exists (select 1 from rent_messages m where m.rent_id = r.id)))
          )
          select
            coalesce((select sum(a.price_cents) from activations a
              where a.user_id = ${userId} and a.status in ('pending', 'waiting')), 0)
            + coalesce((select sum(price_cents) from cancellable_rents), 0)
            + coalesce((select sum(n.price_cents) from rent_renewals n
              where n.user_id = ${userId}
                and (n.status = 'pending'
                  or (n.status = 'done' and n.rent_id in (select id from cancellable_rents)))), 0)
            as reserved_cents`,
      );
      return Number(row?.reserved_cents ?? 0);
    },
  };
}

export type MoneyRepository = ReturnType<typeof createMoneyRepository>;
