import {
  type Incident,
  STATS_MIN_SETTLED,
  STATUS_DAYS,
  STATUS_PAST_INCIDENTS,
  type StatusAnswer,
} from '@simcode/contract';
import type { Database } from '../../db/client';
import { addDays, countOrders, dayOf } from '../stats/days';
import { addCounts, emptyCounts } from '../stats/figures';
import type { StatusComponentDef } from './components';
import type { IncidentWithUpdates, StatusRepository } from './repository';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** A component whose last check is older than this shows as unknown: the checks are not running. */
const STALE_AFTER_MS = 5 * 60_000;

async function deliveryBetween(db: Database, from: Date, to: Date) {
  const counts = (await countOrders(db, from, to)).reduce(addCounts, emptyCounts());
  return {
    settled: counts.settled,
    with_code: counts.withCode,
    delivery_rate: counts.settled >= STATS_MIN_SETTLED ? counts.withCode / counts.settled : null,
  };
}

export function incidentView(row: IncidentWithUpdates, components: readonly StatusComponentDef[]): Incident {
  return {
    id: row.id,
    component: row.component,
    component_name: components.find((component) => component.id === row.component)?.name ?? row.component,
    origin: row.origin,
    state: row.state,
    title: { en: row.titleEn, ru: row.titleRu, zh: row.titleZh },
    opened_at: row.openedAt.toISOString(),
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    updates: row.updates.map((update) => ({
      at: update.at.toISOString(),
      phase: update.phase,
      text: { en: update.textEn, ru: update.textRu, zh: update.textZh },
    })),
  };
}

/** Everything `/status` shows, as `/api/v1/status` answers it. */
export async function buildStatusAnswer(
  db: Database,
  repository: StatusRepository,
  components: readonly StatusComponentDef[],
  now: Date,
): Promise<StatusAnswer> {
  const today = dayOf(now);
  const firstDay = addDays(today, -(STATUS_DAYS - 1));
  const [days, latest, incidents, lastHour, normal] = await Promise.all([
    repository.days(firstDay),
    repository.latestChecks(new Date(now.getTime() - STALE_AFTER_MS)),
    repository.incidents(new Date(now.getTime() - STATUS_DAYS * DAY_MS), STATUS_PAST_INCIDENTS),
    deliveryBetween(db, new Date(now.getTime() - HOUR_MS), now),
    deliveryBetween(db, new Date(now.getTime() - 7 * DAY_MS - HOUR_MS), new Date(now.getTime() - HOUR_MS)),
  ]);
  const dayList = Array.from({ length: STATUS_DAYS }, (_, index) => addDays(firstDay, index));
  return {
    generated_at: now.toISOString(),
    components: components.map((component) => {
      const own = new Map(days.filter((row) => row.component === component.id).map((row) => [row.day, row]));
      let checks = 0;
      let passed = 0;
      for (const row of own.values()) {
        checks += row.checks;
        passed += row.passed;
      }
      const last = latest.get(component.id);
      return {
        id: component.id,
        name: component.name,
        state: last === undefined ? 'unknown' : last.ok ? 'operational' : 'down',
        uptime: checks > 0 ? passed / checks : null,
        days: dayList.map((day) => {
          const row = own.get(day);
          return {
            day,
            checks: row?.checks ?? 0,
            uptime: row && row.checks > 0 ? row.passed / row.checks : null,
          };
        }),
      };
    }),
    open_incidents: incidents
      .filter((row) => row.state === 'open')
      .map((row) => incidentView(row, components)),
    past_incidents: incidents
      .filter((row) => row.state === 'resolved')
      .map((row) => incidentView(row, components)),
    delivery: { last_hour: lastHour, normal },
  };
}
