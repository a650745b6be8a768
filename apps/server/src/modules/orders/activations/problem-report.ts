import {
  buyingMessages,
  currentLanguage,
  formatCents,
  LANGUAGE_TAGS,
  type ProblemKind,
  type ReportProblemRequest,
  TICKET_CONTENT_MAX_LENGTH,
} from '@simcode/contract';
import { type AppError, fail, isUniqueViolation, notFound } from '../../../lib/errors';
import type { TicketsRepository } from '../../tickets/repository';
import type { ActivationDeps } from './deps';
import { displayNames } from './presenter';

const KIND_SENTENCES: Record<ProblemKind, () => string> = {
  number_used: () => buyingMessages.problemNumberUsed,
  code_rejected: () => buyingMessages.problemCodeRejected,
  no_sms: () => buyingMessages.problemNoSms,
};

/** A moment as the reader's language writes it, in UTC (which it says): the ticket is read by both sides. */
function readableUtc(moment: Date): string {
  const format = new Intl.DateTimeFormat(LANGUAGE_TAGS[currentLanguage()], {
    dateStyle: 'medium',
    timeStyle: 'medium',
    // The 24-hour clock of every other page, in every language.
    hourCycle: 'h23',
    timeZone: 'UTC',
  });
  return `${format.format(moment)} UTC`;
}

/** The order's ticket exists already: its id comes with the answer, for the page to open it. */
function alreadyReported(ticketId: number): AppError {
  return fail('already_reported', undefined, {
    ticket_id: ticketId,
  });
}

/**
 * Opens a support ticket about one of the user's orders, written out with what support needs (the order,
 * its number, price, status and every SMS) above the user's own words. One ticket per order: a second
 * report is told where the first one is. Support sees the order's history and can refund it from there.
 */
export async function reportProblem(
  deps: ActivationDeps,
  tickets: TicketsRepository,
  userId: number,
  orderId: number,
  report: ReportProblemRequest,
): Promise<number> {
  const order = await deps.repository.findForUser(userId, orderId);
  if (!order) throw notFound();
  if (!order.phoneNumber) throw fail('not_issued');
  const earlier = await tickets.findByActivation(order.id);
  if (earlier) throw alreadyReported(earlier.id);
  const messages = await deps.repository.messagesFor([order.id]);
  const { serviceName, countryName } = displayNames(order);
  const facts = [
    KIND_SENTENCES[report.kind](),
    '',
    `#${order.id} · ${serviceName} · ${countryName} · +${order.phoneNumber}`,
    `${formatCents(order.priceCents)} · ${order.status} · ${readableUtc(order.createdAt)}`,
    ...messages.map((message) => `SMS ${readableUtc(message.receivedAt)}: ${message.text}`),
  ];
  const note = report.note?.trim();
  const description = [...facts, ...(note ? ['', note] : [])].join('\n').slice(0, TICKET_CONTENT_MAX_LENGTH);
  try {
    const ticket = await tickets.insertWithFirstMessage({
      userId,
      title: buyingMessages.problemTicketTitle(order.id, serviceName),
      description,
      now: deps.clock.now(),
      activationId: order.id,
    });
    return ticket.id;
  } catch (error) {
    // Two reports at once: the unique index lets one through.
    if (isUniqueViolation(error, 'tickets_activation_key')) {
      const first = await tickets.findByActivation(order.id);
      if (first) throw alreadyReported(first.id);
    }
    throw error;
  }
}
