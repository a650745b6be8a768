import { and, asc, desc, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import {
  type IncidentRow,
  type IncidentUpdateRow,
  incidents,
  incidentUpdates,
  statusChecks,
  statusDays,
  statusSubscribers,
} from '../../db/schema';

export interface CheckResult {
  component: string;
  ok: boolean;
  latencyMs: number;
  error: string | null;
}

export interface LocalizedRow {
  en: string;
  ru: string;
  zh: string;
}

/** Work done in the transaction that opens or closes an incident (the notices and the audit entry). */
export type Notify = (tx: Executor, incident: IncidentRow) => Promise<void>;

export interface IncidentWithUpdates extends IncidentRow {
  updates: IncidentUpdateRow[];
}

/** Minutes of checks kept: enough to decide incidents and to show the last state; days keep the history. */
const CHECKS_KEPT_MS = 2 * 24 * 60 * 60_000;

/** The SQL of the status page. */
export function createStatusRepository(db: Executor) {
  return {
    /**
     * Stores one minute's results and counts them into their day, once: a second run within the same
     * minute (another instance, a retry) changes nothing.
     */
    async recordChecks(minute: Date, results: readonly CheckResult[]): Promise<void> {
      if (results.length === 0) return;
      await db.transaction(async (tx) => {
        const stored = await tx
          .insert(statusChecks)
          .values(results.map((result) => ({ ...result, minute })))
          .onConflictDoNothing()
          .returning({ component: statusChecks.component, ok: statusChecks.ok });
        const day = minute.toISOString().slice(0, 10);
        for (const { component, ok } of stored) {
          await tx
            .insert(statusDays)
            .values({ component, day, checks: 1, passed: ok ? 1 : 0 })
            .onConflictDoUpdate({
              target: [statusDays.component, statusDays.day],
              set: {
                checks: sql`${statusDays.checks} + 1`,
                passed: sql`${statusDays.passed} + ${ok ? 1 : 0}`,
              },
            });
        }
        await tx
          .delete(statusChecks)
          .where(sql`${statusChecks.minute} < ${new Date(minute.getTime() - CHECKS_KEPT_MS).toISOString()}`);
      });
    },

    /** A component's last `count` checks, newest first. */
    async lastChecks(component: string, count: number): Promise<{ minute: Date; ok: boolean }[]> {
      return db
        .select({ minute: statusChecks.minute, ok: statusChecks.ok })
        .from(statusChecks)
        .where(eq(statusChecks.component, component))
        .orderBy(desc(statusChecks.minute))
        .limit(count);
    },

    /** Each component's newest check since `since`. */
    async latestChecks(since: Date): Promise<Map<string, { minute: Date; ok: boolean }>> {
      const rows = await db
        .selectDistinctOn([statusChecks.component], {
          component: statusChecks.component,
          minute: statusChecks.minute,
          ok: statusChecks.ok,
        })
        .from(statusChecks)
        .where(gte(statusChecks.minute, since))
        .orderBy(statusChecks.component, desc(statusChecks.minute));
      return new Map(rows.map((row) => [row.component, row]));
    },

    async days(fromDay: string) {
      return db.select().from(statusDays).where(gte(statusDays.day, fromDay));
    },

    async openAutomatic(component: string): Promise<IncidentRow | undefined> {
      const [row] = await db
        .select()
        .from(incidents)
        .where(
          and(
            eq(incidents.component, component),
            eq(incidents.state, 'open'),
            eq(incidents.origin, 'automatic'),
          ),
        );
      return row;
    },

    async incident(id: number): Promise<IncidentRow | undefined> {
      const [row] = await db.select().from(incidents).where(eq(incidents.id, id));
      return row;
    },

    /**
     * Opens an incident with its first update. An automatic one that another instance opened first (the
     * unique index) answers undefined.
     */
    async open(
      input: { component: string; origin: 'automatic' | 'manual'; title: LocalizedRow; text: LocalizedRow },
      at: Date,
      authorId: number | null,
      notify: Notify,
    ): Promise<IncidentRow | undefined> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(incidents)
          .values({
            component: input.component,
            origin: input.origin,
            state: 'open',
            titleEn: input.title.en,
            titleRu: input.title.ru,
            titleZh: input.title.zh,
            openedAt: at,
          })
          .onConflictDoNothing()
          .returning();
        if (!row) return undefined;
        await tx
          .insert(incidentUpdates)
          .values(updateValues(row.id, 'investigating', input.text, at, authorId));
        await notify(tx, row);
        return row;
      });
    },

    async addUpdate(
      incidentId: number,
      phase: IncidentUpdateRow['phase'],
      text: LocalizedRow,
      at: Date,
      authorId: number | null,
      notify: Notify,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(incidents)
          .where(and(eq(incidents.id, incidentId), eq(incidents.state, 'open')))
          .for('update');
        if (!row) return false;
        await tx.insert(incidentUpdates).values(updateValues(incidentId, phase, text, at, authorId));
        await notify(tx, row);
        return true;
      });
    },

    /** Closes an open incident with its final update; false when it was closed already. */
    async resolve(
      incidentId: number,
      text: LocalizedRow,
      at: Date,
      authorId: number | null,
      notify: Notify,
    ): Promise<boolean> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(incidents)
          .set({ state: 'resolved', resolvedAt: at })
          .where(and(eq(incidents.id, incidentId), eq(incidents.state, 'open')))
          .returning();
        if (!row) return false;
        await tx.insert(incidentUpdates).values(updateValues(incidentId, 'resolved', text, at, authorId));
        await notify(tx, row);
        return true;
      });
    },

    /** Open incidents, and up to `pastLimit` closed since `since`, newest first, each with its updates. */
    async incidents(since: Date, pastLimit: number): Promise<IncidentWithUpdates[]> {
      const open = await db
        .select()
        .from(incidents)
        .where(eq(incidents.state, 'open'))
        .orderBy(desc(incidents.openedAt));
      const past = await db
        .select()
        .from(incidents)
        .where(and(isNotNull(incidents.resolvedAt), gte(incidents.resolvedAt, since)))
        .orderBy(desc(incidents.openedAt))
        .limit(pastLimit);
      const rows = [...open, ...past];
      if (rows.length === 0) return [];
      const updates = await db
        .select()
        .from(incidentUpdates)
        .where(
          inArray(
            incidentUpdates.incidentId,
            rows.map((row) => row.id),
          ),
        )
        .orderBy(asc(incidentUpdates.at), asc(incidentUpdates.id));
      return rows.map((row) => ({
        ...row,
        updates: updates.filter((update) => update.incidentId === row.id),
      }));
    },

    async subscribed(userId: number): Promise<boolean> {
      const rows = await db.select().from(statusSubscribers).where(eq(statusSubscribers.userId, userId));
      return rows.length > 0;
    },

    async setSubscribed(userId: number, subscribed: boolean, at: Date): Promise<void> {
      if (subscribed) {
        await db.insert(statusSubscribers).values({ userId, createdAt: at }).onConflictDoNothing();
      } else {
        await db.delete(statusSubscribers).where(eq(statusSubscribers.userId, userId));
      }
    },

    async subscriberIds(tx: Executor = db): Promise<number[]> {
      const rows = await tx.select({ userId: statusSubscribers.userId }).from(statusSubscribers);
      return rows.map((row) => row.userId);
    },
  };
}

function updateValues(
  incidentId: number,
  phase: IncidentUpdateRow['phase'],
  text: LocalizedRow,
  at: Date,
  authorId: number | null,
) {
  return { incidentId, at, phase, textEn: text.en, textRu: text.ru, textZh: text.zh, authorId };
}

export type StatusRepository = ReturnType<typeof createStatusRepository>;
