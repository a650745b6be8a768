import {
  EMAIL_CHANGE_LIFETIME_HOURS,
  EMAIL_REVERT_LIFETIME_DAYS,
  i18n,
  LANGUAGE_TAGS,
  type Language,
  localizedPublicPath,
  PASSWORD_RESET_LIFETIME_MINUTES,
  transactionId,
} from '@simcode/contract';
import type { MailTemplate } from '../../db/schema';
import { escapeHtml } from '../../lib/html';
import english from './locales/en.json';
import russian from './locales/ru.json';
import chinese from './locales/zh.json';

// Mail is rendered by a job, outside any request: each text names its language instead of following one.
const MAIL_NAMESPACE = 'mail';
for (const [language, catalogue] of [
  ['en', english],
  ['ru', russian],
  ['zh', chinese],
] as const) {
  i18n.addResourceBundle(language, MAIL_NAMESPACE, catalogue, true, true);
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

interface TemplateContext {
  appName: string;
  publicUrl: string;
  language: Language;
}

/** What each template needs; the queue stores it as JSON and a database trigger writes some of it. */
export interface MailPayloads {
  password_reset: { link: string };
  email_change: { link: string; newEmail: string };
  /** To the old address, when a change is asked for. */
  email_change_requested: { newEmail: string };
  /** To the old address, when the change is done: with the link that moves it back. */
  email_changed: { newEmail: string; revertLink: string };
  api_key_created: { name: string; prefix: string };
  /** Written by the database trigger that pauses the key (migration 0028). */
  api_key_paused: { keyId: number; name: string; prefix: string; failures: number };
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
  /** An incident of the status page opened or closed (its texts in every language; the recipient's is used). */
  status_incident: {
    incidentId: number;
    event: 'opened' | 'resolved';
    component: string;
    title: Record<Language, string>;
    text: Record<Language, string>;
  };
  /** To an operator alert channel's address: written by the alerts module in the operators' words. */
  operator_alert: { subject: string; lines: string[]; link: string };
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

type Say = (key: string, values?: Record<string, unknown>) => string;

/** Money and dates as the recipient's language writes them; dates in UTC, which the mail says. */
function formatsOf(language: Language) {
  const tag = LANGUAGE_TAGS[language];
  const money = new Intl.NumberFormat(tag, { style: 'currency', currency: 'USD' });
  const date = new Intl.DateTimeFormat(tag, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' });
  return {
    cents: (cents: number) => money.format(Math.round(cents) / 100),
    date: (iso: string) => date.format(new Date(iso)),
  };
}

const renderers: {
  [T in MailTemplate]: (context: TemplateContext, payload: MailPayloads[T], say: Say) => RenderedMail;
} = {
  password_reset: (context, { link }, say) =>
    compose(context, say('passwordReset.subject'), [
      say('passwordReset.intro'),
      { link },
      say('passwordReset.lifetime', { minutes: PASSWORD_RESET_LIFETIME_MINUTES }),
      say('passwordReset.ignore'),
    ]),
  email_change: (context, { link, newEmail }, say) =>
    compose(context, say('emailChange.subject'), [
      say('emailChange.intro', { email: newEmail }),
      { link },
      say('emailChange.lifetime', { hours: EMAIL_CHANGE_LIFETIME_HOURS }),
    ]),
  email_change_requested: (context, { newEmail }, say) =>
    compose(context, say('emailChangeRequested.subject'), [
      say('emailChangeRequested.intro', { email: newEmail }),
      say('emailChangeRequested.notYou'),
      { link: `${context.publicUrl}/dashboard/account` },
    ]),
  email_changed: (context, { newEmail, revertLink }, say) =>
    compose(context, say('emailChanged.subject'), [
      say('emailChanged.intro', { email: newEmail }),
      say('emailChanged.notYou', { days: EMAIL_REVERT_LIFETIME_DAYS }),
      { link: revertLink },
    ]),
  api_key_created: (context, { name, prefix }, say) =>
    compose(context, say('apiKeyCreated.subject'), [
      say('apiKeyCreated.intro', { name, prefix }),
      say('apiKeyCreated.notYou'),
      { link: `${context.publicUrl}/dashboard/api` },
    ]),
  api_key_paused: (context, { name, prefix, failures }, say) =>
    compose(context, say('apiKeyPaused.subject', { name }), [
      say('apiKeyPaused.intro', { name, prefix, count: failures }),
      say('apiKeyPaused.resume'),
      { link: `${context.publicUrl}/dashboard/api` },
    ]),
  topup_receipt: (context, payload, say) => {
    const format = formatsOf(context.language);
    const amount = format.cents(payload.amountCents);
    return compose(context, say('topupReceipt.subject', { amount }), [
      payload.orderId
        ? say('topupReceipt.receivedForOrder', { amount, orderId: payload.orderId })
        : say('topupReceipt.received', { amount }),
      say('topupReceipt.transaction', {
        transactionId: transactionId(payload.entryId),
        date: format.date(payload.createdAt),
      }),
      say('topupReceipt.balance', { balance: format.cents(payload.balanceAfterCents) }),
      say('topupReceipt.transactions'),
      { link: `${context.publicUrl}/dashboard/balance` },
    ]);
  },
  code_received: (context, payload, say) =>
    compose(context, say('codeReceived.subject', { code: payload.code }), [
      say('codeReceived.body', {
        phone: payload.phoneNumber ? `+${payload.phoneNumber.replace(/^\+/, '')}` : '',
        service: payload.service,
        code: payload.code,
      }),
      say('codeReceived.numbers'),
      { link: `${context.publicUrl}/dashboard/numbers` },
      say('codeReceived.optOut'),
    ]),
  status_incident: (context, payload, say) =>
    compose(
      context,
      say(payload.event === 'opened' ? 'statusIncident.openedSubject' : 'statusIncident.resolvedSubject', {
        title: payload.title[context.language],
      }),
      [
        payload.text[context.language],
        say('statusIncident.page'),
        { link: `${context.publicUrl}${localizedPublicPath('/status', context.language)}` },
        say('statusIncident.optOut'),
      ],
    ),
  // Operators read alerts as the console writes them: the alert is composed once for every channel.
  operator_alert: (context, { subject, lines, link }) => compose(context, subject, [...lines, { link }]),
};

export function renderMail<T extends MailTemplate>(
  template: T,
  payload: MailPayloads[T],
  context: TemplateContext,
): RenderedMail {
  const say: Say = (key, values) => i18n.t(key, { ...values, lng: context.language, ns: MAIL_NAMESPACE });
  return renderers[template](context, payload, say);
}
