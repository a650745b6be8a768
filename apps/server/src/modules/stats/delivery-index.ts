import {
  countryById,
  STATS_CHART_DAYS,
  STATS_CSV_COLUMNS,
  STATS_LICENCE,
  STATS_MIN_SETTLED,
  type StatsAnswer,
  type StatsCountryAnswer,
  type StatsDay,
  type StatsRow,
  type StatsServiceAnswer,
  type StatsWindow,
  serviceByCode,
} from '@simcode/contract';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { addDays, countOrders, dayCounts, dayOf, dayWindowStart, type PairCounts } from './days';
import { addCounts, type Counts, emptyCounts, figuresOf } from './figures';

/** How long one window's figures are served before they are counted again (the delivery job's tick). */
export const STATS_CACHE_MS = 60_000;
const HOUR_MS = 3_600_000;
const WINDOW_DAYS: Record<Exclude<StatsWindow, '24h'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** A window's figures, counted once and served to every page, JSON and CSV reader until they age. */
interface Snapshot {
  answer: StatsAnswer;
  /** Per service: its days over the chart's span (all countries); per country: the same, all services. */
  daily: { services: Map<string, StatsDay[]>; countries: Map<string, StatsDay[]> };
  totals: { services: Map<string, Counts>; countries: Map<string, Counts> };
  csv: string;
  /** Each service's or country's answer, made on its first read (the same object while the snapshot lasts). */
  pages: { services: Map<string, StatsServiceAnswer>; countries: Map<string, StatsCountryAnswer> };
}

function sumBy(pairs: readonly PairCounts[], keyOf: (pair: PairCounts) => string): Map<string, Counts> {
  const sums = new Map<string, Counts>();
  for (const pair of pairs) {
    const key = keyOf(pair);
    sums.set(key, addCounts(sums.get(key) ?? emptyCounts(), pair));
  }
  return sums;
}

function rowOf(service: string, countryId: string, current: Counts, previous: Counts | undefined): StatsRow {
  const figures = figuresOf(current);
  const before = previous ? figuresOf(previous) : null;
  return {
    service,
    service_name: serviceByCode(service)?.name ?? service,
    country: countryId,
    country_name: countryById(countryId)?.name ?? countryId,
    ...figures,
    trend:
      figures.delivery_rate !== null && before?.delivery_rate != null
        ? figures.delivery_rate - before.delivery_rate
        : null,
  };
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvOf(rows: readonly StatsRow[]): string {
  const lines = [STATS_CSV_COLUMNS.join(',')];
  for (const row of rows) lines.push(STATS_CSV_COLUMNS.map((column) => csvCell(row[column])).join(','));
  return `${lines.join('\n')}\n`;
}

/**
 * The index: each window counted from the frozen days plus the orders of the days not frozen yet (24 hours
 * straight from the orders), cached per window. Pairs are listed when they sold in the window.
 */
export function createDeliveryIndex(deps: { db: Database; clock: Clock; cacheMs?: number }) {
  const cacheMs = deps.cacheMs ?? STATS_CACHE_MS;
  const cache = new Map<
    StatsWindow,
    { at: number; snapshot: Promise<Snapshot>; recount: Promise<Snapshot> | null }
  >();

  async function count(window: StatsWindow, now: Date): Promise<Snapshot> {
    const today = dayOf(now);
    const chartFrom = addDays(today, 1 - STATS_CHART_DAYS);
    let from: Date;
    let current: PairCounts[];
    let previous: PairCounts[];
    let chart: PairCounts[];
    if (window === '24h') {
      from = new Date(now.getTime() - 24 * HOUR_MS);
      const halves = await countOrders(
        deps.db,
        new Date(now.getTime() - 48 * HOUR_MS),
        now,
        sql`case when a.created_at >= ${from.toISOString()}::timestamptz then 'current' else 'previous' end`,
      );
      current = halves.filter((pair) => pair.bucket === 'current');
      previous = halves.filter((pair) => pair.bucket === 'previous');
      chart = await dayCounts(deps.db, chartFrom, today);
    } else {
      const days = WINDOW_DAYS[window];
      const first = dayWindowStart(days, now);
      from = new Date(`${first}T00:00:00Z`);
      const all = await dayCounts(deps.db, addDays(first, -days), today);
      current = all.filter((pair) => pair.bucket >= first);
      previous = all.filter((pair) => pair.bucket < first);
      chart = all.filter((pair) => pair.bucket >= chartFrom);
      if (days < STATS_CHART_DAYS) chart = await dayCounts(deps.db, chartFrom, today);
    }
    const pairKey = (pair: PairCounts) => `${pair.service}|${pair.countryId}`;
    const before = sumBy(previous, pairKey);
    const rows = [...sumBy(current, pairKey)].map(([key, counts]) => {
      const [service, countryId] = key.split('|') as [string, string];
      return rowOf(service, countryId, counts, before.get(key));
    });
    rows.sort(
      (a, b) =>
        b.settled - a.settled || a.service.localeCompare(b.service) || a.country.localeCompare(b.country),
    );
    /** Each key's days over the chart's span (a service's across countries, or a country's across services). */
    function dailyBy(keyOf: (pair: PairCounts) => string): Map<string, StatsDay[]> {
      const perDay = sumBy(chart, (pair) => `${keyOf(pair)}|${pair.bucket}`);
      const daily = new Map<string, StatsDay[]>();
      for (const key of new Set(chart.map(keyOf))) {
        const days: StatsDay[] = [];
        for (let day = chartFrom; day <= today; day = addDays(day, 1)) {
          const figures = figuresOf(perDay.get(`${key}|${day}`) ?? emptyCounts());
          days.push({
            day,
            settled: figures.settled,
            with_code: figures.with_code,
            delivery_rate: figures.delivery_rate,
            median_seconds: figures.median_seconds,
          });
        }
        daily.set(key, days);
      }
      return daily;
    }
    const answer: StatsAnswer = {
      window,
      from: from.toISOString(),
      to: now.toISOString(),
      generated_at: now.toISOString(),
      min_settled: STATS_MIN_SETTLED,
      licence: STATS_LICENCE,
      rows,
    };
    const byService = (pair: PairCounts) => pair.service;
    const byCountry = (pair: PairCounts) => pair.countryId;
    return {
      answer,
      daily: { services: dailyBy(byService), countries: dailyBy(byCountry) },
      totals: { services: sumBy(current, byService), countries: sumBy(current, byCountry) },
      csv: csvOf(rows),
      pages: { services: new Map(), countries: new Map() },
    };
  }

  /**
   * The window's figures: counted on the first read, then served from memory. Once older than `cacheMs`
   * the last figures are still served while one recount runs, so no reader waits for a count after the
   * first (the figures are at most a count's time older than a minute).
   */
  function snapshot(window: StatsWindow): Promise<Snapshot> {
    const nowMs = deps.clock.now().getTime();
    const cached = cache.get(window);
    const fresh = cached && nowMs - cached.at < cacheMs && nowMs >= cached.at;
    if (cached && (fresh || cached.recount)) return cached.snapshot;
    const counted = count(window, new Date(nowMs));
    const entry = { at: nowMs, snapshot: counted, recount: null as Promise<Snapshot> | null };
    if (!cached) {
      cache.set(window, entry);
      // A failed first count is not kept: the next reader tries again.
      counted.catch(() => cache.delete(window));
      return counted;
    }
    cached.recount = counted;
    counted.then(
      () => cache.set(window, entry),
      () => {
        cached.recount = null;
      },
    );
    return cached.snapshot;
  }

  return {
    async window(window: StatsWindow): Promise<StatsAnswer> {
      return (await snapshot(window)).answer;
    },
    async csv(window: StatsWindow): Promise<string> {
      return (await snapshot(window)).csv;
    },
    /**
     * One service's countries and daily chart, the same object while the window's figures last (its JSON is
     * serialized once); null when it is not a service we know.
     */
    async service(window: StatsWindow, code: string): Promise<StatsServiceAnswer | null> {
      const known = serviceByCode(code);
      if (!known) return null;
      const { answer, daily, totals, pages } = await snapshot(window);
      let made = pages.services.get(known.code);
      if (!made) {
        const { rows, ...header } = answer;
        made = {
          ...header,
          service: known.code,
          service_name: known.name,
          total: figuresOf(totals.services.get(known.code) ?? emptyCounts()),
          countries: rows.filter((row) => row.service === known.code),
          daily: daily.services.get(known.code) ?? [],
        };
        pages.services.set(known.code, made);
      }
      return made;
    },
    /** One country's services and daily chart, as `service` is for a service; null for an unknown code. */
    async country(window: StatsWindow, code: string): Promise<StatsCountryAnswer | null> {
      const known = countryById(code.toUpperCase());
      if (!known) return null;
      const { answer, daily, totals, pages } = await snapshot(window);
      let made = pages.countries.get(known.id);
      if (!made) {
        const { rows, ...header } = answer;
        made = {
          ...header,
          country: known.id,
          country_name: known.name,
          total: figuresOf(totals.countries.get(known.id) ?? emptyCounts()),
          services: rows.filter((row) => row.country === known.id),
          daily: daily.countries.get(known.id) ?? [],
        };
        pages.countries.set(known.id, made);
      }
      return made;
    },
    /** Forgets every cached window (after a freeze, so a frozen day is read from its rows). */
    forget(): void {
      cache.clear();
    },
  };
}

export type DeliveryIndex = ReturnType<typeof createDeliveryIndex>;
