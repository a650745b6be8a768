import { fail } from '../../lib/errors';

/**
 * The opaque cursor of a list page: the keyset position (the last row's id) written so clients do not build
 * it themselves, and can be given another shape later without breaking them.
 */
export function cursorAfter(lastId: number | null): string | null {
  return lastId === null ? null : Buffer.from(`v1:${lastId}`).toString('base64url');
}

/** The position a cursor names; undefined for the first page. A cursor this API did not write is a 400. */
export function positionOf(cursor: string | undefined): number | undefined {
  if (cursor === undefined) return undefined;
  const match = /^v1:([1-9]\d{0,15})$/.exec(Buffer.from(cursor, 'base64url').toString());
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw fail('invalid_cursor');
  return id;
}

/** One page of `rows` read with one more than `limit`: the page, and the cursor of the next one. */
export function pageOf<Row extends { id: number }>(rows: readonly Row[], limit: number) {
  const page = rows.slice(0, limit);
  return { page, next_cursor: cursorAfter(rows.length > limit ? page[page.length - 1]!.id : null) };
}
