import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares secrets in time that does not depend on where they differ (hashing first evens the lengths). */
export function timingSafeEqualText(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b));
}
