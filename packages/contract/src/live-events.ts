import { z } from 'zod';

/**
 * The messages of the signed-in user's event stream (`GET apiPaths.dashboard.events`, server-sent events):
 * the event's name says what changed, its JSON data what is known about it. Every field is optional: a
 * message with none says only that something of that kind changed, and the page asks again.
 */
export const liveEventSchemas = {
  /** A one-time number changed; with `order_id` and `code`, which number got which code. */
  numbers: z.object({
    order_id: z.number().int().positive().optional(),
    code: z.string().nullable().optional(),
  }),
  /** A rent changed. */
  rents: z.object({ rent_id: z.number().int().positive().optional() }),
  /** The balance changed (a top-up, a refund, an adjustment). */
  balance: z.object({}),
  /** One of the user's tickets changed (support answered, it was read on another device). */
  tickets: z.object({}),
  /** A setting of the account changed, perhaps on another device (its language, one-click buying). */
  settings: z.object({}),
} as const;

export type LiveEventType = keyof typeof liveEventSchemas;

export type LiveEvent = {
  [Type in LiveEventType]: { type: Type; data: z.infer<(typeof liveEventSchemas)[Type]> };
}[LiveEventType];

function isLiveEventType(type: string): type is LiveEventType {
  return Object.hasOwn(liveEventSchemas, type);
}

/**
 * One message of the stream, checked: its name and its data as sent (`data: {}` when the server says no
 * more). Null for a name this client does not know. Data that does not match its schema still says that
 * something of that kind changed: the event comes without details.
 */
export function parseLiveEvent(type: string, data: string): LiveEvent | null {
  if (!isLiveEventType(type)) return null;
  let json: unknown = {};
  try {
    json = data === '' ? {} : JSON.parse(data);
  } catch {
    // Unreadable data: the event without details.
  }
  const parsed = liveEventSchemas[type].safeParse(json);
  return { type, data: parsed.success ? parsed.data : {} } as LiveEvent;
}
