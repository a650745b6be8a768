import type { AdminIncidentsResponse, StatusAnswer } from '@simcode/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client';
import type { IncidentRow } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { fail } from '../../lib/errors';
import { type Actor, recordAudit } from '../admin/audit';
import { buildStatusAnswer, incidentView } from './answer';
import { type CheckDeps, runChecks } from './checks';
import type { StatusComponentDef } from './components';
import { createDeliveryBand } from './delivery-band';
import { queueIncidentNotices } from './notices';
import { createStatusRepository, type LocalizedRow } from './repository';
import { automaticTexts } from './texts';

/** The page's answer is counted again after this; an incident opened or closed here is shown at once. */
const ANSWER_CACHE_MS = 15_000;
const MINUTE_MS = 60_000;

export interface StatusDeps extends Omit<CheckDeps, 'components'> {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  components: readonly StatusComponentDef[];
  /** Failed checks in a row that open an automatic incident. */
  openAfterMinutes: number;
  /** Passed checks in a row that close it. */
  closeAfterMinutes: number;
}

/** The status page: its checks, its incidents (automatic and written by administrators) and its answer. */
export function createStatusService(deps: StatusDeps) {
  const repository = createStatusRepository(deps.db);
  const outOfBand = createDeliveryBand(deps.db, deps.clock);
  const { components } = deps;
  let cached: { answer: StatusAnswer; untilMs: number } | null = null;
  const nameOf = (id: string) => components.find((component) => component.id === id)?.name ?? id;

  /** Queues the notices of an opened or closed incident in the transaction that changed it. */
  const notifying =
    (
      event: 'opened' | 'resolved',
      text: LocalizedRow,
      now: Date,
      also?: (tx: Executor, row: IncidentRow) => Promise<void>,
    ) =>
    async (tx: Executor, row: IncidentRow) => {
      await queueIncidentNotices(
        tx,
        await repository.subscriberIds(tx),
        row,
        event,
        nameOf(row.component),
        text,
        now,
      );
      await also?.(tx, row);
    };

  /** Opens or closes a component's automatic incident from its last checks. */
  async function judge(component: StatusComponentDef, now: Date): Promise<void> {
    const { openAfterMinutes, closeAfterMinutes } = deps;
    const last = await repository.lastChecks(component.id, Math.max(openAfterMinutes, closeAfterMinutes));
    const open = await repository.openAutomatic(component.id);
    const streak = (count: number, ok: boolean) =>
      last.length >= count && last.slice(0, count).every((check) => check.ok === ok);
    if (!open && streak(openAfterMinutes, false)) {
      const text = automaticTexts.opened(component.name, openAfterMinutes);
      const opened = await repository.open(
        { component: component.id, origin: 'automatic', title: automaticTexts.title(component.name), text },
        now,
        null,
        notifying('opened', text, now),
      );
      if (opened) deps.log.warn({ component: component.id, incident: opened.id }, 'status incident opened');
    } else if (open && streak(closeAfterMinutes, true)) {
      const text = automaticTexts.resolved(component.name, closeAfterMinutes);
      if (await repository.resolve(open.id, text, now, null, notifying('resolved', text, now))) {
        deps.log.info({ component: component.id, incident: open.id }, 'status incident resolved');
      }
    }
  }

  const audited =
    (actor: Actor, action: string, reason: string, after: unknown, at: Date) =>
    (tx: Executor, row: IncidentRow) =>
      recordAudit(tx, actor, { action, objectType: 'incident', objectId: row.id, after, reason }, at);

  return {
    components,
    /** Suppliers and pairs delivering codes out of their normal band, with why: the operators' alerts read it. */
    deliveryOutOfBand: outOfBand,

    /** One minute of the checks: run, stored once for the minute, then each component judged. */
    async runMinute(): Promise<void> {
      const now = deps.clock.now();
      const minute = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
      const results = await runChecks(deps, (await outOfBand()).suppliers);
      await repository.recordChecks(minute, results);
      for (const component of components) await judge(component, now);
      cached = null;
    },

    async answer(): Promise<StatusAnswer> {
      const nowMs = deps.clock.now().getTime();
      if (cached && cached.untilMs > nowMs) return cached.answer;
      const answer = await buildStatusAnswer(deps.db, repository, components, new Date(nowMs));
      cached = { answer, untilMs: nowMs + ANSWER_CACHE_MS };
      return answer;
    },

    async adminList(): Promise<AdminIncidentsResponse> {
      const rows = await repository.incidents(new Date(0), 100);
      return {
        success: true,
        components: components.map(({ id, name }) => ({ id, name })),
        incidents: rows.map((row) => incidentView(row, components)),
      };
    },

    async openManual(
      actor: Actor,
      input: { component: string; title: LocalizedRow; text: LocalizedRow; reason: string },
    ) {
      if (!components.some((component) => component.id === input.component)) throw fail('not_found');
      const now = deps.clock.now();
      const after = { component: input.component, title: input.title, text: input.text };
      const audit = audited(actor, 'incident.open', input.reason, after, now);
      const row = await repository.open(
        { component: input.component, origin: 'manual', title: input.title, text: input.text },
        now,
        actor.id,
        notifying('opened', input.text, now, audit),
      );
      cached = null;
      return row!.id;
    },

    async update(
      actor: Actor,
      id: number,
      input: { phase: 'investigating' | 'identified' | 'monitoring'; text: LocalizedRow; reason: string },
    ): Promise<void> {
      const now = deps.clock.now();
      const audit = audited(
        actor,
        'incident.update',
        input.reason,
        { phase: input.phase, text: input.text },
        now,
      );
      if (!(await repository.addUpdate(id, input.phase, input.text, now, actor.id, audit)))
        throw fail('not_found');
      cached = null;
    },

    async resolveManual(
      actor: Actor,
      id: number,
      input: { text: LocalizedRow; reason: string },
    ): Promise<void> {
      const now = deps.clock.now();
      const audit = audited(actor, 'incident.resolve', input.reason, { text: input.text }, now);
      if (
        !(await repository.resolve(
          id,
          input.text,
          now,
          actor.id,
          notifying('resolved', input.text, now, audit),
        ))
      ) {
        throw fail('not_found');
      }
      cached = null;
    },

    subscribed: (userId: number) => repository.subscribed(userId),
    setSubscribed: (userId: number, subscribed: boolean) =>
      repository.setSubscribed(userId, subscribed, deps.clock.now()),
  };
}

export type StatusService = ReturnType<typeof createStatusService>;
