import { formatCents } from '@simcode/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';
import { locale } from '@/i18n';

const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** One `Intl.DateTimeFormat` per language and style, made on first use. */
function dateTimeFormat(style: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale()} ${style}`;
  let format = dateTimeFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale(), options);
    dateTimeFormats.set(key, format);
  }
  return format;
}

const asDate = (value: string | number | Date) => (value instanceof Date ? value : new Date(value));

/** A day in the current language: 'Jan 15, 2026', '15 янв. 2026 г.', '2026年1月15日'. */
export function formatDate(value: string | number | Date): string {
  return dateTimeFormat('date', { dateStyle: 'medium' }).format(asDate(value));
}

/** A day with the month written out: 'January 15, 2026', '15 января 2026 г.'. */
export function formatLongDate(value: string | number | Date): string {
  return dateTimeFormat('long-date', { dateStyle: 'long' }).format(asDate(value));
}

/** A moment, to the minute on a 24-hour clock: 'Jan 15, 2026, 14:05', '15 янв. 2026 г., 14:05'. */
export function formatDateTime(value: string | number | Date): string {
  return dateTimeFormat('date-time', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(asDate(value));
}

/** A recent moment, without the year: 'Jan 15, 14:05', '15 янв., 14:05'. */
export function formatDayTime(value: string | number | Date): string {
  return dateTimeFormat('day-time', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(asDate(value));
}

/** A time of day as the language reads it: '2:05 PM' in English, '14:05' in Russian and Chinese. */
export function formatTime(value: string | number | Date): string {
  // The 24-hour clock every other page uses (formatDateTime), not '5:21 PM' here alone.
  return dateTimeFormat('time', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
    asDate(value),
  );
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A count as the language groups digits: '12,345', '12 345'. */
export function formatNumber(value: number): string {
  let format = numberFormats.get(locale());
  if (!format) {
    format = new Intl.NumberFormat(locale());
    numberFormats.set(locale(), format);
  }
  return format.format(value);
}

/** The API's dollar amounts (two decimals on the wire), shown like every other sum of money: '$1,234.50'. */
export function formatDollars(dollars: number): string {
  return formatCents(Math.round(dollars * 100));
}

/**
 * A phone number as its country writes it in international form: '447477396349' → '+44 7477 396349'.
 * Numbers arrive as digits without '+'; one the library cannot place is shown as '+digits'. Every number
 * the app shows goes through here.
 */
export function formatPhone(digits: string): string {
  const international = digits.startsWith('+') ? digits : `+${digits}`;
  const parsed = parsePhoneNumberFromString(international);
  return parsed?.isPossible() ? parsed.formatInternational() : international;
}

/**
 * A number as a sign-up form takes it: the international digits without spaces or dashes ('+85517536036'),
 * and the national number without the country code ('17536036'; null when the number cannot be parsed).
 */
export function phoneForForms(phone: string): { international: string; national: string | null } {
  const international = `+${phone.replace(/\D/g, '')}`;
  const parsed = parsePhoneNumberFromString(international);
  return { international, national: parsed?.isPossible() ? parsed.nationalNumber : null };
}

/** A code as a form field takes it: '360-712' and '360 712' are typed as '360712'. */
export function codeForForms(code: string): string {
  return code.replace(/[\s-]/g, '');
}

/** mm:ss for the one-time countdown. */
export function formatMinutesSeconds(totalSeconds: number): string {
  const minutes = Math.floor(totalSeconds / 60);
  const seconds = totalSeconds % 60;
  return `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

/** `Nd hh:mm:ss` or `hh:mm:ss` for the rent countdown. */
export function formatDaysClock(totalSeconds: number): string {
  const days = Math.floor(totalSeconds / 86_400);
  const hours = Math.floor((totalSeconds % 86_400) / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  const clock = [hours, minutes, seconds].map((part) => String(part).padStart(2, '0')).join(':');
  return days > 0 ? `${days}d ${clock}` : clock;
}

/**
 * 'a' or 'an' before a name, by its first sound as far as the spelling tells: an Airbnb, an OLX, a Uber,
 * an Upwork, a Yahoo. Screen readers read the accessible names that use it.
 */
export function withArticle(name: string): string {
  const startsWithVowelSound = /^[aeio]/i.test(name) || /^u(?![bcdfghjklmnpqrstvwxz][aeiouy])/i.test(name);
  return `${startsWithVowelSound ? 'an' : 'a'} ${name}`;
}
