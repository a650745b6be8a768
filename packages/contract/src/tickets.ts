import { z } from 'zod';
import { reasonField } from './admin';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';
import { decimalInteger, multilineText, validationMessages as say } from './wire';

/**
 * Support tickets (spec sections 2, 3, 4, 7 and 8): statuses, sort orders, limits, every text both apps
 * show, and the wire shapes of the user and administrator endpoints.
 */

export const ticketStatuses = ['open', 'waiting_for_reply', 'closed'] as const;
export const ticketStatusSchema = z.enum(ticketStatuses, { error: () => say.oneOf(ticketStatuses) });
export type TicketStatus = z.infer<typeof ticketStatusSchema>;

export const ticketStatusLabels: Readonly<Record<TicketStatus, string>> = defineMessages(
  'ticketStatus',
  en.ticketStatus,
);

/** The label of a status as the server sent it; an unknown value is shown as it came. */
export function ticketStatusLabel(status: string): string {
  return ticketStatusLabels[status as TicketStatus] ?? status;
}

export function isTicketStatus(value: string): value is TicketStatus {
  return (ticketStatuses as readonly string[]).includes(value);
}

export const ticketSortOrders = ['date_desc', 'date_asc', 'status'] as const;
export const ticketSortSchema = z.enum(ticketSortOrders, { error: () => say.oneOf(ticketSortOrders) });
export type TicketSort = z.infer<typeof ticketSortSchema>;
export const DEFAULT_TICKET_SORT: TicketSort = 'date_desc';

/** The spec shows no limits; these are ours (title in one line, a message of a few screens). */
export const TICKET_TITLE_MAX_LENGTH = 200;
export const TICKET_CONTENT_MAX_LENGTH = 5000;

export const TICKETS_PAGE_SIZE_DEFAULT = 50;
export const TICKETS_PAGE_SIZE_MAX = 100;

/** Per-user limits: generous for a person, a wall for a script filling the support queue. */
export const TICKET_CREATE_RATE_LIMIT = { max: 10, timeWindowMs: 60 * 60 * 1000 } as const;
export const TICKET_MESSAGE_RATE_LIMIT = { max: 20, timeWindowMs: 60 * 1000 } as const;

export const ticketMessages = defineMessages('tickets', en.tickets, (t) => ({
  get titleTooLong() {
    return t('titleTooLong', { max: TICKET_TITLE_MAX_LENGTH });
  },
  get descriptionTooLong() {
    return t('descriptionTooLong', { max: TICKET_CONTENT_MAX_LENGTH });
  },
  get messageTooLong() {
    return t('messageTooLong', { max: TICKET_CONTENT_MAX_LENGTH });
  },
  statusUpdatedDescription: (status: string) => t('statusUpdatedDescription', { status }),
}));

export function statusUpdatedDescription(status: string): string {
  return ticketMessages.statusUpdatedDescription(ticketStatusLabel(status));
}

/** The rules for a new ticket, on trimmed values: the first broken one's text, or null. */
export function validateNewTicket({ title, description }: { title: string; description: string }) {
  if (!title) return ticketMessages.titleRequired;
  if (!description) return ticketMessages.descriptionRequired;
  if (title.length > TICKET_TITLE_MAX_LENGTH) return ticketMessages.titleTooLong;
  if (description.length > TICKET_CONTENT_MAX_LENGTH) return ticketMessages.descriptionTooLong;
  return null;
}

/** The rules for a message, on the trimmed content. */
export function validateTicketMessage(content: string): string | null {
  if (!content) return ticketMessages.messageRequired;
  if (content.length > TICKET_CONTENT_MAX_LENGTH) return ticketMessages.messageTooLong;
  return null;
}

/**
 * Wire strings are bounded well above the business limits so that absurd input is refused by the schema,
 * while the rules above answer with their own texts. A missing field counts as empty.
 */
const wireText = multilineText(TICKET_CONTENT_MAX_LENGTH * 4)
  .optional()
  .default('');

// A title's stray line break or tab is trimmed away by the rules like a space: only other controls are refused.
export const createTicketRequestSchema = z.object({ title: wireText, description: wireText });
export type CreateTicketRequest = z.input<typeof createTicketRequestSchema>;

export const ticketMessageRequestSchema = z.object({ content: wireText });
export type TicketMessageRequest = z.input<typeof ticketMessageRequestSchema>;

/** Support's status change names its reason: it goes into the audit log. */
export const setTicketStatusRequestSchema = z.object({ status: ticketStatusSchema, reason: reasonField });
export type SetTicketStatusRequest = z.input<typeof setTicketStatusRequestSchema>;

export const ticketListQuerySchema = z.object({
  sort: ticketSortSchema.default(DEFAULT_TICKET_SORT),
  limit: decimalInteger(1, TICKETS_PAGE_SIZE_MAX).default(TICKETS_PAGE_SIZE_DEFAULT),
  offset: decimalInteger(0, 1_000_000).default(0),
});
export type TicketListQuery = z.input<typeof ticketListQuerySchema>;

export const ticketSchema = z.object({
  id: z.number(),
  user_id: z.number(),
  title: z.string(),
  description: z.string(),
  status: ticketStatusSchema,
  created_at: z.string(),
  updated_at: z.string(),
  /** The order a problem report opened the ticket about, if any. */
  activation_id: z.number().int().nullable().optional(),
  /** Support answered after the ticket's owner last opened it. */
  unread: z.boolean().optional(),
});
export type Ticket = z.infer<typeof ticketSchema>;

/** Messages are plain text: the web app renders them as text, never as HTML. */
export const ticketMessageSchema = z.object({
  id: z.number(),
  ticket_id: z.number(),
  content: z.string(),
  is_admin: z.boolean(),
  created_at: z.string(),
});
export type TicketMessage = z.infer<typeof ticketMessageSchema>;

export const ticketListResponseSchema = z.object({
  success: z.literal(true),
  tickets: z.array(ticketSchema),
  /** How many tickets the listing has in all; the page is `limit` of them from `offset`. */
  total: z.number(),
  limit: z.number(),
  offset: z.number(),
});
export type TicketListResponse = z.infer<typeof ticketListResponseSchema>;

export const ticketResponseSchema = z.object({ success: z.literal(true), ticket: ticketSchema });
export const unreadTicketsResponseSchema = z.object({ success: z.literal(true), count: z.number().int() });
export type UnreadTicketsResponse = z.infer<typeof unreadTicketsResponseSchema>;
export type TicketResponse = z.infer<typeof ticketResponseSchema>;

export const ticketThreadResponseSchema = z.object({
  success: z.literal(true),
  ticket: ticketSchema,
  messages: z.array(ticketMessageSchema),
});
export type TicketThreadResponse = z.infer<typeof ticketThreadResponseSchema>;

export const ticketMessageResponseSchema = z.object({
  success: z.literal(true),
  ticket: ticketSchema,
  message: ticketMessageSchema,
});
export type TicketMessageResponse = z.infer<typeof ticketMessageResponseSchema>;

export const ticketUserResponseSchema = z.object({
  success: z.literal(true),
  user: z.object({ id: z.number(), username: z.string(), email: z.string() }),
});
export type TicketUserResponse = z.infer<typeof ticketUserResponseSchema>;
