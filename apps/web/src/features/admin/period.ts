/** The overview's periods are UTC days (or hours for today), named as such whatever the browser's zone. */
const UTC_DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const UTC_HOUR = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** 'Nov 26' for a day, '14:00' for an hour; `at` is an ISO time or milliseconds. */
export function periodLabel(at: string | number, hourly: boolean): string {
  return (hourly ? UTC_HOUR : UTC_DAY).format(new Date(at));
}
