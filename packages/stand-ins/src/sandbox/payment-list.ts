/**
 * `v1/payment/list` pages like Cryptomus's (Laravel cursor pagination, protocols.md D.6): newest first,
 * `paginate: {count, hasPages, nextCursor, previousCursor, perPage}`, where a cursor is base64url JSON
 * naming the item it continues from and in which direction. Cursors name items, not positions, so an
 * invoice created between two calls neither repeats nor hides one.
 */

/** The page size Cryptomus answers with (its documented example shows 15). */
export const PER_PAGE = 15;

interface Cursor {
  uuid: string;
  pointsToNextItems: boolean;
}

function encodeCursor(cursor: Cursor): string {
  const json = JSON.stringify({ uuid: cursor.uuid, _pointsToNextItems: cursor.pointsToNextItems });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/**
 * The cursor a client sent, or null for the first page. Anything unreadable also means the first page:
 * the official PHP SDK sends `cursor: "1"` when asked for the first page.
 */
export function decodeCursor(value: unknown): Cursor | null {
  if (typeof value !== 'string' || value === '') return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
    const { uuid, _pointsToNextItems: next } = (parsed ?? {}) as Record<string, unknown>;
    return typeof uuid === 'string' && typeof next === 'boolean' ? { uuid, pointsToNextItems: next } : null;
  } catch {
    return null;
  }
}

export interface Page<T> {
  items: T[];
  paginate: {
    count: number;
    hasPages: boolean;
    nextCursor: string | null;
    previousCursor: string | null;
    perPage: number;
  };
}

/** One page of `newestFirst`; a cursor whose item is gone (reset, or filtered out) starts over. */
export function pageOf<T extends { uuid: string }>(newestFirst: T[], cursor: Cursor | null): Page<T> {
  const at = cursor ? newestFirst.findIndex((item) => item.uuid === cursor.uuid) : -1;
  let start = 0;
  let end = Math.min(PER_PAGE, newestFirst.length);
  if (cursor && at >= 0 && cursor.pointsToNextItems) {
    start = at + 1;
    end = Math.min(start + PER_PAGE, newestFirst.length);
  } else if (cursor && at >= 0) {
    end = at;
    start = Math.max(0, end - PER_PAGE);
  }
  const items = newestFirst.slice(start, end);
  const first = items[0];
  const last = items.at(-1);
  return {
    items,
    paginate: {
      count: items.length,
      hasPages: start > 0 || end < newestFirst.length,
      nextCursor:
        last && end < newestFirst.length ? encodeCursor({ uuid: last.uuid, pointsToNextItems: true }) : null,
      previousCursor:
        first && start > 0 ? encodeCursor({ uuid: first.uuid, pointsToNextItems: false }) : null,
      perPage: PER_PAGE,
    },
  };
}
