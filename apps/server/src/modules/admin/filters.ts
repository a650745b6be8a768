import { REFUNDED_BY_SUPPORT_FILTER } from '@simcode/contract';
import { eq, gte, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { containsPattern } from './audit';

const DAY_MS = 86_400_000;

/** What the console filters one-time orders and rents by (the query string's names). */
export interface PurchaseFilter {
  status?: string;
  service?: string;
  country?: string;
  provider?: string;
  user_id?: number;
  /** Bought on or after this UTC day (YYYY-MM-DD). */
  from?: string;
  /** Bought on or before this UTC day. */
  to?: string;
  /** A phone number (part of it) or an id. */
  q?: string;
  before?: number;
}

interface PurchaseColumns {
  id: PgColumn;
  status: PgColumn;
  statusReason: PgColumn;
  service: PgColumn;
  countryId: PgColumn;
  provider: PgColumn;
  userId: PgColumn;
  createdAt: PgColumn;
  phoneNumber: PgColumn;
}

/** The conditions of a purchase filter, for a table of purchases (activations, rents). */
export function purchaseConditions(columns: PurchaseColumns, filter: PurchaseFilter): (SQL | undefined)[] {
  const day = (text: string) => new Date(`${text}T00:00:00Z`);
  const conditions: (SQL | undefined)[] = [
    filter.before === undefined ? undefined : lt(columns.id, filter.before),
    filter.status === REFUNDED_BY_SUPPORT_FILTER
      ? eq(columns.statusReason, REFUNDED_BY_SUPPORT_FILTER)
      : filter.status
        ? eq(columns.status, filter.status)
        : undefined,
    filter.service ? eq(columns.service, filter.service) : undefined,
    filter.country ? eq(columns.countryId, filter.country.toUpperCase()) : undefined,
    filter.provider ? eq(columns.provider, filter.provider) : undefined,
    filter.user_id ? eq(columns.userId, filter.user_id) : undefined,
    filter.from ? gte(columns.createdAt, day(filter.from)) : undefined,
    filter.to ? lt(columns.createdAt, new Date(day(filter.to).getTime() + DAY_MS)) : undefined,
  ];
  const text = filter.q?.trim();
  if (text) {
    const byPhone = ilike(columns.phoneNumber, containsPattern(text.replace(/\D/g, '') || text));
    conditions.push(/^[1-9]\d{0,9}$/.test(text) ? or(byPhone, eq(columns.id, Number(text))) : byPhone);
  }
  return conditions;
}
