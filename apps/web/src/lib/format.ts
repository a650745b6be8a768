/** Prices are shown in dollars with two decimals (spec section 9). */
export function formatUsd(dollars: number): string {
  return `$${dollars.toFixed(2)}`;
}

/** International numbers arrive as digits without '+'. */
export function formatPhone(digits: string): string {
  return digits.startsWith('+') ? digits : `+${digits}`;
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
