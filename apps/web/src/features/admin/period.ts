import { locale } from '@/i18n';

const formats = new Map<string, Intl.DateTimeFormat>();

/** One UTC format per language and unit, made on first use (the language can change while the app runs). */
function utcFormat(hourly: boolean): Intl.DateTimeFormat {
  const key = `${locale()} ${hourly ? 'hour' : 'day'}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(
      locale(),
      hourly
        ? { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'UTC' }
        : { month: 'short', day: 'numeric', timeZone: 'UTC' },
    );
    formats.set(key, format);
  }
  return format;
}

/**
 * The overview's periods are UTC days (or hours for today), named as such whatever the browser's zone:
 * 'Nov 26' ('26 нояб.', '11月26日') for a day, '14:00' for an hour; `at` is an ISO time or milliseconds.
 */
export function periodLabel(at: string | number, hourly: boolean): string {
  return utcFormat(hourly).format(new Date(at));
}
