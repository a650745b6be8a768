import { createHmac } from 'node:crypto';
import type { AlertEvent, OperatorAlert } from '../../db/schema';

/** The header of a signed alert webhook: `sha256=<hex HMAC-SHA256 of the raw body under the channel's secret>`. */
export const ALERT_SIGNATURE_HEADER = 'x-simcode-alert-signature';

export function signAlertBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** One alert message, composed once and sent the same on every channel. */
export interface AlertMessage {
  subject: string;
  /** The lines of the text: what happened, since when, the evidence. */
  lines: string[];
  /** The console page, absolute. */
  link: string;
}

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

function evidenceLine(evidence: Record<string, unknown>): string | null {
  const parts = Object.entries(evidence)
    .filter(([, value]) => value !== null && value !== undefined)
    .map(([name, value]) => `${name}=${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
  return parts.length === 0 ? null : `Evidence: ${parts.join(', ')}`;
}

/** What an alert's opening or resolving says, in the operators' words (English, like the console's logs). */
export function composeAlertMessage(
  alert: OperatorAlert,
  event: AlertEvent,
  appName: string,
  publicUrl: string,
): AlertMessage {
  const link = `${publicUrl}${alert.link}`;
  if (event === 'resolved') {
    return {
      subject: `[${appName}] Resolved: ${alert.kind.replaceAll('_', ' ')}`,
      lines: [
        `Resolved: ${alert.summary}`,
        `It held from ${utc(alert.since)} to ${utc(alert.resolvedAt ?? alert.openedAt)}.`,
      ],
      link,
    };
  }
  return {
    subject: `[${appName}] Alert: ${alert.kind.replaceAll('_', ' ')}`,
    lines: [alert.summary, `Since ${utc(alert.since)}.`, evidenceLine(alert.evidence)].filter(
      (line): line is string => line !== null,
    ),
    link,
  };
}

/** The webhook's JSON body: the alert as data, for receivers that act on it. */
export function alertWebhookBody(alert: OperatorAlert, event: AlertEvent, message: AlertMessage): string {
  return JSON.stringify({
    event: `alert.${event}`,
    alert: {
      id: alert.id,
      key: alert.conditionKey,
      kind: alert.kind,
      summary: alert.summary,
      evidence: alert.evidence,
      since: alert.since.toISOString(),
      opened_at: alert.openedAt.toISOString(),
      resolved_at: alert.resolvedAt?.toISOString() ?? null,
      link: message.link,
    },
    text: [message.subject, ...message.lines].join('\n'),
  });
}
