import { i18n } from '@/i18n';
import { formatDaysClock } from '@/lib/format';

const PERIOD = /^\s*(\d+)\s+(hour|day|week|month)s?\s*$/i;

/**
 * A period as the current language says it ('24 hours' → '24 часа'). Periods travel as English texts (the
 * rent-number call sends one, the rents list returns it); one this does not recognise is shown as it is.
 */
export function displayPeriod(text: string): string {
  const match = PERIOD.exec(text);
  if (!match) return text;
  return i18n.t(`rentals:period.${match[2]!.toLowerCase()}`, { count: Number(match[1]) });
}

/** The rent countdown: 'hh:mm:ss', with the days before it in the current language ('1d 02:00:05'). */
export function formatTimeLeft(totalSeconds: number): string {
  const days = Math.floor(totalSeconds / 86_400);
  const clock = formatDaysClock(totalSeconds % 86_400);
  return days > 0 ? i18n.t('rentals:daysClock', { days, clock }) : clock;
}
