import type { AuditEntry as AuditEntryView } from '@simcode/contract';
import { and, desc, eq, ilike, lt, or, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { type AuditEntry, auditLog } from '../../db/schema';

/** The administrator acting: from the request's verified session, never from the body. */
export interface Actor {
  id: number;
  username: string;
}

export interface AuditRecord {
  action: string;
  objectType:
    | 'user'
    | 'order'
    | 'rent'
    | 'payment'
    | 'pricing'
    | 'provider'
    | 'ticket'
    | 'mismatch'
    | 'incident';
  objectId: string | number;
  before?: unknown;
  after?: unknown;
  reason: string;
}

/**
 * Appends an entry. Callers pass the transaction of the change itself, so that the change and its record
 * commit together or not at all.
 */
export async function recordAudit(tx: Executor, actor: Actor, record: AuditRecord, at: Date): Promise<void> {
  await tx.insert(auditLog).values({
    at,
    adminId: actor.id,
    adminUsername: actor.username,
    action: record.action,
    objectType: record.objectType,
    objectId: String(record.objectId),
    before: record.before ?? null,
    after: record.after ?? null,
    reason: record.reason,
  });
}

export interface AuditFilter {
  q?: string;
  objectType?: string;
  objectId?: string;
  before?: number;
  limit: number;
}

/** `%` and `_` in a search text are literal characters, not patterns. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

export function createAuditRepository(db: Executor) {
  return {
    async list({ q, objectType, objectId, before, limit }: AuditFilter): Promise<AuditEntry[]> {
      const conditions: SQL[] = [];
      if (before !== undefined) conditions.push(lt(auditLog.id, before));
      if (objectType) conditions.push(eq(auditLog.objectType, objectType));
      if (objectId) conditions.push(eq(auditLog.objectId, objectId));
      const text = q?.trim();
      if (text) {
        const pattern = containsPattern(text);
        conditions.push(
          or(
            ilike(auditLog.adminUsername, pattern),
            ilike(auditLog.action, pattern),
            ilike(auditLog.reason, pattern),
            eq(auditLog.objectId, text),
          )!,
        );
      }
      return db
        .select()
        .from(auditLog)
        .where(and(...conditions))
        .orderBy(desc(auditLog.id))
        .limit(limit);
    },

    /** The entries about one object, newest first: shown on the object's page. */
    forObject(
      objectType: AuditRecord['objectType'],
      objectId: string | number,
      limit = 50,
    ): Promise<AuditEntry[]> {
      return this.list({ objectType, objectId: String(objectId), limit });
    },
  };
}

export function presentAudit(entry: AuditEntry): AuditEntryView {
  return {
    id: entry.id,
    at: entry.at.toISOString(),
    admin: entry.adminUsername,
    action: entry.action,
    object_type: entry.objectType,
    object_id: entry.objectId,
    before: entry.before ?? null,
    after: entry.after ?? null,
    reason: entry.reason,
  };
}

/** The next page's `before`: the last row's id when the page is full, else null (no more rows). */
export function nextBefore(rows: ReadonlyArray<{ id: number }>, limit: number): number | null {
  return rows.length === limit ? rows[rows.length - 1]!.id : null;
}
