import {
  centsToDollars,
  countryById,
  dayAfter,
  LEDGER_CSV_COLUMNS,
  type LedgerEntryKind,
  type LedgerEntryView,
  type RefundReason,
  serviceDisplayName,
  transactionId,
} from '@simcode/contract';
import type { Executor } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { activationRefundReason, renewalRefundReason, rentRefundReason } from '../orders/lifecycle';
import { balanceOf } from './ledger';
import { createMoneyRepository, type LedgerFilter, type LedgerRow } from './money-repository';

/** Rows per query while the CSV export streams: big enough to be quick, small enough to hold in memory. */
const CSV_BATCH_ROWS = 1000;

export interface LedgerFilterQuery {
  kind?: LedgerEntryKind;
  from?: Date;
  /** The last day included: its midnight UTC. */
  to?: Date;
}

function toFilter(query: LedgerFilterQuery): LedgerFilter {
  return {
    kind: query.kind,
    from: query.from,
    toExclusive: query.to ? dayAfter(query.to) : undefined,
  };
}

/** Cents as exact decimal dollars for the CSV: -150 → '-1.50'. */
export function centsToDecimalText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  return `${sign}${Math.floor(absolute / 100)}.${String(absolute % 100).padStart(2, '0')}`;
}

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function csvLine(fields: string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

export function createMoneyService(db: Executor, clock: Clock) {
  const repository = createMoneyRepository(db);

  /**
   * The wire shape of a batch of entries: each refund's reason and each entry's link need the state of the
   * objects they are about, read in one query per kind of object for the whole batch.
   */
  async function present(userId: number, rows: LedgerRow[]): Promise<LedgerEntryView[]> {
    const idsOf = (type: string) => [
      ...new Set(rows.filter((row) => row.referenceType === type).map((row) => Number(row.referenceId))),
    ];
    const renewals = new Map(
      (await repository.renewalStates(userId, idsOf('rent_renewal'))).map((renewal) => [renewal.id, renewal]),
    );
    const rentIds = [
      ...new Set([...idsOf('rent'), ...[...renewals.values()].map((renewal) => renewal.rentId)]),
    ];
    const [activationRows, rentRows] = await Promise.all([
      repository.activationStates(userId, idsOf('activation')),
      repository.rentStates(userId, rentIds),
    ]);
    const activationReason = new Map(
      activationRows.map((order) => [order.id, activationRefundReason(order.status, order.statusReason)]),
    );
    const rentReason = new Map(
      rentRows.map((rent) => [rent.id, rentRefundReason(rent.status, rent.statusReason)]),
    );

    return rows.map((row) => {
      const referenceId = Number(row.referenceId);
      let kind: LedgerEntryKind = row.kind;
      let reference: LedgerEntryView['reference'] = null;
      let reason: RefundReason | null = null;
      switch (row.referenceType) {
        case 'activation':
          reference = { kind: 'number', id: referenceId };
          reason = activationReason.get(referenceId) ?? null;
          break;
        case 'rent':
          reference = { kind: 'rent', id: referenceId };
          reason = rentReason.get(referenceId) ?? null;
          break;
        case 'rent_renewal': {
          const renewal = renewals.get(referenceId);
          if (row.kind === 'purchase') kind = 'renewal';
          if (renewal) {
            reference = { kind: 'rent', id: renewal.rentId };
            reason = renewalRefundReason(renewal.status, rentReason.get(renewal.rentId) ?? null);
          }
          break;
        }
        case 'payment':
          reference = { kind: 'topup', id: referenceId };
          break;
      }
      const refundReason: RefundReason | null =
        row.kind === 'refund'
          ? reason
          : row.kind === 'adjustment' && row.amountCents > 0
            ? 'refunded_by_support'
            : null;
      return {
        id: row.id,
        transaction_id: transactionId(row.id),
        created_at: row.createdAt.toISOString(),
        kind,
        amount: centsToDollars(row.amountCents),
        balance_after: centsToDollars(row.balanceAfterCents),
        reference,
        refund_reason: refundReason,
      };
    });
  }

  /** The service, country and number of the orders and rents a batch of entries is about, by reference. */
  async function orderFactsOf(userId: number, entries: LedgerEntryView[]) {
    const idsOf = (kind: 'number' | 'rent') => [
      ...new Set(entries.flatMap((entry) => (entry.reference?.kind === kind ? [entry.reference.id] : []))),
    ];
    const { numbers, rented } = await repository.orderFacts(userId, idsOf('number'), idsOf('rent'));
    const byNumber = new Map(numbers.map((order) => [order.id, order]));
    const byRent = new Map(rented.map((rent) => [rent.id, rent]));
    return (reference: NonNullable<LedgerEntryView['reference']>) =>
      reference.kind === 'number'
        ? byNumber.get(reference.id)
        : reference.kind === 'rent'
          ? byRent.get(reference.id)
          : undefined;
  }

  return {
    /** The user's balance now, in cents. */
    balanceCents: (userId: number) => balanceOf(db, userId),

    /** The balance and what live orders and rents could still return to it, in dollars. */
    async balance(userId: number): Promise<{ balance: number; reserved: number }> {
      const [balanceCents, reservedCents] = await Promise.all([
        balanceOf(db, userId),
        repository.reservedCents(userId, clock.now()),
      ]);
      return { balance: centsToDollars(balanceCents), reserved: centsToDollars(reservedCents) };
    },

    async ledger(userId: number, query: LedgerFilterQuery & { limit: number; before?: number }) {
      // One row more than asked tells whether an older page exists.
      const rows = await repository.ledgerPage(userId, toFilter(query), query.limit + 1, query.before);
      const page = rows.slice(0, query.limit);
      const [entries, balanceCents, reservedCents] = await Promise.all([
        present(userId, page),
        balanceOf(db, userId),
        repository.reservedCents(userId, clock.now()),
      ]);
      return {
        balance: centsToDollars(balanceCents),
        reserved: centsToDollars(reservedCents),
        entries,
        next_before: rows.length > query.limit ? page[page.length - 1]!.id : null,
      };
    },

    /** The whole filtered history as CSV lines, header first, read from the database a batch at a time. */
    async *ledgerCsv(userId: number, query: LedgerFilterQuery): AsyncGenerator<string> {
      yield csvLine([...LEDGER_CSV_COLUMNS]);
      const filter = toFilter(query);
      let before: number | undefined;
      for (;;) {
        const rows = await repository.ledgerPage(userId, filter, CSV_BATCH_ROWS, before);
        if (rows.length === 0) return;
        let text = '';
        const entries = await present(userId, rows);
        const factsOf = await orderFactsOf(userId, entries);
        for (const [index, entry] of entries.entries()) {
          const row = rows[index]!;
          const facts = entry.reference && factsOf(entry.reference);
          text += csvLine([
            entry.transaction_id,
            entry.created_at,
            entry.kind,
            centsToDecimalText(row.amountCents),
            centsToDecimalText(row.balanceAfterCents),
            entry.reference?.kind ?? '',
            entry.reference ? String(entry.reference.id) : '',
            entry.refund_reason ?? '',
            facts ? serviceDisplayName(facts.service) : '',
            facts ? (countryById(facts.countryId)?.name ?? facts.countryId) : '',
            facts?.phoneNumber ? `+${facts.phoneNumber}` : '',
          ]);
        }
        yield text;
        if (rows.length < CSV_BATCH_ROWS) return;
        before = rows[rows.length - 1]!.id;
      }
    },

    /** A one-time number's price, its entries and why it was refunded; another user's order is not found. */
    async numberMoney(userId: number, activationId: number) {
      const [order] = await repository.activationStates(userId, [activationId]);
      if (!order) throw notFound();
      const rows = await repository.entriesAbout(userId, [
        { type: 'activation', ids: [String(activationId)] },
      ]);
      return summarise(userId, rows);
    },

    /** A rent's price (renewals included), its entries and why it was refunded. */
    async rentMoney(userId: number, rentId: number) {
      const [rent] = await repository.rentStates(userId, [rentId]);
      if (!rent) throw notFound();
      const renewalIds = await repository.renewalIdsOf(userId, rentId);
      const rows = await repository.entriesAbout(userId, [
        { type: 'rent', ids: [String(rentId)] },
        { type: 'rent_renewal', ids: renewalIds.map(String) },
      ]);
      return summarise(userId, rows);
    },
  };

  async function summarise(userId: number, rows: LedgerRow[]) {
    const entries = await present(userId, rows);
    const chargedCents = rows
      .filter((row) => row.kind === 'purchase')
      .reduce((sum, row) => sum - row.amountCents, 0);
    return {
      price: centsToDollars(chargedCents),
      refund_reason: entries.find((entry) => entry.kind === 'refund')?.refund_reason ?? null,
      entries,
    };
  }
}

export type MoneyService = ReturnType<typeof createMoneyService>;
