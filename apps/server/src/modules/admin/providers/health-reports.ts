import { and, gt, lt, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { providerHealthReports } from '../../../db/schema';
import type { Clock } from '../../../lib/clock';
import type { HealthSnapshot } from '../../../providers/sms/health';
import type { ProviderPool } from '../../../providers/sms/pool';

/** How often each instance writes its report: the console's figures are at most this old for the others. */
export const HEALTH_REPORT_INTERVAL_MS = 15_000;
/** A report older than this is an instance that stopped: not counted. */
const REPORT_FRESH_MS = 60_000;
/** An instance gone this long leaves no row behind. */
const REPORT_KEPT_MS = 24 * 60 * 60_000;
/** As many recent errors as one instance keeps. */
const RECENT_ERRORS_SHOWN = 20;

type Report = typeof providerHealthReports.$inferSelect;

/** A provider's health over every instance: its calls combined, `instances` counting whose are in it. */
export interface CombinedHealth extends HealthSnapshot {
  instances: number;
}

/**
 * Calls are counted by each process (a cool-down reacts within seconds to what the instance sees), so the
 * console, answered by whichever instance, reads this instance's live record and the others' reports.
 */
export function createHealthReports(deps: {
  db: Database;
  providers: ProviderPool;
  clock: Clock;
  /** This process's id among the instances. */
  instance: string;
}) {
  const { db, providers, clock, instance } = deps;
  return {
    /** Writes this instance's record of every provider, and forgets instances gone for a day. */
    async publish(): Promise<void> {
      const now = clock.now();
      const rows = providers.members.map((member) => {
        const health = providers.health.snapshot(member.name);
        return {
          instance,
          provider: member.name,
          calls: health.calls,
          averageLatencyMs: health.averageLatencyMs,
          errorRate: health.errorRate,
          noNumbersRate: health.noNumbersRate,
          coolingUntil: health.coolingUntil,
          recentErrors: health.recentErrors.map((error) => ({
            at: error.at.toISOString(),
            message: error.message,
          })),
          reportedAt: now,
        };
      });
      if (rows.length > 0) {
        await db
          .insert(providerHealthReports)
          .values(rows)
          .onConflictDoUpdate({
            target: [providerHealthReports.instance, providerHealthReports.provider],
            set: {
              calls: sql`excluded.calls`,
              averageLatencyMs: sql`excluded.average_latency_ms`,
              errorRate: sql`excluded.error_rate`,
              noNumbersRate: sql`excluded.no_numbers_rate`,
              coolingUntil: sql`excluded.cooling_until`,
              recentErrors: sql`excluded.recent_errors`,
              reportedAt: sql`excluded.reported_at`,
            },
          });
      }
      await db
        .delete(providerHealthReports)
        .where(lt(providerHealthReports.reportedAt, new Date(now.getTime() - REPORT_KEPT_MS)));
    },

    /** Each provider's health: this instance's record and the other instances' fresh reports. */
    async combined(): Promise<Map<string, CombinedHealth>> {
      const others = await db
        .select()
        .from(providerHealthReports)
        .where(
          and(
            ne(providerHealthReports.instance, instance),
            gt(providerHealthReports.reportedAt, new Date(clock.now().getTime() - REPORT_FRESH_MS)),
          ),
        );
      return new Map(
        providers.members.map((member) => [
          member.name,
          combine(
            providers.health.snapshot(member.name),
            others.filter((report) => report.provider === member.name),
            clock.now(),
          ),
        ]),
      );
    },
  };
}

export type HealthReports = ReturnType<typeof createHealthReports>;

/** Rates and latency weighted by each instance's calls; a cool-down shown while any instance has one. */
export function combine(own: HealthSnapshot, reports: readonly Report[], now: Date): CombinedHealth {
  const parts = [
    own,
    ...reports.map((report) => ({
      calls: report.calls,
      averageLatencyMs: report.averageLatencyMs,
      errorRate: report.errorRate,
      noNumbersRate: report.noNumbersRate,
      coolingUntil: report.coolingUntil,
      recentErrors: (report.recentErrors as Array<{ at: string; message: string }>).map((error) => ({
        at: new Date(error.at),
        message: error.message,
      })),
    })),
  ];
  const calls = parts.reduce((sum, part) => sum + part.calls, 0);
  const weighted = (value: (part: (typeof parts)[number]) => number | null) => {
    const counted = parts.filter((part) => part.calls > 0 && value(part) !== null);
    const weight = counted.reduce((sum, part) => sum + part.calls, 0);
    return weight === 0 ? null : counted.reduce((sum, part) => sum + value(part)! * part.calls, 0) / weight;
  };
  const coolingUntil = parts
    .map((part) => part.coolingUntil)
    .filter((until): until is Date => until !== null && until > now)
    .sort((left, right) => right.getTime() - left.getTime())[0];
  return {
    ...own,
    calls,
    averageLatencyMs: weighted((part) => part.averageLatencyMs),
    errorRate: weighted((part) => part.errorRate) ?? 0,
    noNumbersRate: weighted((part) => part.noNumbersRate) ?? 0,
    coolingUntil: coolingUntil ?? null,
    recentErrors: parts
      .flatMap((part) => part.recentErrors)
      .sort((left, right) => right.at.getTime() - left.at.getTime())
      .slice(0, RECENT_ERRORS_SHOWN),
    instances: parts.length,
  };
}
