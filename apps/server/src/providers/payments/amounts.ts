/**
 * Providers write money as decimal strings ("16.00000000"); we keep integer cents. The conversion works on
 * the digits, never through a float, so "0.29" is 29 cents and not 28.999... rounded the wrong way.
 */

/** Thirteen integer digits keep every amount below 10^15 cents, well inside Number.MAX_SAFE_INTEGER. */
const DECIMAL_PATTERN = /^(\d{1,13})(?:\.(\d{1,18}))?$/;

/**
 * Cents in a non-negative decimal amount, rounded half up to the cent; null for anything else (signs,
 * exponents, spaces, commas, empty strings, absurd sizes). Numbers are accepted in case a provider sends
 * one, through their shortest text, so 10.5 reads as "10.5".
 */
export function decimalToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string') return null;
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) return null;
  const whole = match[1]!;
  const fraction = (match[2] ?? '').padEnd(3, '0');
  const cents = Number(whole) * 100 + Number(fraction.slice(0, 2));
  return fraction.charCodeAt(2) >= '5'.charCodeAt(0) ? cents + 1 : cents;
}

/** "12.34" for 1234: the two-decimal form invoices are created with. */
export function centsToDecimal(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new RangeError(`not a whole, non-negative number of cents: ${amountCents}`);
  }
  const text = String(amountCents).padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}
