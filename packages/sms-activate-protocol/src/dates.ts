/**
 * The protocol's dates: SMS-Activate writes them without a zone (`2022-06-01 16:59:16`), Hero as RFC 3339,
 * and BANNED's payload in a form of its own. A server writes them in UTC; a client reads zone-less ones in
 * the provider's zone.
 */

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** SMS-Activate's zone-less `2022-06-01 16:59:16`, written in UTC. */
export function saDateTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
}

/** Hero's RFC 3339 `2026-02-18T16:11:33+00:00`. */
export function rfc3339(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+00:00`;
}

/** BANNED's odd payload: `'2026-2-13 12-00-00'` (no zero padding in the date, dashes in the time). */
export function bannedDate(ms: number): string {
  const date = new Date(ms);
  return `'${date.getUTCFullYear()}-${date.getUTCMonth() + 1}-${date.getUTCDate()} ${pad(date.getUTCHours())}-${pad(date.getUTCMinutes())}-${pad(date.getUTCSeconds())}'`;
}

const ZONE_PATTERN = /(Z|[+-]\d{2}:?\d{2})$/i;
const LOCAL_DATE_PATTERN = /^\d{4}-\d{1,2}-\d{1,2}[ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?$/;

/**
 * A date the provider wrote without a zone (`2022-06-01 16:59:16`), its wall-clock time held as if UTC
 * until the client reads it in the provider's time zone (`inProviderZone`).
 */
export class ZonelessDate extends Date {}

/**
 * RFC 3339 dates keep their zone, as does a number (Unix seconds, or milliseconds when it is that large);
 * SMS-Activate's zone-less `2022-06-01 16:59:16` is a ZonelessDate.
 */
export function parseProviderDate(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (typeof value === 'number' && Number.isFinite(value)) {
    date = new Date(value < 1e12 ? value * 1000 : value);
  } else if (typeof value === 'string') {
    const text = value.trim();
    if (ZONE_PATTERN.test(text)) date = new Date(text);
    else if (LOCAL_DATE_PATTERN.test(text)) date = new ZonelessDate(`${text.replace(' ', 'T')}Z`);
  }
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in ms. */
function zoneOffsetMs(timeZone: string, at: Date): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value);
  const wall = Date.UTC(
    part('year'),
    part('month') - 1,
    part('day'),
    part('hour'),
    part('minute'),
    part('second'),
  );
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * A zone-less date read in the provider's time zone (Moscow time for some of the family): the reconciler
 * matches stuck purchases by time, and three hours off it refunds a number that is still live upstream.
 * Dates that carried a zone are returned as they are.
 */
export function inProviderZone<T extends Date | undefined>(date: T, timeZone: string): T {
  if (!(date instanceof ZonelessDate) || timeZone === 'UTC') return date;
  const firstGuess = new Date(date.getTime() - zoneOffsetMs(timeZone, date));
  return new Date(date.getTime() - zoneOffsetMs(timeZone, firstGuess)) as T;
}
