import { formatCents } from '@simcode/contract';
import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

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
