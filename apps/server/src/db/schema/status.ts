import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './users';

/**
 * The status page (issue 30, ADR 0030). Components are public ids: `web`, `api`, `payments` and
 * `supplier-a`, `supplier-b`... (a supplier's place in the pool), so nothing stored names a supplier.
 */

/** One synthetic check per component per UTC minute; a few days are kept to decide incidents. */
export const statusChecks = pgTable(
  'status_checks',
  {
    component: text().notNull(),
    minute: timestamp({ withTimezone: true }).notNull(),
    ok: boolean().notNull(),
    latencyMs: integer('latency_ms').notNull(),
    /** Why it failed, for operators (the public page shows only up or down). */
    error: text(),
  },
  (table) => [primaryKey({ columns: [table.component, table.minute] })],
);

/** The checks rolled into UTC days: the 90-day uptime bars read these, not the minutes. */
export const statusDays = pgTable(
  'status_days',
  {
    component: text().notNull(),
    day: date({ mode: 'string' }).notNull(),
    checks: integer().notNull(),
    passed: integer().notNull(),
  },
  (table) => [primaryKey({ columns: [table.component, table.day] })],
);

export const INCIDENT_STATES = ['open', 'resolved'] as const;
export const INCIDENT_ORIGINS = ['automatic', 'manual'] as const;

/** An incident on a component: opened by the checks or by an administrator, with its texts in each language. */
export const incidents = pgTable(
  'incidents',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    component: text().notNull(),
    origin: text({ enum: INCIDENT_ORIGINS }).notNull(),
    state: text({ enum: INCIDENT_STATES }).notNull(),
    titleEn: text('title_en').notNull(),
    titleRu: text('title_ru').notNull(),
    titleZh: text('title_zh').notNull(),
    openedAt: timestamp('opened_at', { withTimezone: true }).notNull(),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
  },
  (table) => [
    index('incidents_opened_idx').on(table.openedAt),
    // The checks open at most one incident per component at a time, whichever instance runs them.
    uniqueIndex('incidents_one_automatic_open')
      .on(table.component)
      .where(sql`${table.state} = 'open' and ${table.origin} = 'automatic'`),
    check('incidents_state_known', sql`${table.state} in ('open', 'resolved')`),
    check('incidents_origin_known', sql`${table.origin} in ('automatic', 'manual')`),
    check(
      'incidents_resolved_when_closed',
      sql`(${table.state} = 'resolved') = (${table.resolvedAt} is not null)`,
    ),
  ],
);

export type IncidentRow = typeof incidents.$inferSelect;

export const INCIDENT_PHASES = ['investigating', 'identified', 'monitoring', 'resolved'] as const;

/** What was said about an incident, in order; the first and (for automatic ones) the last are written by the checks. */
export const incidentUpdates = pgTable(
  'incident_updates',
  {
    id: bigint({ mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    incidentId: integer('incident_id')
      .notNull()
      .references(() => incidents.id, { onDelete: 'cascade' }),
    at: timestamp({ withTimezone: true }).notNull(),
    phase: text({ enum: INCIDENT_PHASES }).notNull(),
    textEn: text('text_en').notNull(),
    textRu: text('text_ru').notNull(),
    textZh: text('text_zh').notNull(),
    /** The administrator who wrote it; null for the checks' own updates. */
    authorId: integer('author_id'),
  },
  (table) => [
    index('incident_updates_incident_idx').on(table.incidentId, table.at),
    check(
      'incident_updates_phase_known',
      sql`${table.phase} in ('investigating', 'identified', 'monitoring', 'resolved')`,
    ),
  ],
);

export type IncidentUpdateRow = typeof incidentUpdates.$inferSelect;

/** Signed-in users who asked for an e-mail when an incident opens and when it closes. */
export const statusSubscribers = pgTable('status_subscribers', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
