import {
  EMAIL_CHANGE_LIFETIME_HOURS,
  formatCents,
  PASSWORD_RESET_LIFETIME_MINUTES,
  transactionId,
} from '@simcode/contract';
import type { MailTemplate } from '../../db/schema';
import { escapeHtml } from '../../lib/html';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface TemplateContext {
  appName: string;
  publicUrl: string;
}

/** What each template needs; the queue stores it as JSON and a database trigger writes some of it. */
export interface MailPayloads {
  password_reset: { link: string };
  email_change: { link: string; newEmail: string };
  topup_receipt: {
    entryId: number;
    amountCents: number;
    balanceAfterCents: number;
    orderId: string | null;
    createdAt: string;
  };
  code_received: {
    activationId: number;
    service: string;
    countryId: string;
    phoneNumber: string | null;
    code: string;
  };
}

/**
 * One message in both forms from the same paragraphs, so the plain text and the HTML cannot say different
 * things. A paragraph is text, or a link shown as its own address (mail clients and the outbox show both).
 */
type Paragraph = string | { link: string };

function compose(context: TemplateContext, subject: string, paragraphs: Paragraph[]): RenderedMail {
  const footer = `${context.appName} · ${context.publicUrl}`;
  const text = [
    ...paragraphs.map((part) => (typeof part === 'string' ? part : part.link)),
    '--',
    footer,
  ].join('\n\n');
  const body = paragraphs
    .map((part) =>
      typeof part === 'string'
        ? `<p>${escapeHtml(part)}</p>`
        : `<p><a href="${escapeHtml(part.link)}">${escapeHtml(part.link)}</a></p>`,
    )
    .join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">\n${body}\n<p style="color:#666">${escapeHtml(footer)}</p>\n</body></html>`;
  return { subject: `${context.appName}: ${subject}`, text, html };
}

const renderers: {
  [T in MailTemplate]: (context: TemplateContext, payload: MailPayloads[T]) => RenderedMail;
} = {
  password_reset: (context, { link }) =>
    compose(context, 'reset your password', [
      'Someone asked to reset the password of your account. To choose a new password, open this link:',
      { link },
      `The link works once, for ${PASSWORD_RESET_LIFETIME_MINUTES} minutes. Resetting signs out every session.`,
      'If you did not ask for this, ignore this message: your password stays as it is.',
    ]),
  email_change: (context, { link, newEmail }) =>
    compose(context, 'confirm your new e-mail address', [
      `To make ${newEmail} the e-mail address of your account, open this link:`,
      { link },
      `The link works once, for ${EMAIL_CHANGE_LIFETIME_HOURS} hours. If you did not ask for this, ignore this message.`,
    ]),
  topup_receipt: (context, payload) =>
    compose(context, `receipt for your top-up of ${formatCents(payload.amountCents)}`, [
      `We received your top-up of ${formatCents(payload.amountCents)}${payload.orderId ? ` (order ${payload.orderId})` : ''}.`,
      `Transaction ID: ${transactionId(payload.entryId)}. Date: ${new Date(payload.createdAt).toUTCString()}.`,
      `Your balance is now ${formatCents(payload.balanceAfterCents)}.`,
      'Your transactions:',
      { link: `${context.publicUrl}/dashboard/balance` },
    ]),
  code_received: (context, payload) =>
    compose(context, `code ${payload.code}`, [
      `Your number ${payload.phoneNumber ? `+${payload.phoneNumber.replace(/^\+/, '')}` : ''} for ${payload.service} received a code: ${payload.code}`,
      'Your numbers:',
      { link: `${context.publicUrl}/dashboard/numbers` },
      'You get these messages because you asked for them on your account page; you can turn them off there.',
    ]),
};

export function renderMail<T extends MailTemplate>(
  template: T,
  payload: MailPayloads[T],
  context: TemplateContext,
): RenderedMail {
  return renderers[template](context, payload);
}
